import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { dirname, join, parse, relative, sep } from 'node:path';

/** Thrown when a file to be written exists and the caller did not allow overwriting it (message names the file). */
export class FileExists extends Error {
  override readonly name = 'FileExists';
  constructor(readonly path: string) {
    super(`${path} already exists: nothing was overwritten.`);
  }
}

/**
 * Writes `text` to `path` with file mode `mode` (0o600 for a private key, readable by its owner only). Refuses an
 * existing file with {@link FileExists} unless `overwrite`; an overwritten file gets `mode` too (a file keeps its old
 * mode otherwise). Other errors (missing folder, no permission) reject with Node's error.
 */
export async function writeNewFile(path: string, text: string, mode: number, overwrite = false): Promise<void> {
  try {
    await writeFile(path, text, { mode, flag: overwrite ? 'w' : 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new FileExists(path);
    throw err;
  }
  if (overwrite && process.platform !== 'win32') await chmod(path, mode);
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
