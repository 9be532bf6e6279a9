/** A clock for the client's tests (TransportOptions.clock): time moves only when the test or a wait moves it. */
import type { Clock } from '../../../../src/core/client/backoff';

export interface ManualClock extends Clock {
  /** Every wait the call asked for, in order: when (on this clock) and how long. */
  readonly sleeps: { readonly at: number; readonly ms: number }[];
  /** Moves time on, e.g. while a test server holds an answer. */
  advance(ms: number): void;
}

/**
 * A clock that stands still until moved: `sleep(ms)` records the wait, moves time on by `ms` and returns at once
 * (rejecting, as the real one does, when `signal` has aborted). `log`, when given, gets `sleep <ms>` for each wait,
 * so that a test can put the waits in order with what its server saw.
 */
export function manualClock(log?: string[]): ManualClock {
  let t = 0;
  const sleeps: { at: number; ms: number }[] = [];
  return {
    sleeps,
    now: () => t,
    advance: (ms) => void (t += ms),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push({ at: t, ms });
      log?.push(`sleep ${ms}`);
      t += ms;
    },
  };
}
