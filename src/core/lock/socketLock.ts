/**
 * A kill -9-safe lock of one file or directory: a listening local socket (a Unix domain socket, a named pipe on
 * Windows) whose name derives from the real path of what it locks. The operating system closes it when its process
 * dies, even by kill -9, so a killed process never leaves a lock behind; and it answers connections from the kernel's
 * backlog even while the owner's event loop is busy, so a busy owner is never taken for a dead one.
 *
 * (A time-stamped lock file such as proper-lockfile's cannot tell those two apart: it either lets a second process
 * in during a long pause or makes every restart after a crash wait for the lock to go stale. That is why the Local
 * sandbox's data directory (sandbox/db/lock.ts) locks this way.) The socket lives in the temporary directory, so two
 * processes with different `$TMPDIR` do not see each other's, and taking over a dead owner's socket (unlink, then
 * listen) can let two takers in at once: a backfill's journal, which must hold against both, uses fileLock.ts.
 */
import { createHash } from 'node:crypto';
import { realpathSync, unlinkSync } from 'node:fs';
import { Server, createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Socket path of the lock of `target` (which must exist) in the lock family `prefix` (e.g. `tpp-sandbox`).
 * @throws the error of `realpathSync` when `target` does not exist.
 */
export function socketLockPath(target: string, prefix: string): string {
  const hash = createHash('sha256').update(realpathSync(target)).digest('hex').slice(0, 24);
  return process.platform === 'win32' ? `\\\\.\\pipe\\${prefix}-${hash}` : join(tmpdir(), `${prefix}-${hash}.lock`);
}

function listen(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.end());
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      server.unref();
      resolve(server);
    });
  });
}

/** Whether a live process listens on `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(true); // a full backlog: someone is there
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Takes the lock at socket path `path` (from {@link socketLockPath}). A lock left by a dead process is taken over.
 * @returns the release function, or `undefined` while another live process holds the lock.
 * @throws errors of listening other than EADDRINUSE (e.g. EACCES).
 */
export async function takeSocketLock(path: string): Promise<(() => Promise<void>) | undefined> {
  let server: Server;
  try {
    server = await listen(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    if (await answers(path)) return undefined;
    try {
      if (process.platform !== 'win32') unlinkSync(path); // the socket file of a process that died
    } catch {
      // removed meanwhile
    }
    try {
      server = await listen(path);
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'EADDRINUSE') return undefined;
      throw again;
    }
  }
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
