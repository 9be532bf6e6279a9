import { socketLockPath, takeSocketLock } from '../../lock/socketLock';
import { DataDirInUseError } from './database';

/**
 * The lock of a sandbox data directory: one process at a time. It is the listening local socket of
 * lock/socketLock.ts, named after the directory's real path: the operating system closes it when its process dies,
 * even by kill -9, and it answers from the kernel's backlog while the owner's event loop is busy (PGlite runs
 * synchronously in WebAssembly: a bulk load blocks the loop for a minute), so a busy owner is never taken for a dead one.
 */

/** Socket path of the lock of `dataDir`. */
export function lockPath(dataDir: string): string {
  return socketLockPath(dataDir, 'tpp-sandbox');
}

/**
 * Takes the lock of `dataDir` (which must exist). Resolves with the release function; rejects with
 * {@link DataDirInUseError} while another live process holds it. A lock left by a dead process is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const release = await takeSocketLock(lockPath(dataDir));
  if (!release) throw new DataDirInUseError(dataDir);
  return release;
}
