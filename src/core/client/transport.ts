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
 *
 * The call's `retry.maxTotalMs` is a hard ceiling of the whole call: attempts, backoff and Retry-After waits,
 * and the duplicate check of a create. The last attempt's timeout is cut to what is left, no wait runs past it,
 * and no attempt starts once it has passed.
 */
import { attemptOnce, attemptTimeoutMs, checkUrl, type AttemptResult } from './attempt';
import type { CheckOutcome, RawExchange, RepeatPolicy, TransportEvent, TransportOptions, TransportRequest } from './types';

export type { CheckOutcome, RawExchange, RepeatPolicy, TransportEvent, TransportOptions, TransportRequest };
import { backoffDelayMs, normalizeRetry, parseRetryAfterMs, sleep } from './backoff';
import { CancelledError, NetworkError, ResponseTooLargeError, isAbortError } from './errors';
import { RETRYABLE_STATUSES } from './status';
import { maskSecrets } from '../log/mask';

/** Answers to a resent create that mean "already exists" (the sandbox answers 409 for a duplicate invoice number). */
const DUPLICATE_STATUSES = [409, 400];

type Network = Extract<AttemptResult, { kind: 'network' }>;
type Answer = Extract<AttemptResult, { kind: 'response' }>;

/**
 * Sends one logical call with the retry, redirect, timeout, deadline and cancellation rules above.
 *
 * @returns the answer that ended the call — any status; the caller turns non-2xx into ApiError. A 5xx answer to
 *   an `unsafe` write comes back at once with `outcomeUnknown` (it may have been committed).
 * @throws PolicyError before anything is sent to a refused address; CancelledError when `signal`
 *   aborts (at once, also during backoff); NetworkError when no answer could be had (with
 *   `outcomeUnknown` where the request may have taken effect); ResponseTooLargeError for an answer over
 *   `maxResponseBytes`; whatever `token()` throws.
 */
export async function send(options: TransportOptions, req: TransportRequest): Promise<RawExchange> {
  const retry = normalizeRetry(options.retry);
  const maxAttempts = retry.maxAttempts;
  const started = performance.now();
  const deadlineAt = Math.min(started + retry.maxTotalMs, req.deadlineAt ?? Infinity);
  const left = () => deadlineAt - performance.now();
  const elapsed = () => performance.now() - started;
  const timeoutMs = attemptTimeoutMs(options);
  const origin = checkUrl(req.method, req.url);
  const bodyText = req.body === undefined ? undefined : JSON.stringify(req.body);
  const howToCheck = req.repeat.kind === 'safe' ? undefined : req.repeat.howToCheck;
  let attempts = 0;
  let lastUrl = origin;
  /** Set once an attempt of a checked create may have landed without our knowing. */
  let uncertain = false;
  /** The last attempt's timer was cut to what was left of maxTotalMs. */
  let cut = false;

  const aborted = () => new CancelledError({ method: req.method, url: lastUrl.href, attempts });
  const emit = (event: TransportEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // a listener's failure must not break the call
    }
  };
  const networkError = (r: Network, outcomeUnknown: boolean, cause?: unknown) =>
    new NetworkError({
      method: req.method,
      url: r.url.href,
      attempts,
      durationMs: elapsed(),
      code: r.code,
      timedOut: r.timedOut,
      outcomeUnknown,
      detail:
        (cut && r.timedOut ? `${r.detail} (the call's total limit, maxTotalMs ${retry.maxTotalMs} ms, was reached)` : r.detail) +
        (cause === undefined ? '' : `; checking whether it took effect failed: ${errorText(cause)}`),
      cause: cause ?? r.cause,
      howToCheck: outcomeUnknown ? howToCheck : undefined,
    });
  const exchange = (r: Answer, retriesExhausted: boolean, extra: Partial<RawExchange> = {}): RawExchange => ({
    method: req.method,
    url: maskSecrets(r.url.href),
    status: r.status,
    headers: r.headers,
    rawBody: r.rawBody,
    attempts,
    durationMs: elapsed(),
    retriesExhausted,
    ...extra,
  });
  /** Runs the duplicate check within the deadline; `failure` holds why it could not be completed. */
  const runCheck = async (check: Extract<RepeatPolicy, { kind: 'check' }>): Promise<{ outcome?: CheckOutcome; failure?: unknown }> => {
    if (req.signal?.aborted) throw aborted();
    if (left() <= 0) return { failure: new Error(`no time was left within maxTotalMs (${retry.maxTotalMs} ms) to check`) };
    try {
      const outcome = await check.check(req.signal, deadlineAt);
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
  /** Out of attempts or time: settle, where we can, whether a create that may have landed did land. */
  const giveUp = async (result: Answer | Network, needsCheck: boolean, checked: boolean): Promise<RawExchange> => {
    let failure: unknown;
    let notFound = checked;
    if (needsCheck && !checked && req.repeat.kind === 'check') {
      const c = await runCheck(req.repeat);
      if (c.outcome?.landed) return recoveredExchange(result, c.outcome);
      failure = c.failure;
      notFound = c.outcome !== undefined;
    }
    if (result.kind === 'response') return exchange(result, true, needsCheck && !notFound ? { outcomeUnknown: true, howToCheck } : {});
    // After a timeout the request may still be sitting in a server queue: "not found yet" is not proof.
    if (needsCheck) throw networkError(result, !notFound || result.timedOut, failure);
    throw networkError(result, result.sent && req.method !== 'GET');
  };

  for (;;) {
    if (req.signal?.aborted) throw aborted();
    attempts++;
    const budget = left();
    cut = budget < timeoutMs;
    const result = await attemptOnce(options, req, origin, bodyText, (u) => (lastUrl = u), aborted, emit, Math.max(1, Math.min(timeoutMs, budget)));
    if (result.kind === 'too-large') {
      throw new ResponseTooLargeError({ method: req.method, url: result.url.href, attempts, durationMs: elapsed(), status: result.status, sizeBytes: result.size, declared: result.declared, limitBytes: result.limit });
    }

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
      // A 5xx may come after the write was committed: a write that cannot be checked is not sent again.
      if (result.status >= 500 && req.repeat.kind === 'unsafe') return exchange(result, false, { outcomeUnknown: true, howToCheck });
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
    if (attempts >= maxAttempts || delayMs >= left()) return giveUp(result, needsCheck, false);

    emit({ type: 'retry', method: req.method, url: maskSecrets(result.url.href), attempt: attempts, delayMs, reason });
    try {
      await sleep(delayMs, req.signal);
    } catch {
      throw aborted();
    }

    if (needsCheck && req.repeat.kind === 'check') {
      let { outcome, failure } = await runCheck(req.repeat);
      // A check that could not be completed (its reads failed too) is tried again, never the create, while the
      // budget lasts: an overloaded server may answer a read a little later.
      for (let tries = 1; !outcome && tries < maxAttempts; tries++) {
        const wait = backoffDelayMs(tries, retry, undefined, options.random);
        if (wait >= left()) break;
        try {
          await sleep(wait, req.signal);
        } catch {
          throw aborted();
        }
        ({ outcome, failure } = await runCheck(req.repeat));
      }
      if (outcome?.landed) return recoveredExchange(result, outcome);
      if (!outcome) {
        if (result.kind === 'network') throw networkError(result, true, failure);
        return exchange(result, false, { outcomeUnknown: true, howToCheck });
      }
      // After a timeout or a dropped connection the request may still be queued at the server: "not found yet" is
      // not proof. Only creates the server itself refuses to duplicate (registrations: 409) are sent again then.
      if (result.kind === 'network' && !req.repeat.resendAfterLostConnection) throw networkError(result, true);
      // did not land: repeat the create
    }
    if (left() <= 0) return giveUp(result, needsCheck, true);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export { checkUrl };
