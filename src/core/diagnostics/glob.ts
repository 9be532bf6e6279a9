import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';

// The CommonJS entry on purpose: the bundles are CommonJS, and the ES module build of tinyglobby's fdir calls
// createRequire(import.meta.url), which is undefined there (dist/cli.js crashed at start). A require() makes
// esbuild pick the packages' "require" exports. Loaded on the first glob only: `tpp validate file.json` does not
// pay for it at start-up.
const tinyglobby = (): typeof import('tinyglobby') => require('tinyglobby') as typeof import('tinyglobby');

/**
 * Glob expansion for `tpp validate` (Node 20 has no fs.glob), by `tinyglobby` (picomatch syntax: `*`, `?`,
 * `**`, `{a,b}`, `[abc]`, `/`-separated). Directories named node_modules or starting with '.' are not
 * entered; symbolic links are followed, a link cycle ends the walk instead of looping, and a file
 * reached through several links is listed once.
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
  const matched = tinyglobby().globSync(rest, {
    cwd: resolve(cwd, base),
    onlyFiles: true,
    dot: false,
    expandDirectories: false,
    followSymbolicLinks: true,
    ignore: ['**/node_modules/**'],
  });
  const prefix = baseParts.length ? `${base.replace(/\/$/, '')}/` : '';
  // One path per file: a file reached again through a symbolic link (a cycle) keeps its first, shortest path.
  const root = resolve(cwd, base);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const rel of matched.sort((a, b) => a.length - b.length || (a < b ? -1 : 1))) {
    let real: string;
    try {
      real = realpathSync(resolve(root, rel));
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    out.push(`${prefix}${rel}`);
  }
  return out.sort();
}
