import { constants, lstatSync, type Stats } from 'node:fs';
import { copyFile, link, lstat, open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Writing the files a user asked for (a key pair, an application's private key, a dotenv file): all of them or none,
 * each atomically, never through a symbolic link, each created with its mode from the start.
 */

/** A file that was not written. The message names the path and why, and that nothing was written (or what could not be undone). */
export class FileWriteError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown when a file to be written exists and the caller did not allow overwriting it (message names the file). */
export class FileExists extends FileWriteError {
  override readonly name = 'FileExists';
  constructor(path: string) {
    super(path, `${path} already exists: nothing was overwritten.`);
  }
}

/** Thrown when a file to be written is a symbolic link: writing through it would put a key wherever the link points. */
export class SymlinkRefused extends FileWriteError {
  override readonly name = 'SymlinkRefused';
  constructor(path: string) {
    super(path, `${path} is a symbolic link: nothing was written through it (remove the link or choose another path).`);
  }
}

/** Thrown when something other than a file (a directory, a pipe…) is where a file is to be written. */
export class NotAFile extends FileWriteError {
  override readonly name = 'NotAFile';
  constructor(path: string, what: string) {
    super(path, `${path} is ${what}, not a file: nothing was written (remove it or choose another path).`);
  }
}

/** Thrown when the system refused a write (missing folder, no permission, full disk…); `code` is Node's. */
export class CannotWrite extends FileWriteError {
  override readonly name = 'CannotWrite';
  constructor(
    path: string,
    readonly code: string | undefined,
    reason: string,
  ) {
    super(path, `Cannot write ${path}: ${reason}; nothing was written.`);
  }
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its folder path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EISDIR: 'a directory is in its place',
  ENOTEMPTY: 'a directory is in its place',
};

/** Why the system refused, in words, with Node's code. */
function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code ? `${REASONS[code] ?? 'the system refused'} (${code})` : String((err as Error).message ?? err);
}

function cannotWrite(path: string, err: unknown): FileWriteError {
  return err instanceof FileWriteError ? err : new CannotWrite(path, (err as NodeJS.ErrnoException).code, reasonOf(err));
}

/** Whether anything is at `path`, a dangling symbolic link included (`existsSync` follows links and misses those). */
export function pathTaken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function whatIs(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isSocket()) return 'a socket';
  return s.isCharacterDevice() || s.isBlockDevice() ? 'a device' : 'not a regular file';
}

/** Whether a file is at `path` (to be replaced); throws the reason it may not be written there. */
async function checkTarget(path: string, overwrite: boolean): Promise<boolean> {
  let s: Stats;
  try {
    s = await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw cannotWrite(path, err);
  }
  if (s.isSymbolicLink()) throw new SymlinkRefused(path);
  if (!s.isFile()) throw new NotAFile(path, whatIs(s));
  if (!overwrite) throw new FileExists(path);
  return true;
}

/** A new name beside `path` for a temporary file (`suffix` tmp) or the old file's copy while others are renamed (old). */
const besideName = (path: string, suffix: string) => join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.${suffix}`);

/** Writes `file` to a new temporary file beside it, created exclusively with its mode; pushes its name to `made` first. */
async function writeTemp(file: FileToWrite, made: string[]): Promise<string> {
  const temp = besideName(file.path, 'tmp');
  try {
    const handle = await open(temp, 'wx', file.mode);
    made.push(temp);
    try {
      await handle.writeFile(file.text);
      if (process.platform !== 'win32') await handle.chmod(file.mode); // the umask may have taken bits `mode` asked for
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw cannotWrite(file.path, err);
  }
  return temp;
}

/** One file to write: its path, its text, its file mode (0o600 for a private key: readable by its owner only). */
export interface FileToWrite {
  readonly path: string;
  readonly text: string;
  readonly mode: number;
}

/**
 * Writes `files` all or none. First every path is checked (none may be a symbolic link, dangling or not, or anything
 * but a file, nor exist unless `overwrite`); then each text goes to a new file beside its path, created exclusively
 * with its mode (never readable by others, not even for an instant); only then does each take its name — linked when
 * the path must not exist (a file created meanwhile is never replaced), renamed over the old file when `overwrite`.
 * Readers see an old file or a new one, never a half. When a later file cannot take its name (something was put there
 * meanwhile), the files already renamed are put back as they were (the old ones were kept under another name).
 *
 * @throws FileExists, SymlinkRefused, NotAFile for a path found unfit (nothing written); CannotWrite naming the path and
 *   why the system refused (nothing written, no temporary file left)
 */
export async function writeFiles(files: readonly FileToWrite[], overwrite = false): Promise<void> {
  const existing: boolean[] = [];
  for (const f of files) existing.push(await checkTarget(f.path, overwrite));
  const leftovers: string[] = [];
  const kept = new Map<string, string>(); // path -> its old file's other name, until all are renamed
  const renamed: string[] = [];
  try {
    const temps: string[] = [];
    for (const f of files) temps.push(await writeTemp(f, leftovers));
    for (const [i, f] of files.entries()) {
      // The last file needs no copy of its old self: nothing after it can fail.
      if (existing[i] && i < files.length - 1) kept.set(f.path, await keepOld(f.path, leftovers));
      await takeName(temps[i] as string, f.path, overwrite);
      renamed.push(f.path);
    }
  } catch (err) {
    // Every step throws a FileWriteError naming its file; a file left unrestored is named too, with its old copy.
    const lost = await putBack(renamed, kept, leftovers);
    if (!lost.length) throw err;
    throw new FileWriteError((err as FileWriteError).path, `${(err as Error).message} But ${lost.join(', ')} could not be put back as it was.`);
  } finally {
    await Promise.all(leftovers.map((p) => unlink(p).catch(() => undefined))); // after rename a temporary name is gone already
  }
}

/** Keeps the old file at `path` under another name (a hard link, else a copy with its mode) and returns that name. */
async function keepOld(path: string, leftovers: string[]): Promise<string> {
  const old = besideName(path, 'old');
  try {
    await link(path, old).catch(() => copyFile(path, old, constants.COPYFILE_EXCL));
  } catch (err) {
    throw cannotWrite(path, err);
  }
  leftovers.push(old);
  return old;
}

async function takeName(temp: string, path: string, overwrite: boolean): Promise<void> {
  try {
    if (overwrite) await rename(temp, path);
    else await link(temp, path);
  } catch (err) {
    throw (err as NodeJS.ErrnoException).code === 'EEXIST' ? new FileExists(path) : cannotWrite(path, err);
  }
}

/**
 * Undoes the renames of `renamed`: each old file back under its name (its copy taken out of `leftovers` when that
 * fails, as it is the only one left), each new one removed. Returns what it could not undo.
 */
async function putBack(renamed: readonly string[], kept: ReadonlyMap<string, string>, leftovers: string[]): Promise<string[]> {
  const lost: string[] = [];
  for (const path of renamed) {
    const old = kept.get(path);
    try {
      if (old) await rename(old, path);
      else await unlink(path);
    } catch (err) {
      lost.push(`${path} (${(err as NodeJS.ErrnoException).code ?? 'error'}${old ? `; its old content is in ${old}` : ''})`);
      if (old) leftovers.splice(leftovers.indexOf(old), 1);
    }
  }
  return lost;
}

/**
 * Writes `text` to `path` with file mode `mode` ({@link writeFiles} with one file): atomically, never through a
 * symbolic link, created with `mode` from the start.
 *
 * @throws FileExists when `path` exists (a dangling link too) and not `overwrite`; SymlinkRefused; NotAFile; CannotWrite
 */
export async function writeNewFile(path: string, text: string, mode: number, overwrite = false): Promise<void> {
  await writeFiles([{ path, text, mode }], overwrite);
}
