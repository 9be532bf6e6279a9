import { existsSync, realpathSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, parse, relative, sep } from 'node:path';
import { SymlinkRefused, writeNewFile } from './writeFiles';

async function entryAt(path: string): Promise<import('node:fs').Stats | undefined> {
  try {
    return await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
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
