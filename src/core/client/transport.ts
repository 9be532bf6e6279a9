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
import { attemptOnce, attemptTimeoutMs, checkUrl, checkWrittenUrl, type AttemptResult } from './attempt';
import type { CheckOutcome, RawExchange, RepeatPolicy, TransportEvent, TransportOptions, TransportRequest } from './types';

export type { CheckOutcome, RawExchange, RepeatPolicy, TransportEvent, TransportOptions, TransportRequest };
import { REAL_CLOCK, backoffDelayMs, normalizeRetry, parseRetryAfterMs } from './backoff';
import { CancelledError, NetworkError, ResponseTooLargeError, isAbortError } from './errors';
import { RETRYABLE_STATUSES } from './status';
import { maskSecrets } from '../log/mask';
import { changesData } from '../contract/methods';

/** Answers to a resent create that mean "already exists" (the sandbox answers 409 for a duplicate invoice number). */
const DUPLICATE_STATUSES = [409, 400];

type Network = Extract<AttemptResult, { kind: 'network' }>;
type Answer = Extract<AttemptResult, { kind: 'response' }>;
type CheckPolicy = Extract<RepeatPolicy, { kind: 'check' }>;

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
  return new Call(options, req).run();
}

/** How an attempt's outcome is repeated: the answer or error that ends the call, or a retry and whether a check precedes it. */
type Verdict = { final: RawExchange } | { final?: undefined; needsCheck: boolean; reason: string; retryAfterMs?: number };

/** One logical call of {@link send}: its deadline, attempts so far and what is known of their fate. */
class Call {
  private readonly retry;
  private readonly clock;
  private readonly started: number;
  private readonly deadlineAt: number;
  private readonly timeoutMs: number;
  private readonly origin: URL;
  private readonly bodyText: string | undefined;
  private readonly howToCheck;
  private attempts = 0;
  private lastUrl: URL;
  /** Set once an attempt of a checked create may have landed without our knowing. */
  private uncertain = false;
  /** The last attempt's timer was cut to what was left of maxTotalMs. */
  private cut = false;

  constructor(
    private readonly options: TransportOptions,
    private readonly req: TransportRequest,
  ) {
    this.retry = normalizeRetry(options.retry);
    this.clock = options.clock ?? REAL_CLOCK;
    this.started = this.clock.now();
    this.deadlineAt = Math.min(this.started + this.retry.maxTotalMs, req.deadlineAt ?? Infinity);
    this.timeoutMs = attemptTimeoutMs(options);
    this.origin = req.asWritten ? checkWrittenUrl(req.method, req.url) : checkUrl(req.method, req.url);
    this.lastUrl = this.origin;
    this.bodyText = req.body === undefined ? undefined : JSON.stringify(req.body);
    this.howToCheck = req.repeat.kind === 'safe' ? undefined : req.repeat.howToCheck;
  }

  async run(): Promise<RawExchange> {
    const { req, options, retry } = this;
    for (;;) {
      if (req.signal?.aborted) throw this.aborted();
      this.attempts++;
      const budget = this.left();
      this.cut = budget < this.timeoutMs;
      const result = await attemptOnce(options, req, this.origin, this.bodyText, (u) => (this.lastUrl = u), this.aborted, this.emit, Math.max(1, Math.min(this.timeoutMs, budget)));
      if (result.kind === 'too-large') {
        throw new ResponseTooLargeError({ method: req.method, url: result.url.href, attempts: this.attempts, durationMs: this.elapsed(), status: result.status, sizeBytes: result.size, declared: result.declared, limitBytes: result.limit });
      }
      const verdict = await this.judge(result);
      if (verdict.final) return verdict.final;
      const { needsCheck, reason } = verdict;
      if (needsCheck) this.uncertain = true;
      const delayMs = backoffDelayMs(this.attempts, retry, verdict.retryAfterMs, options.random);
      if (this.attempts >= retry.maxAttempts || delayMs >= this.left()) return this.giveUp(result, needsCheck, false);

      this.emit({ type: 'retry', method: req.method, url: maskSecrets(result.url.href), attempt: this.attempts, delayMs, reason });
      await this.wait(delayMs);
      if (needsCheck && req.repeat.kind === 'check') {
        const settled = await this.checkBeforeRepeat(result, req.repeat);
        if (settled) return settled;
      }
      if (this.left() <= 0) return this.giveUp(result, needsCheck, true);
    }
  }

  /** Decides whether this outcome may be repeated, and whether a check must precede the repeat. */
  private async judge(result: Answer | Network): Promise<Verdict> {
    const { req, howToCheck } = this;
    if (result.kind === 'network') {
      if (result.fatal) throw this.networkError(result, false);
      if (result.sent && req.repeat.kind === 'unsafe') throw this.networkError(result, true);
      return { needsCheck: result.sent && req.repeat.kind === 'check', reason: result.timedOut ? 'timeout' : result.code };
    }
    if (!RETRYABLE_STATUSES.includes(result.status)) {
      // A resend refused as a duplicate (409, or 400 from servers that use it) after an attempt whose fate was
      // unknown: that earlier attempt landed after all (e.g. it sat in a server queue past our timeout).
      if (this.uncertain && req.repeat.kind === 'check' && DUPLICATE_STATUSES.includes(result.status)) {
        const { outcome } = await this.runCheck(req.repeat);
        if (outcome?.landed) return { final: this.recoveredExchange(result, outcome) };
      }
      return { final: this.exchange(result, false) };
    }
    // A 5xx may come after the write was committed: a write that cannot be checked is not sent again.
    if (result.status >= 500 && req.repeat.kind === 'unsafe') return { final: this.exchange(result, false, { outcomeUnknown: true, howToCheck }) };
    return { needsCheck: req.repeat.kind === 'check' && result.status >= 500, reason: `status ${result.status}`, retryAfterMs: parseRetryAfterMs(result.headers['retry-after']) };
  }

  /** Before a create is repeated: whether the last attempt landed. The call's end if it did or that stays unknown; undefined to repeat. */
  private async checkBeforeRepeat(result: Answer | Network, check: CheckPolicy): Promise<RawExchange | undefined> {
    let { outcome, failure } = await this.runCheck(check);
    // A check that could not be completed (its reads failed too) is tried again, never the create, while the
    // budget lasts: an overloaded server may answer a read a little later.
    for (let tries = 1; !outcome && tries < this.retry.maxAttempts; tries++) {
      const wait = backoffDelayMs(tries, this.retry, undefined, this.options.random);
      if (wait >= this.left()) break;
      await this.wait(wait);
      ({ outcome, failure } = await this.runCheck(check));
    }
    if (outcome?.landed) return this.recoveredExchange(result, outcome);
    if (!outcome) {
      if (result.kind === 'network') throw this.networkError(result, true, failure);
      return this.exchange(result, false, { outcomeUnknown: true, howToCheck: this.howToCheck });
    }
    // After a timeout or a dropped connection the request may still be queued at the server: "not found yet" is
    // not proof. Only creates the server itself refuses to duplicate (registrations: 409) are sent again then.
    if (result.kind === 'network' && !check.resendAfterLostConnection) throw this.networkError(result, true);
    return undefined; // did not land: repeat the create
  }

  /** Out of attempts or time: settle, where we can, whether a create that may have landed did land. */
  private async giveUp(result: Answer | Network, needsCheck: boolean, checked: boolean): Promise<RawExchange> {
    const { req, howToCheck } = this;
    let failure: unknown;
    let notFound = checked;
    if (needsCheck && !checked && req.repeat.kind === 'check') {
      const c = await this.runCheck(req.repeat);
      if (c.outcome?.landed) return this.recoveredExchange(result, c.outcome);
      failure = c.failure;
      notFound = c.outcome !== undefined;
    }
    if (result.kind === 'response') return this.exchange(result, true, needsCheck && !notFound ? { outcomeUnknown: true, howToCheck } : {});
    // After a timeout the request may still be sitting in a server queue: "not found yet" is not proof.
    if (needsCheck) throw this.networkError(result, !notFound || result.timedOut, failure);
    throw this.networkError(result, result.sent && changesData(req.method));
  }

  /** Runs the duplicate check within the deadline; `failure` holds why it could not be completed. */
  private async runCheck(check: CheckPolicy): Promise<{ outcome?: CheckOutcome; failure?: unknown }> {
    const { req } = this;
    if (req.signal?.aborted) throw this.aborted();
    if (this.left() <= 0) return { failure: new Error(`no time was left within maxTotalMs (${this.retry.maxTotalMs} ms) to check`) };
    try {
      const outcome = await check.check(req.signal, this.deadlineAt);
      this.emit({ type: 'check', method: req.method, url: maskSecrets(this.lastUrl.href), attempt: this.attempts, landed: outcome.landed });
      return { outcome };
    } catch (err) {
      if (req.signal?.aborted || isAbortError(err)) throw this.aborted();
      this.emit({ type: 'check', method: req.method, url: maskSecrets(this.lastUrl.href), attempt: this.attempts, landed: 'failed' });
      return { failure: err };
    }
  }

  private async wait(ms: number): Promise<void> {
    try {
      await this.clock.sleep(ms, this.req.signal);
    } catch {
      throw this.aborted();
    }
  }

  private left(): number {
    return this.deadlineAt - this.clock.now();
  }

  private elapsed(): number {
    return this.clock.now() - this.started;
  }

  private readonly aborted = () => new CancelledError({ method: this.req.method, url: this.lastUrl.href, attempts: this.attempts });

  private readonly emit = (event: TransportEvent) => {
    try {
      this.options.onEvent?.(event);
    } catch {
      // a listener's failure must not break the call
    }
  };

  private networkError(r: Network, outcomeUnknown: boolean, cause?: unknown): NetworkError {
    return new NetworkError({
      method: this.req.method,
      url: r.url.href,
      attempts: this.attempts,
      durationMs: this.elapsed(),
      code: r.code,
      timedOut: r.timedOut,
      outcomeUnknown,
      detail:
        (this.cut && r.timedOut ? `${r.detail} (the call's total limit, maxTotalMs ${this.retry.maxTotalMs} ms, was reached)` : r.detail) +
        (cause === undefined ? '' : `; checking whether it took effect failed: ${errorText(cause)}`),
      cause: cause ?? r.cause,
      howToCheck: outcomeUnknown ? this.howToCheck : undefined,
    });
  }

  private exchange(r: Answer, retriesExhausted: boolean, extra: Partial<RawExchange> = {}): RawExchange {
    return { method: this.req.method, url: maskSecrets(r.url.href), status: r.status, headers: r.headers, rawBody: r.rawBody, attempts: this.attempts, durationMs: this.elapsed(), retriesExhausted, ...extra };
  }

  private recoveredExchange(r: AttemptResult, outcome: Extract<CheckOutcome, { landed: true }>): RawExchange {
    return { method: this.req.method, url: maskSecrets(r.url.href), status: 200, headers: {}, rawBody: JSON.stringify(outcome.body), attempts: this.attempts, durationMs: this.elapsed(), retriesExhausted: false, recovered: outcome };
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export { checkUrl };
