import { resolve, sep } from 'node:path';
import { globSync } from 'tinyglobby';

/**
 * Glob expansion for `tpp validate` (Node 20 has no fs.glob), by `tinyglobby` (picomatch syntax: `*`, `?`,
 * `**`, `{a,b}`, `[abc]`, `/`-separated). Directories named node_modules or starting with '.' are not
 * entered; symbolic links are followed, and a link cycle ends the walk instead of looping (issue 14).
 */

/** True when `pattern` contains glob syntax. */
export const isGlob = (pattern: string): boolean => /[*?[{]/.test(pattern);

/**
 * Files (not directories) matching `pattern`, relative to `cwd` as written by the user (a pattern starting
 * with `dir/` gives `dir/...` paths; an absolute pattern gives absolute paths), sorted. Never throws for an
 * unreadable or missing directory (it matches nothing).
 */
export function expandGlob(pattern: string, cwd: string): string[] {
  const norm = pattern.split(sep).join('/');
  const parts = norm.split('/');
  const firstGlob = parts.findIndex((p) => isGlob(p));
  if (firstGlob < 0) return [];
  const baseParts = parts.slice(0, firstGlob);
  const base = baseParts.join('/') || (norm.startsWith('/') ? '/' : '.');
  const rest = parts.slice(firstGlob).join('/');
  const matched = globSync(rest, {
    cwd: resolve(cwd, base),
    onlyFiles: true,
    dot: false,
    expandDirectories: false,
    followSymbolicLinks: true,
    ignore: ['**/node_modules/**'],
  });
  const prefix = baseParts.length ? `${base.replace(/\/$/, '')}/` : '';
  return matched.map((rel) => `${prefix}${rel}`).sort();
}
