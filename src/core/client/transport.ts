/**
 * The client's HTTP transport: one logical call = attempts with retries, each attempt = one request plus any
 * same-origin redirect hops (spec: Errors — retry 429 and 5xx, redirects 301/302; Authentication — a new JWT
 * per request).
 *
 * What comes from undici and what is our own:
 * - undici `request()` over a `Dispatcher` (its keep-alive `Agent` by default, or the one passed in) sends
 *   every request; undici's error codes classify network failures.
 * - undici's retry support (`RetryAgent`, `interceptors.retry`) is NOT used: it re-dispatches the same
 *   headers on every attempt (we need a fresh JWT per attempt and per redirect hop, spec: Authentication 7),
 *   it has no bound on total time and no jitter, and it cannot run the invoice-number check that must precede
 *   re-sending a create after a network error. Our loop below implements those rules.
 * - undici's redirect interceptor is NOT used either: we follow 301/302 only to the same origin and refuse
 *   others outright (undici would follow cross-origin, merely dropping Authorization), and each hop needs a
 *   fresh token. `request()` itself does not follow redirects in undici 7.
 */
import { attemptOnce, checkUrl, type AttemptResult } from './attempt';
import type { CheckOutcome, RawExchange, RepeatPolicy, TransportEvent, TransportOptions, TransportRequest } from './types';

export type { CheckOutcome, RawExchange, RepeatPolicy, TransportEvent, TransportOptions, TransportRequest };
import { backoffDelayMs, normalizeRetry, parseRetryAfterMs, sleep } from './backoff';
import { CancelledError, NetworkError, isAbortError } from './errors';
import { RETRYABLE_STATUSES } from './status';
import { maskSecrets } from '../log/mask';


/** Answers to a resent create that mean "already exists" (the sandbox answers 409 for a duplicate invoice number). */
const DUPLICATE_STATUSES = [409, 400];

/**
 * Sends one logical call with the retry, redirect, timeout and cancellation rules above.
 *
 * @returns the answer that ended the call — any status; the caller turns non-2xx into ApiError.
 * @throws PolicyError before anything is sent to a refused address; CancelledError when `signal`
 *   aborts (at once, also during backoff); NetworkError when no answer could be had (with
 *   `outcomeUnknown` where the request may have taken effect); whatever `token()` throws.
 */
export async function send(options: TransportOptions, req: TransportRequest): Promise<RawExchange> {
  const retry = normalizeRetry(options.retry);
  const maxAttempts = retry.maxAttempts;
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const origin = checkUrl(req.method, req.url);
  const bodyText = req.body === undefined ? undefined : JSON.stringify(req.body);
  let attempts = 0;
  let lastUrl = origin;
  /** Set once an attempt of a checked create may have landed without our knowing. */
  let uncertain = false;

  const aborted = () => new CancelledError({ method: req.method, url: lastUrl.href, attempts });
  const emit = (event: TransportEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // a listener's failure must not break the call
    }
  };
  const networkError = (r: Extract<AttemptResult, { kind: 'network' }>, outcomeUnknown: boolean, cause?: unknown) =>
    new NetworkError({
      method: req.method,
      url: r.url.href,
      attempts,
      durationMs: elapsed(),
      code: r.code,
      timedOut: r.timedOut,
      outcomeUnknown,
      detail: cause === undefined ? r.detail : `${r.detail}; checking whether it took effect failed: ${errorText(cause)}`,
      cause: cause ?? r.cause,
    });
  const exchange = (r: Extract<AttemptResult, { kind: 'response' }>, retriesExhausted: boolean): RawExchange => ({
    method: req.method,
    url: maskSecrets(r.url.href),
    status: r.status,
    headers: r.headers,
    rawBody: r.rawBody,
    attempts,
    durationMs: elapsed(),
    retriesExhausted,
  });
  /** Runs the invoice check; `undefined` when it failed (error kept in `failure`). */
  const runCheck = async (check: Extract<RepeatPolicy, { kind: 'check' }>): Promise<{ outcome?: CheckOutcome; failure?: unknown }> => {
    if (req.signal?.aborted) throw aborted();
    try {
      const outcome = await check.check(req.signal);
      emit({ type: 'check', method: req.method, url: maskSecrets(lastUrl.href), attempt: attempts, landed: outcome.landed });
      return { outcome };
    } catch (err) {
      if (req.signal?.aborted || isAbortError(err)) throw aborted();
      emit({ type: 'check', method: req.method, url: maskSecrets(lastUrl.href), attempt: attempts, landed: 'failed' });
      return { failure: err };
    }
  };
  const recoveredExchange = (r: AttemptResult, outcome: Extract<CheckOutcome, { landed: true }>): RawExchange => ({
    method: req.method,
    url: maskSecrets(r.url.href),
    status: 200,
    headers: {},
    rawBody: JSON.stringify(outcome.body),
    attempts,
    durationMs: elapsed(),
    retriesExhausted: false,
    recovered: outcome,
  });

  for (;;) {
    if (req.signal?.aborted) throw aborted();
    attempts++;
    const result = await attemptOnce(options, req, origin, bodyText, (u) => (lastUrl = u), aborted, emit);

    // Decide whether this outcome may be repeated, and whether a check must precede the repeat.
    let needsCheck = false;
    let reason: string;
    let retryAfterMs: number | undefined;
    if (result.kind === 'response') {
      if (!RETRYABLE_STATUSES.includes(result.status)) {
        // A resend refused as a duplicate (409, or 400 from servers that use it) after an attempt whose fate was
        // unknown: that earlier attempt landed after all (e.g. it sat in a server queue past our timeout).
        if (uncertain && req.repeat.kind === 'check' && DUPLICATE_STATUSES.includes(result.status)) {
          const { outcome } = await runCheck(req.repeat);
          if (outcome?.landed) return recoveredExchange(result, outcome);
        }
        return exchange(result, false);
      }
      reason = `status ${result.status}`;
      retryAfterMs = parseRetryAfterMs(result.headers['retry-after']);
      needsCheck = req.repeat.kind === 'check' && result.status >= 500;
    } else {
      reason = result.timedOut ? 'timeout' : result.code;
      if (result.fatal) throw networkError(result, false);
      if (result.sent) {
        if (req.repeat.kind === 'unsafe') throw networkError(result, true);
        needsCheck = req.repeat.kind === 'check';
      }
    }

    if (needsCheck) uncertain = true;
    const delayMs = backoffDelayMs(attempts, retry, retryAfterMs, options.random);
    const budgetLeft = attempts < maxAttempts && elapsed() + delayMs <= retry.maxTotalMs;

    if (!budgetLeft) {
      // Out of budget: settle, where we can, whether a create that may have landed did land.
      if (needsCheck && req.repeat.kind === 'check') {
        const { outcome, failure } = await runCheck(req.repeat);
        if (outcome?.landed) return recoveredExchange(result, outcome);
        // After a timeout the request may still be sitting in a server queue: "not found yet" is not proof.
        if (result.kind === 'network') throw networkError(result, outcome === undefined || result.timedOut, failure);
      }
      if (result.kind === 'response') return exchange(result, true);
      throw networkError(result, result.sent && req.method !== 'GET');
    }

    emit({ type: 'retry', method: req.method, url: maskSecrets(result.url.href), attempt: attempts, delayMs, reason });
    try {
      await sleep(delayMs, req.signal);
    } catch {
      throw aborted();
    }

    if (needsCheck && req.repeat.kind === 'check') {
      const { outcome, failure } = await runCheck(req.repeat);
      if (outcome?.landed) return recoveredExchange(result, outcome);
      if (!outcome) {
        if (result.kind === 'network') throw networkError(result, true, failure);
        return exchange(result, false);
      }
      // did not land: repeat the create
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export { checkUrl };
