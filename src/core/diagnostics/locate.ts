import { CHUNKS, FLAT, ITEM, SEPARATOR } from './skipPatterns';
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

const enum Ch {
  Tab = 9,
  Lf = 10,
  Cr = 13,
  Space = 32,
  Quote = 34,
  Comma = 44,
  Colon = 58,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
}

/**
 * Locator for text that `JSON.parse` accepted (strict JSON: no comments, no trailing commas).
 * One pass over the text that materialises only the keys on the way to a requested path and skips every
 * other value, never visiting each character in JavaScript: a container holding no other container is
 * crossed by one sticky regular expression ({@link FLAT}); any other by native `indexOf` hops between the
 * next quote, brace and bracket (JSON.parse has checked that they balance, so '{' and '[' are counted
 * alike), each searched again only once passed, its flat parts by {@link FLAT} again. Cost: linear in the
 * text, about 1 ms per MB of pretty-printed records (node 20). For a duplicated key the last occurrence
 * wins, as in `JSON.parse`.
 */
export function strictLocator(text: string): Locate {
  return (paths) => {
    const out = new Map<string, Located>();
    if (paths.length === 0) return out;
    const trie = buildTrie(paths);
    const len = text.length;
    let pos = 0;
    const next = (ch: string, from: number): number => {
      const i = text.indexOf(ch, from);
      return i < 0 ? len : i;
    };
    // The next '"', '{', '[', '}', ']' at or after the position each was last searched from.
    let quote = -1;
    let brace = -1;
    let bracket = -1;
    let closeBrace = -1;
    let closeBracket = -1;
    let backslash = -1;

    const ws = () => {
      while (pos < len) {
        const c = text.charCodeAt(pos);
        if (c === Ch.Space || c === Ch.Lf || c === Ch.Cr || c === Ch.Tab) pos++;
        else break;
      }
    };
    /** Moves `pos` from an opening quote to just after its closing quote. */
    const skipString = () => {
      let i = pos + 1;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          pos = len;
          return;
        }
        let b = q - 1;
        let n = 0;
        while (text.charCodeAt(b) === Ch.Backslash) {
          n++;
          b--;
        }
        if (n % 2 === 0) {
          pos = q + 1;
          return;
        }
        i = q + 1;
      }
    };
    const readString = (): string => {
      const s = pos;
      skipString();
      const raw = text.slice(s + 1, pos - 1);
      return raw.includes('\\') ? (JSON.parse(text.slice(s, pos)) as string) : raw;
    };
    /** Moves `pos` over a container holding no other container at `at` ('{' or '['), if there is one there. */
    const skipFlat = (at: number): boolean => {
      FLAT.lastIndex = at;
      try {
        if (!FLAT.test(text)) return false;
      } catch {
        return false; // the regular expression's backtracking stack ran out (a huge container): hop instead
      }
      pos = FLAT.lastIndex;
      return true;
    };
    /** Moves `pos` from a '{' or '[' to just after its matching close. */
    const skipContainer = () => {
      if (skipFlat(pos)) return;
      let depth = 0;
      for (;;) {
        if (quote < pos) quote = next('"', pos);
        if (brace < pos) brace = next('{', pos);
        if (bracket < pos) bracket = next('[', pos);
        if (closeBrace < pos) closeBrace = next('}', pos);
        if (closeBracket < pos) closeBracket = next(']', pos);
        const open = brace < bracket ? brace : bracket;
        const close = closeBrace < closeBracket ? closeBrace : closeBracket;
        if (close >= len) {
          pos = len;
          return;
        }
        if (quote < open && quote < close) {
          pos = quote;
          skipString();
        } else if (open < close) {
          if (!skipFlat(open)) {
            depth++;
            pos = open + 1;
          }
        } else {
          pos = close + 1;
          if (--depth === 0) return;
        }
      }
    };
    /** Moves `pos` over `n` items of an array and their commas, in chunks; the number crossed, or -1 when it could not. */
    const skipItems = (n: number): number => {
      let done = 0;
      for (let size = CHUNKS.length - 1; size >= 0; size--) {
        const items = 1 << size;
        while (n - done >= items) {
          const re = (CHUNKS[size] ??= new RegExp(`(?:${ITEM.source}${SEPARATOR.source}){${items}}`, 'y'));
          re.lastIndex = pos;
          let ok: boolean;
          try {
            ok = re.test(text);
          } catch {
            ok = false; // backtracking stack exhausted: cross item by item
          }
          if (!ok) return done > 0 ? done : -1;
          pos = re.lastIndex;
          done += items;
        }
      }
      return done;
    };
    const skipValue = () => {
      const c = text.charCodeAt(pos);
      if (c === Ch.Quote) return skipString();
      if (c === Ch.OpenBrace || c === Ch.OpenBracket) return skipContainer();
      while (pos < len) {
        const d = text.charCodeAt(pos);
        if (d === Ch.Comma || d === Ch.CloseBrace || d === Ch.CloseBracket || d === Ch.Space || d === Ch.Lf || d === Ch.Cr || d === Ch.Tab) return;
        pos++;
      }
    };
    /**
     * A record whose wanted properties are all scalars: when it holds no container and no backslash, each wanted
     * key is found from the record's end with `lastIndexOf` (the last occurrence wins, as in `JSON.parse`), and
     * the other properties are never read. Without a backslash every quote is a token's, so `"key"` followed by a
     * colon is that key. False (nothing moved) when the record does not qualify.
     */
    const scanFlatRecord = (children: ReadonlyMap<string | number, Trie>): boolean => {
      const start = pos;
      for (const [key, child] of children) if (typeof key !== 'string' || child.children) return false;
      if (!skipFlat(start)) return false;
      const end = pos;
      if (backslash < start) backslash = next('\\', start);
      if (backslash < end) {
        pos = start;
        return false;
      }
      for (const [key, child] of children) {
        const token = JSON.stringify(key);
        for (let at = text.lastIndexOf(token, end - token.length); at > start; at = text.lastIndexOf(token, at - 1)) {
          pos = at + token.length;
          ws();
          if (text.charCodeAt(pos) !== Ch.Colon) continue; // a string value equal to the name
          pos++;
          ws();
          const valueStart = pos;
          skipValue();
          if (child.target) out.set(child.key, { start: valueStart, end: pos, keyStart: at, keyEnd: at + token.length });
          break;
        }
      }
      pos = end;
      return true;
    };
    const scan = (node: Trie | undefined, keyStart?: number, keyEnd?: number): void => {
      const start = pos;
      const c = text.charCodeAt(pos);
      if (!node?.children) skipValue();
      else if (c === Ch.OpenBrace) {
        if (!scanFlatRecord(node.children)) {
          pos++;
          ws();
          while (pos < len && text.charCodeAt(pos) !== Ch.CloseBrace) {
            const ks = pos;
            const key = readString();
            const ke = pos;
            ws();
            pos++; // colon
            ws();
            scan(node.children.get(key), ks, ke);
            ws();
            if (text.charCodeAt(pos) === Ch.Comma) {
              pos++;
              ws();
            }
          }
          pos++;
        }
      } else if (c === Ch.OpenBracket) {
        pos++;
        ws();
        let index = 0;
        const wanted = [...node.children.keys()].filter((k): k is number => typeof k === 'number').sort((a, b) => a - b);
        let w = 0;
        let chunks = true;
        while (pos < len && text.charCodeAt(pos) !== Ch.CloseBracket) {
          while (w < wanted.length && wanted[w]! < index) w++;
          // The items before the next wanted one (all followed by a comma) are crossed in chunks; once an item is
          // not a flat container or a scalar, this array is crossed item by item.
          if (chunks && w < wanted.length && wanted[w]! - index >= 2) {
            const skipped = skipItems(wanted[w]! - index);
            if (skipped < 0) chunks = false;
            else {
              index += skipped;
              continue;
            }
          }
          scan(node.children.get(index++));
          ws();
          if (text.charCodeAt(pos) === Ch.Comma) {
            pos++;
            ws();
          }
        }
        pos++;
      } else skipValue();
      if (node?.target) out.set(node.key, keyStart === undefined ? { start, end: pos } : { start, end: pos, keyStart, keyEnd });
    };
    ws();
    scan(trie);
    return out;
  };
}
