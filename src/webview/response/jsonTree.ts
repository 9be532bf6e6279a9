/**
 * A JSON value as a foldable tree for the response view: objects and arrays are `<details>` elements (open, a
 * preview such as `{ 3 keys }` when folded), values are spans coloured by type. Every text is set with
 * `textContent`: nothing of the value is ever parsed as HTML.
 */

/** Larger values are shown as plain text (a tree of them would slow the page down). */
export const MAX_TREE_NODES = 20_000;

function span(cls: string, text: string): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  return s;
}

function countNodes(v: unknown, limit: number): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length && n <= limit) {
    const x = stack.pop();
    n++;
    if (x && typeof x === 'object') stack.push(...(Array.isArray(x) ? x : Object.values(x)));
  }
  return n;
}

/** The tree of `value`; `foldable` counts the collapsible nodes. Undefined when the value is too large for a tree. */
export function jsonTree(value: unknown): { el: HTMLElement; foldable: number } | undefined {
  if (countNodes(value, MAX_TREE_NODES) > MAX_TREE_NODES) return undefined;
  let foldable = 0;
  const node = (v: unknown, key: string | undefined, last: boolean): HTMLElement => {
    const line = document.createElement('div');
    line.className = 'json-line';
    const keyEl = key !== undefined ? span('json-key', `${JSON.stringify(key)}: `) : undefined;
    const comma = last ? '' : ',';
    if (v === null || typeof v !== 'object') {
      if (keyEl) line.append(keyEl);
      const cls = v === null ? 'json-null' : typeof v === 'string' ? 'json-string' : typeof v === 'number' ? 'json-number' : 'json-boolean';
      line.append(span(cls, JSON.stringify(v) ?? String(v)), comma);
      return line;
    }
    const isArray = Array.isArray(v);
    const entries: [string | undefined, unknown][] = isArray ? v.map((x) => [undefined, x]) : Object.entries(v as Record<string, unknown>);
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      if (keyEl) line.append(keyEl);
      line.append(span('json-punct', open + close), comma);
      return line;
    }
    foldable++;
    const details = document.createElement('details');
    details.open = !(isArray && entries.length > 50);
    const summary = document.createElement('summary');
    if (keyEl) summary.append(keyEl);
    summary.append(span('json-punct', open));
    const n = entries.length;
    summary.append(span('json-preview', ` ${n} ${isArray ? (n === 1 ? 'item' : 'items') : n === 1 ? 'key' : 'keys'} ${close}${comma}`));
    const children = document.createElement('div');
    children.className = 'json-children';
    entries.forEach(([k, x], i) => children.append(node(x, k, i === entries.length - 1)));
    const end = document.createElement('div');
    end.className = 'json-line';
    end.append(span('json-punct', close), comma);
    details.append(summary, children, end);
    line.append(details);
    return line;
  };
  const el = document.createElement('div');
  el.className = 'json-tree';
  el.append(node(value, undefined, true));
  return { el, foldable };
}
