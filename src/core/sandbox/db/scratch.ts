import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError } from './database';
import { lockDataDir } from './lock';

/**
 * The scratch directory of an "in memory" embedded sandbox (docs/sandbox.md, Storage): its cluster lives as files in
 * a temporary directory, removed when the sandbox closes, instead of in PGlite's in-memory file system, whose files
 * are JavaScript array buffers (about 120 MiB of resident memory for an empty cluster; the operating system's page
 * cache holds them for free). PGlite runs with fsync off either way, so nothing is slower.
 *
 * Removal: on close, at process exit (also `process.exit` and an uncaught error), and for a process killed before
 * either (kill -9, a crash), by the next scratch sandbox's {@link sweepScratch}. The directory is named after its
 * process, and locked like a data directory, so a sweep never removes one in use.
 */

const PREFIX = 'tpp-sandbox-memory-';

/** Scratch directories of this process, removed at its exit. */
const mine = new Set<string>();
let exitHook = false;

function removeAll(): void {
  for (const dir of mine) removeQuietly(dir);
}

function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // held open elsewhere (Windows): the next sweep removes it
  }
}

/**
 * Makes a new scratch directory in the temporary directory and registers it for removal at exit.
 * Throws when the temporary directory is not writable (the caller then keeps the cluster in PGlite's memory).
 */
export function makeScratchDir(root = tmpdir()): string {
  const dir = mkdtempSync(join(root, `${PREFIX}${process.pid}-`));
  mine.add(dir);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', removeAll);
  }
  return dir;
}

/** Removes a scratch directory made by {@link makeScratchDir} (after its sandbox closed). Never throws. */
export function removeScratchDir(dir: string): void {
  mine.delete(dir);
  removeQuietly(dir);
}

/** Whether process `pid` is alive (signal 0 tests it without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/**
 * Removes the scratch directories left in `root` by processes that died before removing theirs: those whose process
 * is gone and whose lock is free. Resolves to how many were removed; never throws.
 */
export async function sweepScratch(root = tmpdir()): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(PREFIX));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name.slice(PREFIX.length))?.[1]);
    const dir = join(root, name);
    if (!Number.isInteger(pid) || pid === process.pid || mine.has(dir) || alive(pid)) continue;
    try {
      const release = await lockDataDir(dir);
      removeQuietly(dir);
      await release();
      removed++;
    } catch (err) {
      if (!(err instanceof DataDirInUseError)) continue; // removed meanwhile, or not ours to read
    }
  }
  return removed;
}
