/**
 * The lines of a backfill journal (docs/backfills.md, The journal) and what they say about each row, kept compactly:
 * a byte of state and 32 bits of hash per row, so resuming a journal of a million rows needs about 5 MB.
 */

export const JOURNAL_VERSION = 1;

/** How a row ended: see docs/backfills.md, Report. */
export type EndStatus = 'created' | 'recovered' | 'refused' | 'failed' | 'skipped' | 'unknown';

/** The first line: what the journal is of. Paths are relative to the journal's directory, with `/`. */
export interface JournalHeader {
  readonly t: 'header';
  readonly v: number;
  readonly flow: string;
  /** sha256 (hex) of the flow text and its body files. */
  readonly flowHash: string;
  readonly data: string;
  /** ISO 8601 time the journal was begun. */
  readonly created: string;
}

/**
 * A line of the journal. `open` begins each run's lines (`boot`: the operating system's boot id, so that a reader can
 * tell whether the machine restarted since); `lease` is flushed to the disk before any row up to `to` is sent (rows
 * above the last lease of a run were never sent); `closed` ends a run whose lines were all flushed.
 */
export type JournalLine =
  | JournalHeader
  | { readonly t: 'open'; readonly boot: string }
  | { readonly t: 'lease'; readonly to: number }
  | { readonly t: 'closed' }
  | { readonly t: 'started'; readonly row: number; readonly hash: string }
  | { readonly t: 'ended'; readonly row: number; readonly hash: string; readonly status: EndStatus; readonly id?: string; readonly http?: number; readonly message?: string };

/**
 * `unsure`: no line names the row, but a run that lost the lines it had not flushed yet (the machine stopped) may have
 * sent it: it is resumed like a started row.
 */
export type RowState = EndStatus | 'started' | 'unsure';

const STATUS_CODES: readonly (EndStatus | 'started' | undefined)[] = [undefined, 'started', 'created', 'recovered', 'refused', 'failed', 'skipped', 'unknown'];

/** The first 32 bits of a hex hash. */
const hash32 = (hash: string): number => Number.parseInt(hash.slice(0, 8), 16) >>> 0;

/** Per row: started, or how it ended, and its hash's first 32 bits. Row numbers are 1-based. */
export class RowMarks {
  private codes = new Uint8Array(1024);
  private hashes = new Uint32Array(1024);
  private count = 0;
  private unsureTo = 0;

  /** Rows the journal names. */
  get size(): number {
    return this.count;
  }

  private grow(row: number): void {
    if (!Number.isSafeInteger(row) || row < 1) throw new RangeError(`row ${row} is not a row number`);
    if (row < this.codes.length) return;
    let n = this.codes.length;
    while (n <= row) n *= 2;
    const codes = new Uint8Array(n);
    codes.set(this.codes);
    const hashes = new Uint32Array(n);
    hashes.set(this.hashes);
    this.codes = codes;
    this.hashes = hashes;
  }

  private set(row: number, code: number, hash: string | undefined): void {
    this.grow(row);
    if (this.codes[row] === 0) this.count++;
    this.codes[row] = code;
    if (hash) this.hashes[row] = hash32(hash);
  }

  /** A `started` line. */
  start(row: number, hash: string): void {
    this.set(row, 1, hash);
  }

  /** An `ended` line. */
  end(row: number, status: EndStatus, hash: string | undefined): void {
    this.set(row, STATUS_CODES.indexOf(status), hash);
  }

  /** Rows up to `to` that no line names may have been sent by a run whose machine stopped (see {@link RowState}). */
  unsureUpTo(to: number): void {
    this.unsureTo = Math.max(this.unsureTo, to);
  }

  /** Whether any row is `unsure`. */
  get anyUnsure(): boolean {
    return this.unsureTo > 0;
  }

  /** What the journal says of `row`: nothing, started (not ended), maybe sent (`unsure`), or its end status. */
  state(row: number): RowState | undefined {
    const code = row < this.codes.length ? (this.codes[row] as number) : 0;
    return code === 0 && row <= this.unsureTo ? 'unsure' : STATUS_CODES[code];
  }

  /** Whether `hash` is the hash the journal holds for `row` (first 32 bits). */
  sameHash(row: number, hash: string): boolean {
    return row < this.hashes.length && this.hashes[row] === hash32(hash);
  }
}
