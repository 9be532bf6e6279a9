import { Ch, JsonCursor } from './jsonCursor';
import type { JsonPath } from './types';

/** Where a value sits in the text: the value's [start, end) and, for an object property, its key's. */
export interface Located {
  readonly start: number;
  readonly end: number;
  readonly keyStart?: number;
  readonly keyEnd?: number;
}

/** Finds the text ranges of the given JSON paths. Paths that do not exist are absent from the result. */
export type Locate = (paths: readonly JsonPath[]) => Map<string, Located>;

/** Stable map key of a path. */
export const pathKey = (path: JsonPath): string => JSON.stringify(path);

interface Trie {
  target: boolean;
  key: string;
  children: Map<string | number, Trie> | undefined;
}

function buildTrie(paths: readonly JsonPath[]): Trie {
  const root: Trie = { target: false, key: '[]', children: undefined };
  for (const path of paths) {
    let node = root;
    for (const seg of path) {
      node.children ??= new Map();
      let next = node.children.get(seg);
      if (!next) {
        next = { target: false, key: '', children: undefined };
        node.children.set(seg, next);
      }
      node = next;
    }
    node.target = true;
    node.key = pathKey(path);
  }
  return root;
}

/**
 * Locator for text that `JSON.parse` accepted (strict JSON: no comments, no trailing commas).
 * One pass over the text that materialises only the keys on the way to a requested path and skips every
 * other value ({@link JsonCursor}), never visiting each character in JavaScript. Cost: linear in the
 * text, about 1 ms per MB of pretty-printed records (node 20). For a duplicated key the last occurrence
 * wins, as in `JSON.parse`.
 */
export function strictLocator(text: string): Locate {
  return (paths) => {
    const out = new Map<string, Located>();
    if (paths.length === 0) return out;
    const scanner = new Scanner(new JsonCursor(text), out);
    scanner.cursor.ws();
    scanner.scan(buildTrie(paths));
    return out;
  };
}

/** One pass of {@link strictLocator}: walks the text along the trie of wanted paths, recording each it reaches. */
class Scanner {
  constructor(
    readonly cursor: JsonCursor,
    private readonly out: Map<string, Located>,
  ) {}

  scan(node: Trie | undefined, keyStart?: number, keyEnd?: number): void {
    const cur = this.cursor;
    const start = cur.pos;
    const c = cur.at();
    if (!node?.children) cur.skipValue();
    else if (c === Ch.OpenBrace) {
      if (!this.scanFlatRecord(node.children)) this.scanRecord(node.children);
    } else if (c === Ch.OpenBracket) this.scanArray(node.children);
    else cur.skipValue();
    if (node?.target) this.out.set(node.key, keyStart === undefined ? { start, end: cur.pos } : { start, end: cur.pos, keyStart, keyEnd });
  }

  private scanRecord(children: ReadonlyMap<string | number, Trie>): void {
    const cur = this.cursor;
    cur.pos++;
    cur.ws();
    while (cur.pos < cur.len && cur.at() !== Ch.CloseBrace) {
      const ks = cur.pos;
      const key = cur.readString();
      const ke = cur.pos;
      cur.ws();
      cur.pos++; // colon
      cur.ws();
      this.scan(children.get(key), ks, ke);
      cur.ws();
      cur.comma();
    }
    cur.pos++;
  }

  private scanArray(children: ReadonlyMap<string | number, Trie>): void {
    const cur = this.cursor;
    cur.pos++;
    cur.ws();
    let index = 0;
    const wanted = [...children.keys()].filter((k): k is number => typeof k === 'number').sort((a, b) => a - b);
    let w = 0;
    let chunks = true;
    while (cur.pos < cur.len && cur.at() !== Ch.CloseBracket) {
      while (w < wanted.length && wanted[w]! < index) w++;
      // The items before the next wanted one (all followed by a comma) are crossed in chunks; once an item is
      // not a flat container or a scalar, this array is crossed item by item.
      if (chunks && w < wanted.length && wanted[w]! - index >= 2) {
        const skipped = cur.skipItems(wanted[w]! - index);
        if (skipped < 0) chunks = false;
        else {
          index += skipped;
          continue;
        }
      }
      this.scan(children.get(index++));
      cur.ws();
      cur.comma();
    }
    cur.pos++;
  }

  /**
   * A record whose wanted properties are all scalars: when it holds no container and no backslash, each wanted
   * key is found from the record's end with `lastIndexOf` (the last occurrence wins, as in `JSON.parse`), and
   * the other properties are never read. Without a backslash every quote is a token's, so `"key"` followed by a
   * colon is that key. False (nothing moved) when the record does not qualify.
   */
  private scanFlatRecord(children: ReadonlyMap<string | number, Trie>): boolean {
    const cur = this.cursor;
    const start = cur.pos;
    for (const [key, child] of children) if (typeof key !== 'string' || child.children) return false;
    if (!cur.skipFlat(start)) return false;
    const end = cur.pos;
    if (cur.hasBackslash(start, end)) {
      cur.pos = start;
      return false;
    }
    for (const [key, child] of children) {
      const token = JSON.stringify(key);
      for (let at = cur.text.lastIndexOf(token, end - token.length); at > start; at = cur.text.lastIndexOf(token, at - 1)) {
        cur.pos = at + token.length;
        cur.ws();
        if (cur.at() !== Ch.Colon) continue; // a string value equal to the name
        cur.pos++;
        cur.ws();
        const valueStart = cur.pos;
        cur.skipValue();
        if (child.target) this.out.set(child.key, { start: valueStart, end: cur.pos, keyStart: at, keyEnd: at + token.length });
        break;
      }
    }
    cur.pos = end;
    return true;
  }
}
