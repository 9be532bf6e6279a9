/** Helpers of the property tests that mutate one place of a valid payload. */

/** Every path to an object property or array item of a value, except properties named in `skip` (and below them). */
export function paths(v: unknown, skip: ReadonlySet<string> = new Set(), base: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  const children: [string | number, unknown][] = Array.isArray(v) ? Array.from(v, (x, i): [number, unknown] => [i, x]) : v !== null && typeof v === 'object' ? Object.entries(v) : [];
  for (const [k, x] of children) {
    if (typeof k === 'string' && skip.has(k)) continue;
    out.push([...base, k]);
    paths(x, skip, [...base, k], out);
  }
  return out;
}

/** Sets the value at `path` of `root` (deletes it for `undefined`). */
export function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let v = root as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) v = v[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete v[last];
  else v[last] = value;
}
