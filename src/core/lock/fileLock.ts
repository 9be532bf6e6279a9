/**
 * A lock of one file, kept next to it (`<file>.lock/`, docs/backfills.md, One run at a time): taken atomically, and
 * taken over only once its owner is proven gone. Its state is a few small files, so it needs no temporary directory
 * (a `$TMPDIR` that differs between two runs cannot split it) and no native code.
 *
 * The owner writes a record (pid, boot, the process's start time, host, when) to a file of its own and hard-links it
 * into the lock directory as generation `<n>.json`: link(2) fails when the name exists, so of several processes that
 * saw generation n-1 free only one makes n. Generation n may be made only while n-1 is free: released (its record
 * replaced by a released one with rename(2)) or proven dead (same host; another boot of the machine, or no process
 * with that pid, or one that ended and awaits its reaping, or one that started at another time). After linking, the
 * maker reads the directory again and yields to a higher generation; it then removes the generations below its own.
 * The highest generation is never removed (a release marks it), so the numbers only grow, and a process paused for
 * long between its reading and its linking cannot link a number that a later holder already used.
 *
 * A holder may name its launcher: the process whose end ends it (`tpp run`, which sends a backfill's rows from a
 * process of its own that kills itself once its `tpp run` is gone, cli/runnerProcess.ts). The launcher is the process
 * the user started and sees, so it is named first. A holder whose launcher is gone is dying but may still be sending
 * for a moment (its event loop has to see the channel close), so it is not taken over; {@link awaitFileLock} waits for
 * it to end instead of refusing, as a run started just after a `kill -9` of `tpp run` would otherwise.
 *
 * What cannot be proven is never assumed: a record of another host, or one that cannot be read, keeps the lock held
 * (the message names the file to remove once no run uses it). Libraries did not fit: proper-lockfile and its kind judge
 * staleness by age (a paused owner loses the lock, or a crash makes the next run wait), and flock(2) needs a native
 * addon built per Electron version. A lock through a shared folder holds only as far as that file system makes
 * link(2) atomic; docs/backfills.md says what a second machine must not do.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { bootId, processRuns, processStart } from './owner';

/** Who holds a lock. Times are ISO 8601. */
export interface LockOwner {
  readonly pid: number;
  /** The machine's boot (lock/owner.ts). */
  readonly boot: string;
  /** The process's start (lock/owner.ts): a pid used again by a later process is told apart by it. */
  readonly start: string;
  readonly host: string;
  readonly since: string;
  /** What holds it, e.g. `tpp run`. */
  readonly what: string;
  /** Set once the owner let go. */
  readonly released?: boolean;
  /** The process whose end ends the owner (see the module comment), with its start (lock/owner.ts). */
  readonly launcher?: { readonly pid: number; readonly start: string; readonly what: string };
}

/** A lock held by another process: who, and the file that says so. */
export interface LockHeld {
  readonly owner?: LockOwner;
  readonly file: string;
  /** Why the lock cannot be proven free (another host, an unreadable record, a holder still dying). */
  readonly why?: string;
  /** The holder's launcher is gone, so the holder ends on its own soon (see the module comment). */
  readonly dying?: boolean;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const GEN_RE = /^(\d{1,15})\.json$/;
const TMP_RE = /^tmp-(\d+)-/;
const MAX_TRIES = 50;

/** The lock directory of `target`: `<target>.lock`. */
export function lockDirOf(target: string): string {
  return `${target}.lock`;
}

/** The process whose end ends the one taking the lock (see the module comment), named in its record. */
export interface Launcher {
  readonly pid: number;
  /** What it is, e.g. `tpp run`. */
  readonly what: string;
}

function myOwner(what: string, launcher: Launcher | undefined): LockOwner {
  const l = launcher ? { launcher: { pid: launcher.pid, start: processStart(launcher.pid) ?? '', what: launcher.what } } : {};
  return { pid: process.pid, boot: bootId(), start: processStart(process.pid) ?? '', host: hostname(), since: new Date().toISOString(), what, ...l };
}

/** Whether the process `pid` that started at `start` (empty: not known) is gone on this boot of this machine. */
function processGone(pid: number, start: string): boolean {
  if (!processRuns(pid)) return true;
  const now = processStart(pid);
  return now !== undefined && start !== '' && now !== start; // the pid names a later process
}

/** Whether `owner`'s process is known to be gone (never true for what cannot be proven). */
function provenGone(owner: LockOwner): boolean {
  if (owner.released) return true;
  if (owner.host !== hostname()) return false;
  const boot = bootId();
  if (!boot.startsWith('boot-') && !owner.boot.startsWith('boot-') && owner.boot !== boot) return true; // the machine restarted
  if (owner.boot !== boot) return false; // boot times to the minute may differ by one: nothing proven
  return processGone(owner.pid, owner.start);
}

/** Reads a generation's record without following a link. */
function readOwner(file: string): LockOwner | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    return undefined;
  }
  try {
    const v = JSON.parse(readFileSync(fd, 'utf8')) as LockOwner;
    return typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.boot === 'string' ? v : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Generations in the lock directory, highest first. */
function generations(dir: string): number[] {
  return readdirSync(dir)
    .map((n) => GEN_RE.exec(n)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => b - a);
}

/** Writes `owner` to a new file of this process in `dir` (mode 0600, never through a link). */
function writeRecord(dir: string, owner: LockOwner): string {
  const tmp = join(dir, `tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    const bytes = Buffer.from(`${JSON.stringify(owner)}\n`);
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

const quietUnlink = (file: string) => {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
};

/** Makes the lock directory (mode 0700); refuses a symbolic link or another kind of file there. */
function lockDir(target: string): string {
  const dir = lockDirOf(target);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}: the lock is never taken through it (remove it)`);
  return dir;
}

/** The holder of the top generation, or undefined when the lock is free. @throws ENOENT when it vanished meanwhile. */
function holderOf(dir: string, gen: number): LockHeld | undefined {
  const file = join(dir, `${gen}.json`);
  const owner = readOwner(file);
  if (!owner) return { file, why: 'its record cannot be read' };
  if (provenGone(owner)) return undefined;
  if (owner.host !== hostname()) return { owner, file, why: `it was taken on another machine (${owner.host})` };
  const l = owner.launcher;
  if (l && typeof l.pid === 'number' && owner.boot === bootId() && processGone(l.pid, typeof l.start === 'string' ? l.start : '')) return { owner, file, dying: true, why: `its ${l.what} is gone, and pid ${owner.pid} ends with it` };
  return { owner, file };
}

/** Removes the generations below `gen` and the records of processes that are gone. */
function sweep(dir: string, gen: number): void {
  for (const name of readdirSync(dir)) {
    const g = GEN_RE.exec(name)?.[1];
    const tmpPid = TMP_RE.exec(name)?.[1];
    if (g !== undefined && Number(g) < gen) quietUnlink(join(dir, name));
    else if (tmpPid !== undefined && Number(tmpPid) !== process.pid && !processRuns(Number(tmpPid))) quietUnlink(join(dir, name));
  }
}

/**
 * Takes the lock of `target` (see the module comment).
 * @param what names the holder in the record (e.g. `backfill`).
 * @param launcher the process whose end ends this one, if one does: named in the record.
 * @returns `release` (marks the lock free; idempotent), or `held` naming the process that has it.
 * @throws the file system's errors, and Error when the lock directory is a link or not a directory.
 */
export function takeFileLock(target: string, what: string, launcher?: Launcher): { release: () => void } | { held: LockHeld } {
  const dir = lockDir(target);
  const me = myOwner(what, launcher);
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const top = generations(dir)[0] ?? 0;
    if (top > 0) {
      let held: LockHeld | undefined;
      try {
        held = holderOf(dir, top);
      } catch {
        continue; // removed meanwhile: read again
      }
      if (held) return { held };
    }
    const gen = top + 1;
    const file = join(dir, `${gen}.json`);
    const tmp = writeRecord(dir, me);
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    } finally {
      quietUnlink(tmp);
    }
    if ((generations(dir)[0] ?? 0) > gen) {
      quietUnlink(file); // a process slower than this one made a higher one: yield to it and look again
      continue;
    }
    sweep(dir, gen);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const mark = writeRecord(dir, { ...me, released: true });
        renameSync(mark, file);
      },
    };
  }
  return { held: { file: join(dir, `${generations(dir)[0] ?? 0}.json`), why: 'it changed hands too often while this run tried to take it' } };
}

/** How long {@link awaitFileLock} waits for a dying holder to end, in milliseconds. */
export const DYING_WAIT_MS = 10_000;

/**
 * Takes the lock of `target` as {@link takeFileLock} does, but waits (up to `waitMs`) while it is held by a process
 * whose launcher is gone, which ends on its own (see the module comment): taken once it has ended, `held` if it
 * has not by then.
 */
export async function awaitFileLock(target: string, what: string, launcher?: Launcher, waitMs = DYING_WAIT_MS): Promise<{ release: () => void } | { held: LockHeld }> {
  const until = Date.now() + waitMs;
  for (;;) {
    const got = takeFileLock(target, what, launcher);
    if (!('held' in got) || !got.held.dying) return got;
    if (Date.now() >= until) return { held: { ...got.held, why: `${got.held.why ?? ''}, yet it still ran ${Math.round(waitMs / 1000)} s later` } };
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Who holds the lock of `target` now, without taking it (`tpp run --journal-check`); undefined when free. */
export function lockHolder(target: string): LockHeld | undefined {
  const dir = lockDirOf(target);
  try {
    if (!lstatSync(dir).isDirectory()) return { file: dir, why: 'it is not a directory' };
    const top = generations(dir)[0];
    return top === undefined ? undefined : holderOf(dir, top);
  } catch {
    return undefined;
  }
}

/**
 * One line naming a holder: `pid 123 on build-1 (backfill, since …)`, its launcher first when it has one (`pid 122 on
 * build-1 (tpp run, since …; the lock is held by its process pid 123)`), and why it cannot be taken over when that is
 * not its life.
 */
export function describeHolder(h: LockHeld): string {
  const o = h.owner;
  const l = o?.launcher;
  const who = !o ? 'an unknown process' : l ? `pid ${l.pid} on ${o.host} (${l.what}, since ${o.since}; the lock is held by its process pid ${o.pid})` : `pid ${o.pid} on ${o.host} (${o.what}, since ${o.since})`;
  return `${who}${h.why ? `; ${h.why}` : ''} (lock file ${h.file})`;
}
