/**
 * Realism knobs of the Local sandbox (spec: Errors — 429, 500, 502, 503, 504; Limits — "Rate limiting
 * exists"). Both are off by default.
 */

/**
 * Per-partner token bucket: `perSecond` requests per second on average, bursts up to `perSecond`
 * (at least 1). `take(partner, nowMs)` returns 0 when the request may proceed, otherwise the number of whole
 * seconds to wait (the Retry-After value, at least 1).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly capacity: number;

  constructor(private readonly perSecond: number) {
    this.capacity = Math.max(1, perSecond);
  }

  take(partner: string, nowMs: number): number {
    let b = this.buckets.get(partner);
    if (!b) {
      b = { tokens: this.capacity, at: nowMs };
      this.buckets.set(partner, b);
    }
    b.tokens = Math.min(this.capacity, b.tokens + ((nowMs - b.at) / 1000) * this.perSecond);
    b.at = nowMs;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }
}

/** Mulberry32: a small seeded PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Status codes the fault injector answers with, chosen uniformly. */
export const FAULT_STATUSES = [500, 502, 503, 504] as const;

/** What the fault injector decided for one request. */
export interface FaultDecision {
  /** 500/502/503/504 to answer instead of processing the request, or undefined. */
  readonly status?: (typeof FAULT_STATUSES)[number];
  /** Delay before answering, in milliseconds (0 = none). */
  readonly delayMs: number;
}

/**
 * When an injected fault strikes (docs/sandbox.md, Realism knobs):
 * - `before` (default): the 5xx answers before anything is processed; nothing is stored, a retry is safe.
 * - `after-commit`: the request is processed and committed normally, then its success answer is replaced by a
 *   500 with the same error body shape: the write is stored but the client does not learn it (a lost answer).
 */
export type FaultMode = 'before' | 'after-commit';

/** Options of {@link FaultInjector}. */
export interface FaultOptions {
  /** Share of requests (0..1) answered with a 5xx (see {@link mode}). */
  readonly errorRate?: number;
  /** When the fault strikes: before processing (default) or after the write is committed. */
  readonly mode?: FaultMode;
  /** Share of requests (0..1) delayed by {@link slowMs}. */
  readonly slowRate?: number;
  /** Delay of a slow response, in milliseconds (default 2000). */
  readonly slowMs?: number;
  /** Seed of the random choices (default: random). */
  readonly seed?: number;
}

/**
 * Decides, per request, whether to fail it with a 5xx and whether to delay it. The server applies the decision
 * as {@link FaultOptions.mode} says: before processing (nothing stored, a retry is safe) or after the commit.
 */
export class FaultInjector {
  private readonly random: () => number;

  constructor(private readonly opts: FaultOptions) {
    this.random = seededRandom(opts.seed ?? Math.floor(Math.random() * 2 ** 32));
  }

  get enabled(): boolean {
    return (this.opts.errorRate ?? 0) > 0 || (this.opts.slowRate ?? 0) > 0;
  }

  decide(): FaultDecision {
    const delayMs = this.random() < (this.opts.slowRate ?? 0) ? (this.opts.slowMs ?? 2000) : 0;
    if (this.random() < (this.opts.errorRate ?? 0)) {
      const status = FAULT_STATUSES[Math.floor(this.random() * FAULT_STATUSES.length)] ?? 500;
      return { status, delayMs };
    }
    return { delayMs };
  }
}
