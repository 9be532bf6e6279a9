import { AnswerCache, answerKey } from './db/answerCache';
import type { OpsContext } from './ops/common';
import { registrationsAfter } from './ops/registrations';
import { tireProtectionView } from './ops/views';

/**
 * Fills the embedded sandbox's answer cache (./db/answerCache.ts) with the answers of reads by id of tire-protection
 * registrations, in the background, once the sandbox listens and again whenever writes pause: a first read of a
 * record then costs what a repeated one does (docs/sandbox.md, Storage). Startup never waits for it (a restart does
 * not grow with the data); it reads the partners' registrations in creation order, a page at a time, and stops when
 * the cache holds {@link WARM_SHARE} of its bound, when a write starts (it starts again once writes pause) or when the
 * sandbox closes. A storage failure ends it quietly: reads then build their own answers.
 */

/** What a read by id of a tire-protection registration is asked as in a cache key (with the partner and the id). */
export const TIRE_PROTECTION_READ = 'tire-protection registration';
/** Milliseconds without a write before warming (again). */
export const WARM_DELAY_MS = 300;
/** Registrations read per query: short enough that a request waiting behind one waits a few milliseconds. */
const WARM_PAGE = 200;
/** Share of the cache's bound warming fills at most, leaving room for the answers reads ask for. */
const WARM_SHARE = 0.75;

export class AnswerWarmer {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;

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
    for (const partner of [...this.partners()]) {
      let after = 0;
      for (;;) {
        if (this.stopped || full()) return;
        const mark = this.cache.mark();
        if (mark === undefined) return; // a write runs: its end schedules warming again
        const page = await registrationsAfter(this.c, partner, after, WARM_PAGE);
        if (page.length === 0) break;
        for (const { registration, claims, position } of page) {
          if (full()) return;
          if (!this.cache.offer(answerKey(partner, TIRE_PROTECTION_READ, registration._id), JSON.stringify(tireProtectionView(registration, claims)), mark)) return;
          after = position;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
}
