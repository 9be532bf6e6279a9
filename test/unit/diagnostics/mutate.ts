/** Helpers of the property tests that mutate one place of a valid payload. */
import * as fc from 'fast-check';

/** Values likely to sit on a rule's edge: lengths around 25/50/200, money decimals, dates, digits. */
export const edgy = fc.oneof(
  fc.constantFrom(undefined, null, '', ' ', 'x', 'REPLACE', 'replace', 'Yes', 'yes', '2024-02-29', '2023-02-29', '2024-03-15T14:30:00Z', '2024-03-15T14:30:00', '12.5', '12.50', '12.555', '-1', '4', '4.0', 'a@b.co', 'a@b', '2021', '21', true, false, 0, 4, -3, 1.5, 12.5, 12.555, 0.1 + 0.2, 2021, 1e21, [], {}, [{}]),
  fc.string({ maxLength: 30 }),
  fc.integer({ min: 20, max: 210 }).map((n) => 'x'.repeat(n)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

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

/**
 * Sets a copy of `value` at `path` of `root` (deletes it for `undefined`). A copy: `edgy`'s `{}` and `[{}]` are one
 * object each for every run, so setting them as they are let a later edit add that object into itself (a cycle) and
 * carried one run's edits into the next.
 */
export function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let v = root as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) v = v[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete v[last];
  else v[last] = value !== null && typeof value === 'object' ? structuredClone(value) : value;
}
