/** The counts and progress of a backfill (docs/backfills.md, Report), fed row by row. */
import type { BackfillListener, BackfillSummary, RowResult, RowStatus } from './types';

/** Counts kept while rows end. */
export interface Tally {
  /** Sending begins (the rate is measured from here). */
  begin(): void;
  /** A row ended: counted, reported to the listener, progress sent. */
  row(result: RowResult): void;
  /** A row the journal had already ended (not sent again). */
  already(): void;
  summary(notSent: boolean, stopped: boolean, durationMs: number): BackfillSummary;
}

const FAILED: readonly RowStatus[] = ['refused', 'failed', 'skipped', 'unknown', 'changed', 'cancelled', 'conflict'];

/** A tally of `total` rows, `invalid` of them invalid, reporting to `listener`. */
export function newTally(total: number, invalid: number, listener: BackfillListener | undefined): Tally {
  const counts: Record<RowStatus, number> = { created: 0, recovered: 0, refused: 0, failed: 0, skipped: 0, unknown: 0, changed: 0, cancelled: 0, conflict: 0 };
  let done = 0;
  let already = 0;
  let failed = 0;
  let since = performance.now();
  const progress = () => {
    const seconds = (performance.now() - since) / 1000;
    const rate = seconds > 0 ? (done - already) / seconds : 0;
    listener?.onProgress?.({ done, total, failed, rate, ...(rate > 0 ? { etaMs: Math.round(((total - done) / rate) * 1000) } : {}) });
  };
  return {
    begin: () => (since = performance.now()),
    row: (r) => {
      counts[r.status]++;
      done++;
      if (FAILED.includes(r.status)) failed++;
      listener?.onRowEnd?.(r);
      progress();
    },
    already: () => {
      already++;
      done++;
      progress();
    },
    summary: (notSent, stopped, durationMs) => ({ rows: total, invalid, ...counts, done: already, notSent, stopped, unsent: notSent ? total : total - done, durationMs: Math.round(durationMs) }),
  };
}
