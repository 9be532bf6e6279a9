import { AnswerCache, recordKey } from './db/answerCache';
import type { OpsContext } from './ops/common';
import { registrationsAfter } from './ops/registrations';
import { tireProtectionView } from './ops/views';

/**
 * Fills the embedded sandbox's answer cache (./db/answerCache.ts) with the answers of reads by id of tire-protection
 * registrations, in the background, once the sandbox listens and again whenever writes pause: a first read of a
 * record then costs what a repeated one does (docs/sandbox.md, Storage). Startup never waits for it (a restart does
 * not grow with the data); it reads the partners' registrations in creation order, a page at a time, and stops when
 * the cache holds {@link WARM_SHARE} of its bound, when a write starts (it goes on where it stopped once writes pause,
 * from the first record again only when the cache was emptied whole) or when the sandbox closes. A storage failure
 * ends it quietly: reads then build their own answers.
 */
/** Milliseconds without a write before warming (again). */
export const WARM_DELAY_MS = 300;
/** Registrations read per query: short enough that a request waiting behind one waits a few milliseconds. */
const WARM_PAGE = 100;
/** Share of the cache's bound warming fills at most, leaving room for the answers reads ask for. */
const WARM_SHARE = 0.75;

export class AnswerWarmer {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;
  /** Per partner, the creation-order position warmed last, valid while the cache's epoch is {@link warmedEpoch}. */
  private readonly warmedUpTo = new Map<string, number>();
  private warmedEpoch = -1;

  constructor(
    private readonly c: OpsContext,
    private readonly cache: AnswerCache,
    /** The partners whose registrations are warmed, in this order. */
    private readonly partners: () => Iterable<string>,
    private readonly delayMs = WARM_DELAY_MS,
  ) {}

  /** Warms {@link delayMs} after the last call (each write calls it, so warming waits for writes to pause). */
  schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), this.delayMs);
    this.timer.unref();
  }

  /** Stops for good (the sandbox closes). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      await this.warm();
    } catch {
      // storage failed or closed: reads build their own answers, and the next write schedules warming again
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    }
  }

  private async warm(): Promise<void> {
    const full = () => this.cache.heldChars >= this.cache.maxChars * WARM_SHARE;
    if (this.warmedEpoch !== this.cache.epoch) {
      this.warmedEpoch = this.cache.epoch;
      this.warmedUpTo.clear();
    }
    for (const partner of [...this.partners()]) {
      for (;;) {
        const after = this.warmedUpTo.get(partner) ?? 0;
        if (this.stopped || full()) return;
        const mark = this.cache.mark();
        if (mark === undefined || this.cache.epoch !== this.warmedEpoch) return; // a write runs: its end schedules warming again
        const page = await registrationsAfter(this.c, partner, after, WARM_PAGE);
        if (page.length === 0) break;
        for (const { registration, claims, position } of page) {
          if (full()) return;
          if (!this.cache.offer(recordKey(partner, 'tire-protection registration', registration._id), JSON.stringify(tireProtectionView(registration, claims)), mark)) return;
          this.warmedUpTo.set(partner, position);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
}
