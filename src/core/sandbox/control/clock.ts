/**
 * The Local sandbox's one clock (docs/testing-your-application.md, Clock): real time plus an offset that the control
 * API moves. Everything time-dependent reads it: the expiry of registrations and WarrantyStatus, the JWT `iat`/`exp`
 * windows (spec: Authentication, "iat at most 2 hours old"), and every timestamp written.
 */

/** Largest offset either way: 10 years of 365.25 days, in milliseconds. */
export const MAX_CLOCK_OFFSET_MS = 10 * 365.25 * 86_400_000;

/** Real time (or a test's clock) shifted by an offset in milliseconds. */
export class SandboxClock {
  private offset = 0;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly base: () => number = Date.now) {}

  /** Milliseconds since epoch, shifted. Bound, so it can be passed around as a plain function. */
  readonly now = (): number => this.base() + this.offset;

  /** The current offset in milliseconds (0: real time). */
  get offsetMs(): number {
    return this.offset;
  }

  /**
   * Sets the offset (0 goes back to real time).
   * @throws RangeError when `ms` is not a finite number or beyond ±{@link MAX_CLOCK_OFFSET_MS}.
   */
  setOffset(ms: number): void {
    if (!Number.isFinite(ms) || Math.abs(ms) > MAX_CLOCK_OFFSET_MS) throw new RangeError(`The clock offset must be within ±10 years (±${MAX_CLOCK_OFFSET_MS / 1000} seconds)`);
    this.offset = Math.round(ms);
    for (const l of this.listeners) l();
  }

  /** Calls `listener` after every {@link setOffset} (what was derived from the time before may have changed). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}
