import { createHash } from 'node:crypto';
import { realpathSync, unlinkSync } from 'node:fs';
import { Server, createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError } from './database';

/**
 * The lock of a sandbox data directory: one process at a time. It is a listening local socket (a Unix domain
 * socket, a named pipe on Windows) whose name derives from the directory's real path. The operating system closes it
 * when its process dies, even by kill -9, so a killed sandbox never leaves a lock behind; and it answers connections
 * from the kernel's backlog even while the owner's event loop is busy (PGlite runs synchronously in WebAssembly: a
 * bulk load blocks the loop for a minute), so a busy owner is never taken for a dead one.
 *
 * (A time-stamped lock file such as proper-lockfile's cannot tell those two apart: it either lets a second process
 * in during a long statement or makes every restart after a crash wait for the lock to go stale.)
 */

/** Socket path of the lock of `dataDir`. */
export function lockPath(dataDir: string): string {
  const hash = createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 24);
  return process.platform === 'win32' ? `\\\\.\\pipe\\tpp-sandbox-${hash}` : join(tmpdir(), `tpp-sandbox-${hash}.lock`);
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
 * Takes the lock of `dataDir` (which must exist). Resolves with the release function; rejects with
 * {@link DataDirInUseError} while another live process holds it. A lock left by a dead process is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = lockPath(dataDir);
  let server: Server;
  try {
    server = await listen(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    if (await answers(path)) throw new DataDirInUseError(dataDir);
    try {
      if (process.platform !== 'win32') unlinkSync(path); // the socket file of a process that died
    } catch {
      // removed meanwhile
    }
    try {
      server = await listen(path);
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new DataDirInUseError(dataDir);
      throw again;
    }
  }
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
