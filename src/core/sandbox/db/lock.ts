import { join } from 'node:path';
import * as lockfile from 'proper-lockfile';
import { DataDirInUseError } from './database';

/** Milliseconds after which a lock whose owner stopped refreshing it (killed) counts as stale. */
const STALE_MS = 5000;

/**
 * Takes the lock of a sandbox data directory (`<dataDir>/sandbox.lock`, with proper-lockfile): one process at a
 * time. A lock left by a killed process goes stale after a few seconds, so start-up waits up to twice that long for
 * it. Resolves with the release function; rejects with {@link DataDirInUseError} while a live process holds it.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    const release = await lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, 'sandbox.lock'),
      realpath: false,
      stale: STALE_MS,
      update: 1000,
      retries: { retries: 10, factor: 1.2, minTimeout: 300, maxTimeout: 1200 },
      onCompromised: () => undefined,
    });
    return async () => {
      try {
        await release();
      } catch {
        // already released or compromised
      }
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirInUseError(dataDir);
    throw err;
  }
}
