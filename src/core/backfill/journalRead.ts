/**
 * Reading a backfill journal (docs/backfills.md, The journal; A damaged journal), streamed from an open file, so what
 * is read is the file that will be written. What the lines say of each row goes to {@link JournalMarks}; what cannot
 * be trusted is named instead of stopping the run: a line that is not a journal line (the file was edited) and a last
 * line cut short (the machine stopped, or the file was cut) mark the run they belong to as having lost lines, so the
 * rows of its leases that no line names are `unsure` (looked up before anything is resent), as after a stopped machine;
 * after a cut, which may have taken any number of lines, every row no line names is.
 * A file whose first line is not a journal header is not a journal: it is refused before anything is written to it.
 */
import { readSync } from 'node:fs';
import { JournalMarks, type JournalHeader, type JournalLine } from './journalState';

/** The largest position a journal line may name (100 million rows). */
export const MAX_JOURNAL_ROW = 100_000_000;
/** Rows a `lease` line covers (what a resume after lost lines may have to check). */
export const LEASE_ROWS = 256;
/** The first characters of every journal tpp writes. */
export const HEADER_START = '{"t":"header"';

/** A journal that cannot be used: in use, of another flow or data file, not a journal, left by an earlier run, unsafe to open, or not writable. */
export class JournalError extends Error {
  override readonly name = 'JournalError';
  constructor(
    message: string,
    readonly code: 'busy' | 'mismatch' | 'exists' | 'broken' | 'unsafe' | 'io',
  ) {
    super(message);
  }
}

/** One run's lines as read: where they begin, its boot, how far its leases went, whether it closed or lost lines. */
export interface RunRead {
  readonly line: number;
  readonly boot: string;
  leaseTo: number;
  closed: boolean;
  lostLines: boolean;
}

/** A line that was not read as a journal line, and why. */
export interface Damage {
  readonly line: number;
  readonly reason: string;
}

/** What a journal says so far. */
export interface JournalContents {
  readonly header?: JournalHeader;
  readonly marks: JournalMarks;
  /** Byte length up to the end of the last whole line (a last line cut short is not counted: it is cut off before appending). */
  readonly validBytes: number;
  readonly runs: readonly RunRead[];
  /** Lines not read, and a last line cut short. */
  readonly damage: readonly Damage[];
  /** Every row is in doubt: the file is empty, or its header was cut (see {@link readJournal}). */
  readonly lostAll: boolean;
}

const rowOk = (n: unknown, max: number): boolean => Number.isSafeInteger(n) && (n as number) >= 1 && (n as number) <= max;
const LINE_TYPES = ['header', 'open', 'lease', 'closed', 'started', 'ended'];

/** One line of a journal with its shape checked, or why it is not one. */
function lineOf(text: string): JournalLine | string {
  let v: JournalLine;
  try {
    v = JSON.parse(text) as JournalLine;
  } catch {
    return 'not JSON';
  }
  if (v === null || typeof v !== 'object' || !LINE_TYPES.includes(v.t)) return 'not a journal line';
  if (v.t === 'started' || v.t === 'ended') {
    if (!rowOk(v.row, MAX_JOURNAL_ROW) || typeof v.hash !== 'string') return `names no row from 1 to ${MAX_JOURNAL_ROW}`;
    if (v.key !== undefined && (typeof v.key !== 'string' || v.key === '')) return 'its key is not a text';
  }
  if (v.t === 'lease' && !rowOk(v.to, MAX_JOURNAL_ROW + LEASE_ROWS)) return `leases no row from 1 to ${MAX_JOURNAL_ROW}`;
  if (v.t === 'header' && (typeof v.flow !== 'string' || typeof v.data !== 'string' || typeof v.flowHash !== 'string')) return 'a header without flow, data and flowHash';
  return v;
}

/** What a journal this run has just created says: nothing. */
export function emptyContents(): JournalContents {
  return { marks: new JournalMarks(), validBytes: 0, runs: [], damage: [], lostAll: false };
}

/**
 * Reads the journal open at `fd` (from its start). `boot`: the boot id to compare runs with.
 * @throws JournalError `broken` when the first line is not a journal header (the file is not a journal; `path` names it).
 */
export function readJournalFd(fd: number, path: string, boot: string): JournalContents {
  const marks = new JournalMarks();
  const runs: RunRead[] = [];
  const damage: Damage[] = [];
  let header: JournalHeader | undefined;
  // Lines before the first `open` (only a damaged file has any) count as a run of their own.
  const preamble: RunRead = { line: 0, boot, leaseTo: 0, closed: true, lostLines: false };
  let run = preamble;
  let cut = false;
  let firstText: string | undefined;
  const apply = (text: string, n: number) => {
    const v = lineOf(text);
    if (header === undefined) {
      if (typeof v === 'string' || v.t !== 'header') throw new JournalError(`${path} is not a journal of tpp run (line ${n} is not a journal header): it is neither read further nor written. Move it away, or give --journal another path.`, 'broken');
      header = v;
      return;
    }
    if (typeof v === 'string') {
      damage.push({ line: n, reason: v });
      run.lostLines = true;
    } else if (v.t === 'started' || v.t === 'ended') marks.record(v);
    else if (v.t === 'open') runs.push((run = { line: n, boot: String(v.boot), leaseTo: 0, closed: false, lostLines: false }));
    else if (v.t === 'lease') run.leaseTo = Math.max(run.leaseTo, v.to);
    else if (v.t === 'closed') run.closed = true;
  };
  let pending: { text: string; n: number } | undefined;
  const file = linesOf(fd);
  for (const { text, n } of file.lines) {
    if (pending) apply(pending.text, pending.n);
    pending = text.trim() === '' ? undefined : { text, n };
    firstText ??= pending?.text;
  }
  const { endsWithNewline, lastNewline } = file.end();
  if (pending && endsWithNewline) apply(pending.text, pending.n);
  else if (pending && header !== undefined) {
    damage.push({ line: pending.n, reason: 'cut short (the file ends inside it)' });
    cut = true;
  }
  const lostAll = header === undefined && (firstText === undefined || (!endsWithNewline && lastNewline < 0 && (firstText.startsWith(HEADER_START) || HEADER_START.startsWith(firstText))));
  if (header === undefined && !lostAll) throw new JournalError(`${path} is not a journal of tpp run (its first line is not a journal header): it is neither read further nor written. Move it away, or give --journal another path.`, 'broken');
  for (const r of [preamble, ...runs]) settle(r, boot, marks);
  // A cut file may have lost any number of lines after the cut, leases included: every row no line names is in doubt.
  if (lostAll || cut) marks.unsureUpTo(MAX_JOURNAL_ROW);
  return { ...(header ? { header } : {}), marks, validBytes: lostAll ? 0 : lastNewline + 1, runs, damage, lostAll };
}

/** The longest line read whole; a longer one (not a journal line) is read as its first part. */
const MAX_LINE = 1 << 20;

/**
 * The lines of the file open at `fd`, from its start, read with read(2) in chunks (so that nothing reads it once this
 * returns, and the caller may close it); `end()`, once the lines are read, says where the last newline is.
 */
export function linesOf(fd: number): { lines: Iterable<{ text: string; n: number }>; end: () => { endsWithNewline: boolean; lastNewline: number } } {
  let offset = 0;
  let lastNewline = -1;
  let last = 0x0a;
  function* lines(): Generator<{ text: string; n: number }> {
    const buf = Buffer.alloc(64 * 1024);
    let parts: Buffer[] = [];
    let partLength = 0;
    let n = 0;
    for (let got = readSync(fd, buf, 0, buf.length, 0); got > 0; got = readSync(fd, buf, 0, buf.length, offset)) {
      let from = 0;
      for (let i = buf.indexOf(0x0a, 0); i >= 0 && i < got; i = buf.indexOf(0x0a, i + 1)) {
        parts.push(Buffer.from(buf.subarray(from, Math.min(i, from + MAX_LINE - partLength))));
        yield { text: Buffer.concat(parts).toString('utf8'), n: ++n };
        lastNewline = offset + i;
        parts = [];
        partLength = 0;
        from = i + 1;
      }
      if (from < got && partLength < MAX_LINE) {
        const part = Buffer.from(buf.subarray(from, Math.min(got, from + MAX_LINE - partLength)));
        parts.push(part);
        partLength += part.length;
      }
      last = buf[got - 1] as number;
      offset += got;
    }
    if (parts.length > 0) yield { text: Buffer.concat(parts).toString('utf8'), n: ++n };
  }
  return { lines: lines(), end: () => ({ endsWithNewline: last === 0x0a, lastNewline }) };
}

/**
 * A run that neither closed nor ran on this boot (the machine stopped), or that lost lines, may have sent rows no
 * line names: those of its leases (and, when a lost line may have been a lease, one lease more).
 */
function settle(r: RunRead, boot: string, marks: JournalMarks): void {
  if (r.lostLines) marks.unsureUpTo(r.leaseTo + LEASE_ROWS);
  else if (!r.closed && r.boot !== boot) marks.unsureUpTo(r.leaseTo);
}
