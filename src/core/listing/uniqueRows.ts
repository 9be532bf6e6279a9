/**
 * Rows of a tree view with unique ids. VS Code refuses a second row with an id already shown in the view ("Element
 * with id … is already registered"), and the rows under it then fail to register, so every list a view shows passes
 * through here. No `vscode` import: the unit tests and the tree benchmark run it in plain Node.
 */

/**
 * `items` without repeats of an id, in the order each id was first seen. Of the items sharing an id, the latest read
 * wins: the last one (pages read in order), or the first one when `newestFirst` (a list newest first, such as the
 * request history), at the place the first one had.
 *
 * @param idOf the item's id.
 * @returns a new array; `items` is not changed. Linear in the number of items.
 */
export function uniqueById<T>(items: Iterable<T>, idOf: (item: T) => string, newestFirst = false): T[] {
  const at = new Map<string, number>();
  const out: T[] = [];
  for (const item of items) {
    const id = idOf(item);
    const i = at.get(id);
    if (i === undefined) at.set(id, out.push(item) - 1);
    else if (!newestFirst) out[i] = item;
  }
  return out;
}

/** A short stable key of a text (FNV-1a, 32 bits, hex): names a row that has no id of its own by its content. */
export function contentKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
