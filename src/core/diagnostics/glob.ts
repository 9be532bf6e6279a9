import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Minimal glob expansion for `tpp validate` (Node 20 has no fs.glob): `*`, `?`, `**`, `{a,b}` and
 * `[abc]`, `/`-separated. Directories named node_modules or starting with '.' are not entered by `**`.
 */

/** True when `pattern` contains glob syntax. */
export const isGlob = (pattern: string): boolean => /[*?[{]/.test(pattern);

/** Regular expression matching a `/`-separated relative path against `glob`. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:[^/]*/)*' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob.slice(i + 1, end).split(',').map((p) => p.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('|')})`;
        i = end;
      }
    } else if (c === '[') {
      const end = glob.indexOf(']', i);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, end).replace(/^!/, '^')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Files (not directories) matching `pattern`, relative to `cwd` as written by the user, sorted. */
export function expandGlob(pattern: string, cwd: string): string[] {
  const norm = pattern.split(sep).join('/');
  const parts = norm.split('/');
  const firstGlob = parts.findIndex((p) => isGlob(p));
  const baseParts = parts.slice(0, firstGlob);
  const base = baseParts.join('/') || (norm.startsWith('/') ? '/' : '.');
  const rest = parts.slice(firstGlob).join('/');
  const re = globToRegExp(rest);
  const root = join(cwd, base);
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const full = join(dir, name);
      let st;
      try {
        st = statSync(full);
      } catch {
        continue;
      }
      const rel = relative(root, full).split(sep).join('/');
      if (st.isDirectory()) {
        if (name === 'node_modules' || name.startsWith('.')) continue;
        walk(full);
      } else if (re.test(rel)) out.push(baseParts.length ? `${base.replace(/\/$/, '')}/${rel}` : rel);
    }
  };
  walk(root);
  return out.sort();
}
