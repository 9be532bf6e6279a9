/**
 * The journal of a backfill (docs/backfills.md, The journal): one JSON Lines file per flow and data file,
 * `.tpp/runs/<flow>-<data>.jsonl` next to the data file. Its first line is the header (flow path and hash, data
 * path); then per row a `started` line (row number, hash of the values the row sends) written before the row's first
 * request, and an `ended` line (status, created record id, or outcome unknown) after its last answer. Lines are
 * appended and flushed to the disk (fdatasync) before the caller hears of them, so a kill -9 at any instant loses
 * nothing that was acknowledged; lines waiting together share one flush. A last line cut short (the machine died
 * mid-write) is tolerated and cut off before anything is appended. One process at a time writes a journal: the
 * kill -9-safe socket lock of lock/socketLock.ts.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';
import { socketLockPath, takeSocketLock } from '../lock/socketLock';
import { JOURNAL_VERSION, RowMarks, type JournalHeader, type JournalLine } from './journalState';

export { RowMarks, type EndStatus, type JournalHeader, type JournalLine } from './journalState';

/** The largest row number a journal may name (100 million rows: the compact marks take 5 bytes a row). */
export const MAX_JOURNAL_ROW = 100_000_000;

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

/**
 * Reads a journal file as a stream.
 * @throws JournalError `broken` for a line other than the last that is not a journal line (with its line number).
 */
export async function readJournal(path: string): Promise<JournalContents> {
  const marks = new RowMarks();
  let header: JournalHeader | undefined;
  let validBytes = 0;
  let pending: { text: string; line: number } | undefined;
  let lineNo = 0;
  const apply = (text: string, line: number) => {
    let v: JournalLine;
    try {
      v = JSON.parse(text) as JournalLine;
    } catch {
      throw new JournalError(`${path}: line ${line} is not a journal line; the file was changed by hand or is not a journal.`, 'broken');
    }
    if (v.t !== 'header' && !(Number.isSafeInteger(v.row) && v.row >= 1 && v.row <= MAX_JOURNAL_ROW && typeof v.hash === 'string')) throw new JournalError(`${path}: line ${line} names no row from 1 to ${MAX_JOURNAL_ROW}; the file was changed by hand or is not a journal.`, 'broken');
    if (v.t === 'header') header = v;
    else if (v.t === 'started') marks.start(v.row, v.hash);
    else if (v.t === 'ended') marks.end(v.row, v.status, v.hash);
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
  return { ...(header ? { header } : {}), marks, validBytes };
}

/** An open journal: append lines, each flushed to the disk before its promise resolves. */
export class JournalWriter {
  private queue: string[] = [];
  private waiters: (() => void)[] = [];
  private failers: ((err: unknown) => void)[] = [];
  private flushing = false;

  constructor(
    private readonly file: FileHandle,
    private readonly release: () => Promise<void>,
  ) {}

  /**
   * Appends one line; resolves once it is on the disk (write and fdatasync).
   * @throws the file system's error when the write or flush fails.
   */
  append(line: JournalLine): Promise<void> {
    this.queue.push(`${JSON.stringify(line)}\n`);
    const done = new Promise<void>((resolve, reject) => {
      this.waiters.push(resolve);
      this.failers.push(reject);
    });
    if (!this.flushing) void this.flush();
    return done;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const text = this.queue.join('');
      const waiters = this.waiters;
      const failers = this.failers;
      this.queue = [];
      this.waiters = [];
      this.failers = [];
      try {
        await this.file.write(text);
        await this.file.datasync();
        for (const w of waiters) w();
      } catch (err) {
        for (const f of failers) f(err);
      }
    }
    this.flushing = false;
  }

  /** Waits for the lines appended so far, closes the file and releases the lock. */
  async close(): Promise<void> {
    while (this.flushing) await new Promise((r) => setTimeout(r, 1));
    await this.file.close();
    await this.release();
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
    const contents = await readJournal(path);
    const h = contents.header;
    const want = options.header;
    if (h && (h.flow !== want.flow || h.data !== want.data)) throw new JournalError(`${path} is the journal of ${h.flow} over ${h.data}, not of ${want.flow} over ${want.data}.`, 'mismatch');
    if (h && h.flowHash !== want.flowHash) throw new JournalError(`${path}: ${want.flow} changed since the journal was written (a changed flow may send other bodies); undo the change to resume, or move the journal away to start over.`, 'mismatch');
    if (h && !options.resume && contents.marks.size > 0) throw new JournalError(`${path} holds an earlier run of ${want.flow} over ${want.data}: continue it with --resume, or move it away to start over (rows it ended would be sent again).`, 'exists');
    const { size } = await file.stat();
    if (size > contents.validBytes) await file.truncate(contents.validBytes); // a line cut short by a crash
    const writer = new JournalWriter(file, release);
    if (!h) await writer.append({ t: 'header', v: JOURNAL_VERSION, ...want, created: new Date().toISOString() });
    return { writer, contents };
  } catch (err) {
    await file.close();
    await release?.();
    throw err;
  }
}
