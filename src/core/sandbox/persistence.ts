import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Crash-safe storage of the Local sandbox under a data directory.
 *
 * Layout:
 * - `snapshot.json`: `{ "format": 1, "generation": G, "state": … }`, written as `snapshot.json.tmp`,
 *   fsynced, renamed over the old one, then the directory is fsynced, so a reader sees either the old or the
 *   new snapshot, never a torn one.
 * - `journal-G.jsonl`: one JSON event per line, appended and fsynced before the write is acknowledged.
 *   Events after the snapshot of generation G live in the journal of generation G.
 *
 * Reading: the snapshot, then its journal line by line. A last line without its newline or that does not
 * parse (a write torn by a crash) is ignored and cut off; a bad line anywhere else is reported as corruption.
 */
export class DurableLog {
  private fd: number;
  private generation: number;
  private linesSinceSnapshot = 0;

  private constructor(
    private readonly dir: string,
    generation: number,
    fd: number,
    linesSinceSnapshot: number,
  ) {
    this.generation = generation;
    this.fd = fd;
    this.linesSinceSnapshot = linesSinceSnapshot;
  }

  /**
   * Opens (creating if needed) the data directory and reads it back.
   * Returns the log, ready to append, with the snapshot state (`undefined` when none) and the journal events
   * written after it, in order. Throws an Error naming the file when the journal is corrupt (not merely torn)
   * or the snapshot is unreadable.
   */
  static open(dir: string): { log: DurableLog; snapshot: unknown; events: unknown[] } {
    mkdirSync(dir, { recursive: true });
    acquireLock(dir);
    try {
      return DurableLog.read(dir);
    } catch (err) {
      releaseLock(dir);
      throw err;
    }
  }

  private static read(dir: string): { log: DurableLog; snapshot: unknown; events: unknown[] } {
    const snapPath = join(dir, 'snapshot.json');
    let generation = 0;
    let snapshot: unknown;
    if (existsSync(snapPath)) {
      let parsed: { format?: number; generation?: number; state?: unknown };
      try {
        parsed = JSON.parse(readFileSync(snapPath, 'utf8')) as typeof parsed;
      } catch (err) {
        throw new Error(`Sandbox snapshot ${snapPath} is unreadable: ${(err as Error).message}`);
      }
      if (parsed.format !== 1 || typeof parsed.generation !== 'number') throw new Error(`Sandbox snapshot ${snapPath} has an unknown format`);
      generation = parsed.generation;
      snapshot = parsed.state;
    }
    // Leftovers of an interrupted compaction: temporary snapshot and journals of other generations.
    for (const name of readdirSync(dir)) {
      const m = /^journal-(\d+)\.jsonl$/.exec(name);
      if ((m && Number(m[1]) !== generation) || name === 'snapshot.json.tmp') unlinkSync(join(dir, name));
    }
    const journalPath = join(dir, `journal-${generation}.jsonl`);
    const events: unknown[] = [];
    let goodLength = 0;
    if (existsSync(journalPath)) {
      const buf = readFileSync(journalPath);
      let start = 0;
      let lineNo = 0;
      while (start < buf.length) {
        const nl = buf.indexOf(0x0a, start);
        lineNo++;
        const end = nl === -1 ? buf.length : nl;
        const text = buf.subarray(start, end).toString('utf8');
        let event: unknown;
        let ok = nl !== -1;
        if (ok) {
          try {
            event = JSON.parse(text);
          } catch {
            ok = false;
          }
        }
        if (!ok) {
          const isLast = nl === -1 || nl === buf.length - 1;
          if (!isLast) throw new Error(`Sandbox journal ${journalPath} is corrupt at line ${lineNo}`);
          break; // torn last write: never acknowledged, ignore it
        }
        events.push(event);
        start = nl + 1;
        goodLength = start;
      }
    }
    const fd = openSync(journalPath, 'a+');
    if (fstatSync(fd).size !== goodLength) {
      ftruncateSync(fd, goodLength);
      fsyncSync(fd);
    }
    return { log: new DurableLog(dir, generation, fd, events.length), snapshot, events };
  }

  /** Number of journal lines written since the last snapshot (used to decide when to compact). */
  get pending(): number {
    return this.linesSinceSnapshot;
  }

  /**
   * Appends one event and (unless `sync` is false) fsyncs it: when this returns, the event survives a crash.
   * Throws on I/O errors.
   */
  append(event: unknown, sync = true): void {
    const line = Buffer.from(JSON.stringify(event) + '\n', 'utf8');
    let off = 0;
    while (off < line.length) off += writeSync(this.fd, line, off, line.length - off);
    if (sync) fsyncSync(this.fd);
    this.linesSinceSnapshot++;
  }

  /** fsyncs the journal (after appends with `sync` false). */
  sync(): void {
    fsyncSync(this.fd);
  }

  /**
   * Writes `state` as the new snapshot atomically (temp file + fsync + rename + directory fsync) and starts
   * an empty journal for the next generation; the old journal is then deleted. Throws on I/O errors, leaving
   * the previous snapshot and journal intact.
   */
  snapshot(state: unknown): void {
    const next = this.generation + 1;
    const nextJournal = join(this.dir, `journal-${next}.jsonl`);
    const newFd = openSync(nextJournal, 'w');
    fsyncSync(newFd);
    const tmp = join(this.dir, 'snapshot.json.tmp');
    const tfd = openSync(tmp, 'w');
    try {
      const data = Buffer.from(JSON.stringify({ format: 1, generation: next, state }), 'utf8');
      let off = 0;
      while (off < data.length) off += writeSync(tfd, data, off, data.length - off);
      fsyncSync(tfd);
    } finally {
      closeSync(tfd);
    }
    renameSync(tmp, join(this.dir, 'snapshot.json'));
    this.fsyncDir();
    const oldJournal = join(this.dir, `journal-${this.generation}.jsonl`);
    closeSync(this.fd);
    this.fd = newFd;
    this.generation = next;
    this.linesSinceSnapshot = 0;
    try {
      unlinkSync(oldJournal);
    } catch {
      // already gone
    }
    this.fsyncDir();
  }

  private fsyncDir(): void {
    try {
      const dfd = openSync(this.dir, 'r');
      try {
        fsyncSync(dfd);
      } finally {
        closeSync(dfd);
      }
    } catch {
      // Some platforms (Windows) cannot fsync a directory; the rename is still atomic there.
    }
  }

  /** Closes the journal file and releases the directory's lock. */
  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    releaseLock(this.dir);
  }
}

/** Thrown when another live process (or another store in this process) already uses the data directory. */
export class DataDirInUse extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`The sandbox data directory ${dir} is in use by process ${pid}`);
    this.name = 'DataDirInUse';
  }
}

/**
 * Takes `<dir>/lock` (holding this process id). A lock left by a process that no longer runs (kill -9) is taken
 * over. Throws {@link DataDirInUse} when a running process holds it.
 */
function acquireLock(dir: string): void {
  const path = join(dir, 'lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let pid = NaN;
    try {
      pid = Number(readFileSync(path, 'utf8').trim());
    } catch {
      // removed meanwhile: try again
    }
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new DataDirInUse(dir, pid);
    try {
      unlinkSync(path); // stale lock
    } catch {
      // removed meanwhile
    }
  }
  throw new DataDirInUse(dir, NaN);
}

function releaseLock(dir: string): void {
  const path = join(dir, 'lock');
  try {
    if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
  } catch {
    // no lock
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
