/**
 * The Local sandbox's one clock (docs/testing-your-application.md, Clock): real time plus an offset that the control
 * API moves, or an instant it holds still (frozen). Everything time-dependent reads it: the expiry of registrations
 * and WarrantyStatus, the JWT `iat`/`exp` windows (spec: Authentication, "iat at most 2 hours old"), every timestamp
 * written and the seconds of every record `_id`.
 */

/** Largest offset either way: 10 years of 365.25 days, in milliseconds. */
export const MAX_CLOCK_OFFSET_MS = 10 * 365.25 * 86_400_000;

/** Real time (or a test's clock) shifted by an offset in milliseconds, or held at one instant. */
export class SandboxClock {
  private offset = 0;
  /** The instant a frozen clock holds (ms since epoch); undefined while it runs. */
  private held: number | undefined;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly base: () => number = Date.now) {}

  /** Milliseconds since epoch, shifted (or held). Bound, so it can be passed around as a plain function. */
  readonly now = (): number => this.held ?? this.base() + this.offset;

  /**
   * What the clock read `ms` milliseconds ago (ms since epoch): the instant a frozen clock holds, else now minus `ms`
   * (the arrival of a request that took `ms`, as the journal stamps it).
   */
  ago(ms: number): number {
    return this.held ?? this.base() + this.offset - ms;
  }

  /** The current offset from real time in milliseconds (0: real time; a frozen clock's grows as real time passes). */
  get offsetMs(): number {
    return this.held === undefined ? this.offset : this.held - this.base();
  }

  /** Whether the clock holds one instant (every read answers it until unfrozen or moved). */
  get frozen(): boolean {
    return this.held !== undefined;
  }

  /**
   * Sets the offset from real time (0 goes back to real time); a frozen clock stays frozen, at real time plus `ms`.
   * @throws RangeError when `ms` is not a finite number or beyond ±{@link MAX_CLOCK_OFFSET_MS}.
   */
  setOffset(ms: number): void {
    this.setTime(this.base() + ms);
  }

  /**
   * Sets the clock to the instant `ms` (ms since epoch); a frozen clock stays frozen there, exactly.
   * @throws RangeError when the instant is more than {@link MAX_CLOCK_OFFSET_MS} from real time.
   */
  setTime(ms: number): void {
    const real = this.base();
    checkOffset(ms - real);
    if (this.held === undefined) this.offset = Math.round(ms - real);
    else this.held = Math.round(ms);
    this.changed();
  }

  /**
   * Moves the clock by `ms` (negative: back), frozen or not; a frozen clock moves by exactly `ms`.
   * @throws RangeError when the result is more than {@link MAX_CLOCK_OFFSET_MS} from real time.
   */
  advance(ms: number): void {
    this.setTime(this.now() + ms);
  }

  /** Holds the clock at the instant it reads now (true), or lets it run on from the instant it holds (false). */
  freeze(on: boolean): void {
    if (on === this.frozen) return;
    if (on) this.held = this.now();
    else {
      this.offset = (this.held as number) - this.base();
      this.held = undefined;
    }
    this.changed();
  }

  /** Back to real time, running (a reset of the sandbox). */
  reset(): void {
    this.offset = 0;
    this.held = undefined;
    this.changed();
  }

  /** Calls `listener` after every change (what was derived from the time before may have changed). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

function checkOffset(ms: number): void {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_CLOCK_OFFSET_MS) throw new RangeError(`The clock must stay within ±10 years (±${MAX_CLOCK_OFFSET_MS / 1000} seconds) of real time`);
}
