/** JSON paths into a payload: reading a value at a path, and a path's display name. */

/** A JSON path: property names and array indexes from the document root. */
export type JsonPath = readonly (string | number)[];

/** Value at `path`, and whether the last segment exists in its parent. */
export function lookup(root: unknown, path: readonly PropertyKey[]): { exists: boolean; value: unknown } {
  let v: unknown = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, seg as string)) return { exists: false, value: undefined };
    v = (v as Record<string, unknown>)[seg as string];
  }
  return { exists: true, value: v };
}

/** Display name of the property at `path`: its key, or `Parent[3]` for an array item. */
export function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(document)';
  const last = path[path.length - 1]!;
  if (typeof last === 'number') return `${fieldName(path.slice(0, -1))}[${last}]`;
  return String(last);
}
