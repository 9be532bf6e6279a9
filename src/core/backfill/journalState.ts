/**
 * The lines of a backfill journal (docs/backfills.md, The journal) and what they say about each row, kept compactly.
 * A row is known by its key (rowKey.ts: the invoice number or the kind's own key, else a hash of its values), so
 * rows inserted, removed or reordered in the data file resume as the rows they are. Journals of the first version
 * named rows by position only; their lines are read by position, and a row whose values differ from what such a line
 * says is resumed carefully (looked up before anything is resent).
 */
import { hash32, key64, KeyTable } from './keyTable';

/** Version of the journal's lines this code writes: 2 names each row by its key. */
export const JOURNAL_VERSION = 2;

/** How a row ended: see docs/backfills.md, Report. */
export type EndStatus = 'created' | 'recovered' | 'refused' | 'failed' | 'skipped' | 'unknown' | 'conflict';

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
 * tell whether the machine restarted since); `lease` is flushed to the disk before any row up to `to` (its position in
 * that run's data file) is sent; `closed` ends a run whose lines were all flushed. `key` names the row (absent in
 * journals of the first version), `row` is its position then.
 */
export type JournalLine =
  | JournalHeader
  | { readonly t: 'open'; readonly boot: string; readonly pid?: number }
  | { readonly t: 'lease'; readonly to: number }
  | { readonly t: 'closed' }
  | { readonly t: 'started'; readonly row: number; readonly key?: string; readonly hash: string }
  | { readonly t: 'ended'; readonly row: number; readonly key?: string; readonly hash: string; readonly status: EndStatus; readonly id?: string; readonly http?: number; readonly message?: string };

/**
 * `unsure`: no line names the row, but a run that lost lines (the machine stopped, or the journal was cut) may have
 * sent it: it is resumed like a started row. `refused409`: refused with 409 by a version that did not check such
 * answers: checked again (a 409 to a create whose first attempt landed is the duplicate check's to settle).
 */
export type RowState = Exclude<EndStatus, 'refused'> | 'refused' | 'refused409' | 'started' | 'unsure';

const CODES: readonly (RowState | undefined)[] = [undefined, 'started', 'created', 'recovered', 'refused', 'failed', 'skipped', 'unknown', 'conflict', 'refused409'];
const codeOf = (s: RowState): number => CODES.indexOf(s);

/** Flags of a key: rows of other values share it (see the secondary table); a row of it was stored. */
const MULTI = 1;
const STORED = 2;

/** What the journal says of one row of the data file. */
export interface RowLookup {
  /** The row's own state (same key, same values); undefined when the journal does not name it. */
  readonly state?: RowState;
  /** The journal names the key with other values: whether such a row was stored (created or recovered). */
  readonly other?: { readonly stored: boolean; readonly state: RowState };
}

/** Per row of a journal: started, or how it ended, by key (and by position for first-version lines). */
export class JournalMarks {
  private readonly byKey = new KeyTable();
  /** Rows of a key whose values differ from the first ones the journal names for it, by key and values. */
  private readonly byKeyAndValues = new KeyTable();
  /** First-version lines, by position. */
  private readonly byRow = new KeyTable();
  private unsureTo = 0;

  /** Rows the journal names. */
  get size(): number {
    return this.byKey.size + this.byKeyAndValues.size + this.byRow.size;
  }

  /** A `started` or `ended` line: `state` is `started` or the end status (`refused` with `http` 409: `refused409` when the line has no key). */
  record(line: Extract<JournalLine, { t: 'started' | 'ended' }>): void {
    const state: RowState = line.t === 'started' ? 'started' : line.status === 'refused' && line.http === 409 && line.key === undefined ? 'refused409' : line.status;
    const code = codeOf(state);
    const stored = state === 'created' || state === 'recovered' ? STORED : 0;
    const h = hash32(line.hash);
    if (line.key === undefined) return this.byRow.set([line.row, 0], code, 0, h);
    const k = key64(line.key);
    const first = this.byKey.get(k);
    if (!first || first.hash === h) return this.byKey.set(k, code, stored, h);
    this.byKey.flag(k, MULTI | stored);
    this.byKeyAndValues.set(key64(`${line.key}\n${line.hash}`), code, 0, h);
  }

  /** Rows at positions up to `to` that no line names may have been sent by a run that lost lines (see {@link RowState}). */
  unsureUpTo(to: number): void {
    this.unsureTo = Math.max(this.unsureTo, to);
  }

  /** Whether any row is `unsure`. */
  get anyUnsure(): boolean {
    return this.unsureTo > 0;
  }

  /**
   * What the journal says of the row at `position` with `key` and values hash `hash`: by key first, then by position
   * (first-version lines, when the values agree), then `unsure` within a lost lease.
   */
  lookup(key: string, position: number, hash: string): RowLookup {
    const h = hash32(hash);
    const k = key64(key);
    const first = this.byKey.get(k);
    if (first && first.hash === h) return { state: CODES[first.code] as RowState };
    if (first && first.flags & MULTI) {
      const own = this.byKeyAndValues.get(key64(`${key}\n${hash}`));
      if (own) return { state: CODES[own.code] as RowState };
    }
    if (first) return { other: { stored: (first.flags & STORED) !== 0, state: CODES[first.code] as RowState } };
    const legacy = this.byRow.get([position, 0]);
    if (legacy && legacy.hash === h) return { state: CODES[legacy.code] as RowState };
    if (legacy) return { state: 'unsure' }; // another row stood there then: whatever it sent is checked first
    return position <= this.unsureTo ? { state: 'unsure' } : {};
  }
}
