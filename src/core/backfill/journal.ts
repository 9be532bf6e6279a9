/**
 * The journal of a backfill (docs/backfills.md, The journal): one JSON Lines file per flow and data file,
 * `.tpp/runs/<flow>-<data>.jsonl` next to the data file. Its first line is the header (flow path and hash, data
 * path); each run then writes an `open` line (the boot id), per row a `started` line (row number, hash of the values
 * the row sends) before the row's first request and an `ended` line (status, created record id, or outcome unknown)
 * after its last answer, and `closed` at a clean end.
 *
 * Two failures, two guarantees. A process that dies (kill -9, a crash) loses nothing it wrote: every line is handed to
 * the kernel with a synchronous write(2) before the request it announces is sent or its row reported, and the kernel
 * keeps it. A machine that stops (power, an OS crash) loses what was not flushed (fdatasync) yet: lines are flushed
 * together every {@link JOURNAL_SYNC_MS} ms and at the end, and a `lease` line naming the rows up to which sending may
 * go is flushed before any row beyond the last lease is sent, {@link LEASE_ROWS} rows at a time and ahead of need. A
 * reader that finds the lines of a run that neither closed nor ran on the machine's current boot treats the rows of
 * its leases that no line names as `unsure` (maybe sent: resumed with the duplicate check). A last line cut short
 * is tolerated and cut off before anything is appended. One process at a time writes a journal: the kill -9-safe
 * socket lock of lock/socketLock.ts.
 */
import { createReadStream, readFileSync, writeSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { uptime } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';
import { socketLockPath, takeSocketLock } from '../lock/socketLock';
import { JOURNAL_VERSION, RowMarks, type JournalHeader, type JournalLine } from './journalState';

export { RowMarks, type EndStatus, type JournalHeader, type JournalLine, type RowState } from './journalState';

/** The largest row number a journal may name (100 million rows: the compact marks take 5 bytes a row). */
export const MAX_JOURNAL_ROW = 100_000_000;
/** Milliseconds between flushes of the lines written meanwhile (what a stopped machine may lose). */
export const JOURNAL_SYNC_MS = 200;
/** Rows a `lease` line covers (what a resume after a stopped machine may have to check). */
export const LEASE_ROWS = 256;

/** The operating system's boot: Linux's boot id, elsewhere the boot time to the minute (a doubt makes rows `unsure`, never the reverse). */
export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return `boot-${Math.round((Date.now() / 1000 - uptime()) / 60)}`;
  }
}

/** A journal that cannot be used: in use, of another flow or data file, broken, or left by an earlier run. */
export class JournalError extends Error {
  override readonly name = 'JournalError';
  constructor(
    message: string,
    readonly code: 'busy' | 'mismatch' | 'exists' | 'broken',
  ) {
    super(message);
  }
}

/** What a journal says so far. */
export interface JournalContents {
  readonly header?: JournalHeader;
  readonly marks: RowMarks;
  /** Byte length of the whole lines (a cut-off last line excluded). */
  readonly validBytes: number;
}

const rowOk = (n: unknown, max: number): boolean => Number.isSafeInteger(n) && (n as number) >= 1 && (n as number) <= max;

/** One line of a journal, its shape checked. @throws JournalError `broken`. */
function lineOf(path: string, text: string, line: number): JournalLine {
  let v: JournalLine;
  try {
    v = JSON.parse(text) as JournalLine;
  } catch {
    v = null as unknown as JournalLine;
  }
  if (v === null || typeof v !== 'object') throw new JournalError(`${path}: line ${line} is not a journal line; the file was changed by hand or is not a journal.`, 'broken');
  if (v.t === 'started' || v.t === 'ended' ? !(rowOk(v.row, MAX_JOURNAL_ROW) && typeof v.hash === 'string') : v.t === 'lease' && !rowOk(v.to, MAX_JOURNAL_ROW + LEASE_ROWS)) throw new JournalError(`${path}: line ${line} names no row from 1 to ${MAX_JOURNAL_ROW}; the file was changed by hand or is not a journal.`, 'broken');
  if (!['header', 'open', 'lease', 'closed', 'started', 'ended'].includes(v.t)) throw new JournalError(`${path}: line ${line} is not a journal line; the file was changed by hand or is not a journal.`, 'broken');
  return v;
}

/**
 * Reads a journal file as a stream. `boot`: the boot id to compare runs with (the machine's own by default).
 * @throws JournalError `broken` for a line other than the last that is not a journal line (with its line number).
 */
export async function readJournal(path: string, boot: string = bootId()): Promise<JournalContents> {
  const marks = new RowMarks();
  let header: JournalHeader | undefined;
  let validBytes = 0;
  let pending: { text: string; line: number } | undefined;
  let lineNo = 0;
  // The run whose lines are being read: its boot, the highest row its leases cover, and whether it closed.
  let run = { boot: '', leaseTo: 0, closed: true };
  const settle = () => {
    if (!run.closed && run.boot !== boot) marks.unsureUpTo(run.leaseTo);
  };
  const apply = (text: string, line: number) => {
    const v = lineOf(path, text, line);
    if (v.t === 'header') header = v;
    else if (v.t === 'started') marks.start(v.row, v.hash);
    else if (v.t === 'ended') marks.end(v.row, v.status, v.hash);
    else if (v.t === 'open') {
      settle();
      run = { boot: String(v.boot), leaseTo: 0, closed: false };
    } else if (v.t === 'lease') run.leaseTo = Math.max(run.leaseTo, v.to);
    else if (v.t === 'closed') run.closed = true;
  };
  const input = createReadStream(path);
  let endsWithNewline = true;
  input.on('data', (chunk) => (endsWithNewline = chunk[chunk.length - 1] === 0x0a));
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    if (pending) {
      apply(pending.text, pending.line);
      validBytes += Buffer.byteLength(pending.text) + 1;
    }
    pending = text === '' ? undefined : { text, line: lineNo };
    if (text === '') validBytes += 1;
  }
  if (pending) {
    let whole = endsWithNewline;
    if (whole) {
      try {
        JSON.parse(pending.text);
      } catch {
        whole = false;
      }
    }
    if (whole) {
      apply(pending.text, pending.line);
      validBytes += Buffer.byteLength(pending.text) + 1;
    }
  }
  settle();
  return { ...(header ? { header } : {}), marks, validBytes };
}

/**
 * An open journal. `write` hands a line to the kernel at once (a killed process loses nothing written); `lease` waits
 * until a row may be sent; everything written is flushed to the disk every {@link JOURNAL_SYNC_MS} ms and by `close`.
 */
export class JournalWriter {
  private leaseTo = 0;
  private leasing: Promise<void> | undefined;
  private dirty = false;
  private syncing: Promise<void> | undefined;
  private failure: unknown;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly file: FileHandle,
    private readonly release: () => Promise<void>,
  ) {
    this.timer = setInterval(() => void this.sync().catch((err: unknown) => (this.failure ??= err)), JOURNAL_SYNC_MS);
    this.timer.unref();
  }

  /**
   * Appends one line with a synchronous write(2): once this returns, the line outlives the process.
   * @throws the file system's error (also one of an earlier flush: a journal that cannot be flushed is not trusted).
   */
  write(line: JournalLine): void {
    if (this.failure) throw this.failure;
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
    for (let done = 0; done < bytes.length; ) done += writeSync(this.file.fd, bytes, done);
    this.dirty = true;
  }

  /** Flushes what was written so far (fdatasync); lines written while a flush runs share the next one. */
  async sync(): Promise<void> {
    while (this.syncing) await this.syncing;
    if (!this.dirty) return;
    this.dirty = false;
    this.syncing = this.file.datasync().finally(() => (this.syncing = undefined));
    await this.syncing;
  }

  /**
   * Resolves once `row` may be sent: a flushed `lease` line covers it. The next lease is taken when half of this one
   * is used, so a steady run does not wait.
   * @throws the file system's error.
   */
  async lease(row: number): Promise<void> {
    while (row > this.leaseTo) await (this.leasing ??= this.extend(row));
    if (row > this.leaseTo - LEASE_ROWS / 2 && !this.leasing) this.leasing = this.extend(this.leaseTo + 1);
  }

  private async extend(from: number): Promise<void> {
    try {
      const to = from + LEASE_ROWS - 1;
      this.write({ t: 'lease', to });
      await this.sync();
      this.leaseTo = Math.max(this.leaseTo, to);
    } finally {
      this.leasing = undefined;
    }
  }

  /** Writes `closed` (this run's lines are all flushed), flushes, closes the file and releases the lock. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.leasing?.catch(() => undefined);
      if (!this.failure) this.write({ t: 'closed' });
      await this.sync();
    } finally {
      await this.file.close();
      await this.release();
    }
  }
}

/** How to open a journal. */
export interface OpenJournalOptions {
  readonly header: Omit<JournalHeader, 't' | 'v' | 'created'>;
  /** Continue a journal that has rows (`--resume`); without it such a journal is refused (`exists`). */
  readonly resume: boolean;
}

/**
 * Opens (creating it and its directory) the journal at `path` and takes its lock.
 * @returns the writer and what the journal said (empty for a new one).
 * @throws JournalError `busy` (another run holds its lock), `mismatch` (its header names another flow, data file or
 *   a changed flow), `exists` (it has rows and `resume` is false), `broken`; file system errors as they are.
 */
export async function openJournal(path: string, options: OpenJournalOptions): Promise<{ writer: JournalWriter; contents: JournalContents }> {
  await mkdir(dirname(path), { recursive: true });
  const file = await open(path, 'a+');
  let release: (() => Promise<void>) | undefined;
  try {
    release = await takeSocketLock(socketLockPath(path, 'tpp-journal'));
    if (!release) throw new JournalError(`${path} is in use by another run of this backfill (its lock is held); wait for it to end.`, 'busy');
    const boot = bootId();
    const contents = await readJournal(path, boot);
    const h = contents.header;
    const want = options.header;
    if (h && (h.flow !== want.flow || h.data !== want.data)) throw new JournalError(`${path} is the journal of ${h.flow} over ${h.data}, not of ${want.flow} over ${want.data}.`, 'mismatch');
    if (h && h.flowHash !== want.flowHash) throw new JournalError(`${path}: ${want.flow} changed since the journal was written (a changed flow may send other bodies); undo the change to resume, or move the journal away to start over.`, 'mismatch');
    if (h && !options.resume && (contents.marks.size > 0 || contents.marks.anyUnsure)) throw new JournalError(`${path} holds an earlier run of ${want.flow} over ${want.data}: continue it with --resume, or move it away to start over (rows it ended would be sent again).`, 'exists');
    const { size } = await file.stat();
    if (size > contents.validBytes) await file.truncate(contents.validBytes); // a line cut short by a crash
    const writer = new JournalWriter(file, release);
    if (!h) writer.write({ t: 'header', v: JOURNAL_VERSION, ...want, created: new Date().toISOString() });
    writer.write({ t: 'open', boot });
    await writer.sync();
    return { writer, contents };
  } catch (err) {
    await file.close();
    await release?.();
    throw err;
  }
}
