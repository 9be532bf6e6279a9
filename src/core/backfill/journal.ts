/**
 * The journal of a backfill (docs/backfills.md, The journal): one JSON Lines file per flow and data file,
 * `.tpp/runs/<flow>-<data>.jsonl` next to the data file. Its first line is the header (flow path and hash, data
 * path); each run then writes an `open` line (the boot id), per row a `started` line (its key and the hash of the
 * values it sends) before the row's first request and an `ended` line (status, created record id, or outcome unknown)
 * after its last answer, and `closed` at a clean end.
 *
 * Two failures, two guarantees. A process that dies (kill -9, a crash) loses nothing it wrote: every line is handed to
 * the kernel with a synchronous write(2) before the request it announces is sent or its row reported, and the kernel
 * keeps it. A machine that stops (power, an OS crash) loses what was not flushed (fdatasync) yet: lines are flushed
 * together every {@link JOURNAL_SYNC_MS} ms and at the end, and a `lease` line naming the rows up to which sending may
 * go is flushed before any row beyond the last lease is sent, {@link LEASE_ROWS} rows at a time and ahead of need
 * (journalRead.ts says what a reader makes of lines that were lost).
 *
 * The journal is a file this code owns: it is opened without following a symbolic link, created with O_EXCL and mode
 * 0600, and a file whose first line is not a journal header is never truncated or written. One process at a time
 * writes it: the lock of lock/fileLock.ts, next to it.
 */
import { closeSync, constants, fdatasync, fstatSync, ftruncateSync, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { awaitFileLock, describeHolder, type Launcher } from '../lock/fileLock';
import { bootId } from '../lock/owner';
import { emptyContents, JournalError, LEASE_ROWS, readJournalFd, type JournalContents } from './journalRead';
import { JOURNAL_VERSION, type JournalHeader, type JournalLine } from './journalState';

export { JournalError, LEASE_ROWS, MAX_JOURNAL_ROW, type JournalContents } from './journalRead';
export { JournalMarks, type EndStatus, type JournalHeader, type JournalLine, type RowState } from './journalState';
export { bootId };

/** Milliseconds between flushes of the lines written meanwhile (what a stopped machine may lose). */
export const JOURNAL_SYNC_MS = 200;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const datasync = promisify(fdatasync);

/**
 * A file system error of the journal as a message that names it (ENOSPC: the disk is full). `opening`: nothing was
 * sent yet (the journal, its directory or its lock could not be made).
 */
export function journalIoError(path: string, err: unknown, opening = false): JournalError {
  if (err instanceof JournalError) return err;
  const e = err as NodeJS.ErrnoException;
  const why = e.code === 'ENOSPC' ? 'no space is left on its disk (ENOSPC)' : e.code === 'EDQUOT' ? 'the disk quota is used up (EDQUOT)' : `${e.message ?? String(err)}`.trim();
  const next = opening ? 'Nothing was sent.' : 'Rows in flight are in it as started; once it can be written, continue with --resume (they are looked up before anything is resent).';
  return new JournalError(`cannot ${opening ? 'open' : 'write'} the journal ${path}: ${why}. ${next}`, 'io');
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
  private failure: JournalError | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly fd: number,
    readonly path: string,
    private readonly release: () => void,
  ) {
    // A failed flush is kept in `failure`: the next write throws it.
    this.timer = setInterval(() => void this.sync().catch(() => undefined), JOURNAL_SYNC_MS);
    this.timer.unref();
  }

  /**
   * Appends one line with a synchronous write(2): once this returns, the line outlives the process.
   * @throws JournalError `io` naming the journal (also for an earlier flush that failed: such a journal is not trusted).
   */
  write(line: JournalLine): void {
    if (this.failure) throw this.failure;
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
    try {
      for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done);
    } catch (err) {
      throw (this.failure = journalIoError(this.path, err));
    }
    this.dirty = true;
  }

  /** Flushes what was written so far (fdatasync); lines written while a flush runs share the next one. @throws JournalError `io`. */
  async sync(): Promise<void> {
    while (this.syncing) await this.syncing.catch(() => undefined);
    if (this.failure) throw this.failure;
    if (!this.dirty) return;
    this.dirty = false;
    this.syncing = datasync(this.fd).then(
      () => undefined,
      (err: unknown) => {
        throw (this.failure = journalIoError(this.path, err));
      },
    );
    try {
      await this.syncing;
    } finally {
      this.syncing = undefined;
    }
  }

  /**
   * Resolves once `row` (a position in this run's data file) may be sent: a flushed `lease` line covers it. The next
   * lease is taken when half of this one is used, so a steady run does not wait.
   * @throws JournalError `io`.
   */
  async lease(row: number): Promise<void> {
    while (row > this.leaseTo) await (this.leasing ??= this.extend(row));
    if (row > this.leaseTo - LEASE_ROWS / 2 && !this.leasing) this.leasing = this.extend(this.leaseTo + 1).catch(() => undefined);
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

  /** Stops the timed flushes of a writer that is given up before use (its file is closed by the caller). */
  abandon(): void {
    clearInterval(this.timer);
  }

  /** Writes `closed` (this run's lines are all flushed), flushes, closes the file and releases the lock. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.leasing?.catch(() => undefined);
      if (!this.failure) this.write({ t: 'closed' });
      await this.sync();
    } catch {
      // the failure was reported by the write that met it
    } finally {
      closeSync(this.fd);
      this.release();
    }
  }
}

/** How to open a journal. */
export interface OpenJournalOptions {
  readonly header: Omit<JournalHeader, 't' | 'v' | 'created'>;
  /** Continue a journal that has rows (`--resume`); without it such a journal is refused (`exists`). */
  readonly resume: boolean;
  /** Directories between the data file's and the journal that must not be symbolic links (the default path's `.tpp` and `runs`). */
  readonly ownDirs?: readonly string[];
  /** The process whose end ends this one (`tpp run` of its row sender): the lock names it (lock/fileLock.ts). */
  readonly launcher?: Launcher;
}

/** Makes each of `dirs` (mode 0700) unless it is there, refusing one that is a symbolic link or not a directory. */
function ownDirectories(dirs: readonly string[]): void {
  for (const dir of dirs) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const st = lstatSync(dir);
    if (!st.isDirectory()) throw new JournalError(`${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}: a journal is never written through it. Remove it (or give --journal another path).`, 'unsafe');
  }
}

/** Opens the journal file without following a link: the existing one, or a new one (O_EXCL, 0600). */
function openFile(path: string): { fd: number; created: boolean } {
  // Where O_NOFOLLOW is not (Windows), a link is refused by looking first.
  if (NOFOLLOW === 0 && lstatSafe(path)?.isSymbolicLink()) throw new JournalError(`${path} is a symbolic link: a journal is never written through one (it would write over the file it points to). Remove it.`, 'unsafe');
  try {
    return { fd: openSync(path, constants.O_RDWR | constants.O_APPEND | NOFOLLOW), created: false };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || (code === 'ENOENT' && lstatSafe(path)?.isSymbolicLink())) throw new JournalError(`${path} is a symbolic link: a journal is never written through one (it would write over the file it points to). Remove it.`, 'unsafe');
    if (code !== 'ENOENT') throw err;
  }
  try {
    return { fd: openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600), created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new JournalError(`${path} appeared while this run opened it: not written. Look at what made it, then run again.`, 'unsafe');
    throw err;
  }
}

function lstatSafe(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Reads the journal at `path` (never through a symbolic link). `boot`: the boot id runs are compared with (this
 * machine's by default).
 * @throws JournalError `broken` for a file that is not a journal; the file system's errors.
 */
export async function readJournal(path: string, boot: string = bootId()): Promise<JournalContents> {
  const fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
  try {
    return readJournalFd(fd, path, boot);
  } finally {
    closeSync(fd);
  }
}

/** Checks the journal's header against this run; @throws JournalError `mismatch`, `exists`. */
function checkHeader(path: string, contents: JournalContents, options: OpenJournalOptions): void {
  const h = contents.header;
  const want = options.header;
  if (h && (h.flow !== want.flow || h.data !== want.data)) throw new JournalError(`${path} is the journal of ${h.flow} over ${h.data}, not of ${want.flow} over ${want.data}.`, 'mismatch');
  if (h && h.flowHash !== want.flowHash) throw new JournalError(`${path}: ${want.flow} changed since the journal was written (a changed flow may send other bodies); undo the change to resume, or move the journal away to start over.`, 'mismatch');
  if (!options.resume && (contents.marks.size > 0 || contents.marks.anyUnsure)) throw new JournalError(`${path} holds an earlier run of ${want.flow} over ${want.data}${contents.lostAll ? ' that lost its lines' : ''}: continue it with --resume, or move it away to start over (rows it ended would be sent again).`, 'exists');
}

/**
 * Opens (creating it and its directory) the journal at `path`, taking its lock first.
 * @returns the writer and what the journal said (empty for a new one).
 * @throws JournalError `busy` (another run holds its lock: named), `unsafe` (a symbolic link on the way, or a file
 *   that appeared meanwhile), `broken` (not a journal: never written), `mismatch` (its header names another flow,
 *   data file or a changed flow), `exists` (it has rows and `resume` is false), `io`; other file system errors as they are.
 */
export async function openJournal(path: string, options: OpenJournalOptions): Promise<{ writer: JournalWriter; contents: JournalContents }> {
  let lock: Awaited<ReturnType<typeof awaitFileLock>>;
  try {
    if (options.ownDirs) ownDirectories(options.ownDirs);
    else mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    lock = await awaitFileLock(path, 'backfill', options.launcher);
  } catch (err) {
    throw journalIoError(path, err, true);
  }
  if ('held' in lock) throw new JournalError(`${path} is in use by another run of this backfill: ${describeHolder(lock.held)}. Wait for it to end; the lock is per machine (docs/backfills.md, One run at a time).`, 'busy');
  let fd: number | undefined;
  let writer: JournalWriter | undefined;
  try {
    const file = openFile(path);
    fd = file.fd;
    if (!fstatSync(fd).isFile()) throw new JournalError(`${path} is not a regular file: not written.`, 'unsafe');
    const boot = bootId();
    const contents = file.created ? emptyContents() : readJournalFd(fd, path, boot);
    checkHeader(path, contents, options);
    try {
      if (fstatSync(fd).size > contents.validBytes) ftruncateSync(fd, contents.validBytes); // a line cut short, or a header cut short
    } catch (err) {
      throw journalIoError(path, err);
    }
    writer = new JournalWriter(fd, path, lock.release);
    if (!contents.header) writer.write({ t: 'header', v: JOURNAL_VERSION, ...options.header, created: new Date().toISOString() });
    writer.write({ t: 'open', boot, pid: process.pid });
    await writer.sync();
    return { writer, contents };
  } catch (err) {
    writer?.abandon();
    if (fd !== undefined) closeSync(fd);
    lock.release();
    throw journalIoError(path, err, writer === undefined);
  }
}
