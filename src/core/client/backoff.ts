/**
 * Backoff between retries (spec: Errors — clients retry 429 and 5xx): exponential with jitter, so that many clients
 * told "busy" at once do not all come back at once; never sooner than the server's Retry-After; bounded by the retry
 * settings (docs/sending.md).
 */

/** Retry settings. All times in milliseconds. */
export interface RetrySettings {
  /** Attempts in all, counting the first (1 = never retry). Default 5. */
  readonly maxAttempts: number;
  /** No new attempt starts, and no backoff waits, past this long after the call began. Default 30 000. */
  readonly maxTotalMs: number;
  /** Backoff before the first retry (before jitter). Default 250. */
  readonly baseDelayMs: number;
  /** Cap of the exponential backoff (a server's Retry-After may ask for longer and is honoured). Default 8 000. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { maxAttempts: 5, maxTotalMs: 30_000, baseDelayMs: 250, maxDelayMs: 8_000 };

/**
 * Fills in defaults and repairs unusable values (from settings typed by a user): a missing, non-finite or
 * negative value takes its default; maxAttempts is a whole number of at least 1; maxDelayMs at least baseDelayMs.
 */
export function normalizeRetry(partial: Partial<RetrySettings> = {}): RetrySettings {
  const pick = (value: number | undefined, fallback: number, min: number) =>
    value !== undefined && Number.isFinite(value) && value >= min ? value : fallback;
  const maxAttempts = Math.floor(pick(partial.maxAttempts, DEFAULT_RETRY.maxAttempts, 1));
  const maxTotalMs = pick(partial.maxTotalMs, DEFAULT_RETRY.maxTotalMs, 0);
  const baseDelayMs = pick(partial.baseDelayMs, DEFAULT_RETRY.baseDelayMs, 0);
  const maxDelayMs = Math.max(baseDelayMs, pick(partial.maxDelayMs, DEFAULT_RETRY.maxDelayMs, 0));
  return { maxAttempts, maxTotalMs, baseDelayMs, maxDelayMs };
}

/**
 * Delay before the retry that follows attempt number `attempt` (1-based): "equal jitter" — half of
 * `min(maxDelayMs, baseDelayMs * 2^(attempt-1))` fixed plus a random share of the other half — and never less
 * than the server's Retry-After.
 *
 * @param retryAfterMs parsed Retry-After in milliseconds, or undefined.
 * @param random a source of numbers in [0, 1) (Math.random by default; injectable for tests).
 */
export function backoffDelayMs(
  attempt: number,
  settings: Pick<RetrySettings, 'baseDelayMs' | 'maxDelayMs'>,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exp = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return Math.max(Math.round(jittered), retryAfterMs ?? 0);
}

/**
 * Parses a Retry-After header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
 *
 * @returns milliseconds to wait (0 for a date in the past), or undefined when absent or unparseable.
 */
export function parseRetryAfterMs(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Waits `ms` milliseconds; rejects at once (with the signal's reason) when `signal` aborts, during the wait
 * or before it.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Where a call's time comes from (TransportOptions.clock): `now()` in milliseconds of a monotonic time (the call's
 * deadline and durations), `sleep` the backoff and Retry-After waits, as {@link sleep}. Tests pass a clock they
 * move themselves; the attempt timer stays a real timer.
 */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `performance.now()` and timers. */
export const REAL_CLOCK: Clock = { now: () => performance.now(), sleep };
