import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { link, lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, isAbsolute, join, parse, relative, sep } from 'node:path';

/** Thrown when a file to be written exists and the caller did not allow overwriting it (message names the file). */
export class FileExists extends Error {
  override readonly name = 'FileExists';
  constructor(readonly path: string) {
    super(`${path} already exists: nothing was overwritten.`);
  }
}

/** Thrown when a file to be written is a symbolic link: writing through it would put a key wherever the link points. */
export class SymlinkRefused extends Error {
  override readonly name = 'SymlinkRefused';
  constructor(readonly path: string) {
    super(`${path} is a symbolic link: nothing was written through it (remove the link or choose another path).`);
  }
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

async function entryAt(path: string): Promise<import('node:fs').Stats | undefined> {
  try {
    return await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes `text` to `path` with file mode `mode` (0o600 for a private key, readable by its owner only), atomically: the
 * text goes to a new file beside it, created exclusively with `mode` (never readable by others, not even for an
 * instant), which then takes the name `path` — linked when `path` must not exist (so a file created meanwhile is never
 * replaced), renamed over it when `overwrite`. Readers see the old file or the new one, never a half.
 *
 * @throws FileExists when `path` exists (a dangling link too) and not `overwrite`; SymlinkRefused when `path` is a
 *   symbolic link; Node's error for a missing folder or no permission (nothing is left behind).
 */
export async function writeNewFile(path: string, text: string, mode: number, overwrite = false): Promise<void> {
  const existing = await entryAt(path);
  if (existing?.isSymbolicLink()) throw new SymlinkRefused(path);
  if (existing && !overwrite) throw new FileExists(path);
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(temp, 'wx', mode);
  try {
    try {
      await file.writeFile(text);
      if (process.platform !== 'win32') await file.chmod(mode); // the umask may have taken bits `mode` asked for
      await file.sync();
    } finally {
      await file.close();
    }
    if (overwrite) await rename(temp, path);
    else await link(temp, path).catch((err: NodeJS.ErrnoException) => Promise.reject(err.code === 'EEXIST' ? new FileExists(path) : err));
  } finally {
    await unlink(temp).catch(() => undefined); // after link (or a failure); after rename it is gone already
  }
}

/**
 * Appends `addition` to the text file `path` (created with mode 0o644 when absent), by writing the whole new text
 * atomically ({@link writeNewFile}) with the file's own mode. Refuses a symbolic link (SymlinkRefused).
 */
export async function appendToFile(path: string, addition: string): Promise<void> {
  const existing = await entryAt(path);
  if (existing?.isSymbolicLink()) throw new SymlinkRefused(path);
  const current = existing ? await readFile(path, 'utf8') : '';
  await writeNewFile(path, current + addition, existing ? existing.mode & 0o777 : 0o644, true);
}

/** `path` with the symbolic links of its longest existing ancestor resolved (the rest as written). Bounded by the path depth. */
function realPathOf(path: string): string {
  const rest: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    try {
      return join(realpathSync(p), ...rest.reverse());
    } catch {
      if (dirname(p) === p) return path;
      rest.push(basename(p));
    }
  }
}

/**
 * Whether `file` (an absolute path) is inside `root` once symbolic links in both are resolved: a workspace folder
 * holding a link to elsewhere must not take a key through it.
 */
export function insideRealPath(file: string, root: string): boolean {
  const rel = relative(realPathOf(root), realPathOf(file));
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The folder of the git repository holding `dir` (a `.git` entry in it or above), or undefined. Bounded by the path depth. */
export function gitRootOf(dir: string): string | undefined {
  const { root } = parse(dir);
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (d === root || dirname(d) === d) return undefined;
  }
}

/**
 * The text to append to a `.gitignore` (whose current text is `current`, '' when absent) so that it ignores `files`
 * (paths relative to the repository root, `/`-separated); undefined when every one is ignored by an identical line.
 */
export function gitignoreAddition(current: string, files: readonly string[]): string | undefined {
  const have = new Set(current.split(/\r?\n/).map((l) => l.trim()));
  const missing = files.map((f) => `/${f.split(sep).join('/')}`).filter((f) => !have.has(f) && !have.has(f.slice(1)));
  if (!missing.length) return undefined;
  const lead = current === '' || current.endsWith('\n') ? '' : '\n';
  return `${lead}# Tire Protection: the application's connection settings and its private key (never commit a key)\n${missing.join('\n')}\n`;
}

/** `file` relative to the repository `root`, `/`-separated. */
export function repoRelative(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}
