import { CHUNKS, FLAT, ITEM, SEPARATOR } from './skipPatterns';

/** Character codes the strict locator reads. */
export const enum Ch {
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
 * A position in text that `JSON.parse` accepted, and the moves of the strict locator (locate.ts) over it: white
 * space, strings, and whole values skipped without visiting each character in JavaScript. A container holding no
 * other container is crossed by one sticky regular expression ({@link FLAT}); any other by native `indexOf` hops
 * between the next quote, brace and bracket (JSON.parse has checked that they balance, so '{' and '[' are counted
 * alike), each searched again only once passed, its flat parts by {@link FLAT} again.
 */
export class JsonCursor {
  pos = 0;
  readonly len: number;
  // The next '"', '{', '[', '}', ']', '\' at or after the position each was last searched from.
  private quote = -1;
  private brace = -1;
  private bracket = -1;
  private closeBrace = -1;
  private closeBracket = -1;
  private backslash = -1;

  constructor(readonly text: string) {
    this.len = text.length;
  }

  at(): number {
    return this.text.charCodeAt(this.pos);
  }

  private next(ch: string, from: number): number {
    const i = this.text.indexOf(ch, from);
    return i < 0 ? this.len : i;
  }

  /** Whether [start, end) holds a backslash. */
  hasBackslash(start: number, end: number): boolean {
    if (this.backslash < start) this.backslash = this.next('\\', start);
    return this.backslash < end;
  }

  ws(): void {
    const { text, len } = this;
    while (this.pos < len) {
      const c = text.charCodeAt(this.pos);
      if (c === Ch.Space || c === Ch.Lf || c === Ch.Cr || c === Ch.Tab) this.pos++;
      else break;
    }
  }

  /** Steps over a comma and the white space after it, if there is one here. */
  comma(): void {
    if (this.at() === Ch.Comma) {
      this.pos++;
      this.ws();
    }
  }

  /** Moves `pos` from an opening quote to just after its closing quote. */
  skipString(): void {
    const text = this.text;
    let i = this.pos + 1;
    for (;;) {
      const q = text.indexOf('"', i);
      if (q < 0) {
        this.pos = this.len;
        return;
      }
      let b = q - 1;
      let n = 0;
      while (text.charCodeAt(b) === Ch.Backslash) {
        n++;
        b--;
      }
      if (n % 2 === 0) {
        this.pos = q + 1;
        return;
      }
      i = q + 1;
    }
  }

  readString(): string {
    const s = this.pos;
    this.skipString();
    const raw = this.text.slice(s + 1, this.pos - 1);
    return raw.includes('\\') ? (JSON.parse(this.text.slice(s, this.pos)) as string) : raw;
  }

  /** Moves `pos` over a container holding no other container at `at` ('{' or '['), if there is one there. */
  skipFlat(at: number): boolean {
    FLAT.lastIndex = at;
    try {
      if (!FLAT.test(this.text)) return false;
    } catch {
      return false; // the regular expression's backtracking stack ran out (a huge container): hop instead
    }
    this.pos = FLAT.lastIndex;
    return true;
  }

  /** Moves `pos` from a '{' or '[' to just after its matching close. */
  skipContainer(): void {
    if (this.skipFlat(this.pos)) return;
    let depth = 0;
    for (;;) {
      const pos = this.pos;
      if (this.quote < pos) this.quote = this.next('"', pos);
      if (this.brace < pos) this.brace = this.next('{', pos);
      if (this.bracket < pos) this.bracket = this.next('[', pos);
      if (this.closeBrace < pos) this.closeBrace = this.next('}', pos);
      if (this.closeBracket < pos) this.closeBracket = this.next(']', pos);
      const open = this.brace < this.bracket ? this.brace : this.bracket;
      const close = this.closeBrace < this.closeBracket ? this.closeBrace : this.closeBracket;
      if (close >= this.len) {
        this.pos = this.len;
        return;
      }
      if (this.quote < open && this.quote < close) {
        this.pos = this.quote;
        this.skipString();
      } else if (open < close) {
        if (!this.skipFlat(open)) {
          depth++;
          this.pos = open + 1;
        }
      } else {
        this.pos = close + 1;
        if (--depth === 0) return;
      }
    }
  }

  /** Moves `pos` over `n` items of an array and their commas, in chunks; the number crossed, or -1 when it could not. */
  skipItems(n: number): number {
    let done = 0;
    for (let size = CHUNKS.length - 1; size >= 0; size--) {
      const items = 1 << size;
      while (n - done >= items) {
        const re = (CHUNKS[size] ??= new RegExp(`(?:${ITEM.source}${SEPARATOR.source}){${items}}`, 'y'));
        re.lastIndex = this.pos;
        let ok: boolean;
        try {
          ok = re.test(this.text);
        } catch {
          ok = false; // backtracking stack exhausted: cross item by item
        }
        if (!ok) return done > 0 ? done : -1;
        this.pos = re.lastIndex;
        done += items;
      }
    }
    return done;
  }

  skipValue(): void {
    const c = this.at();
    if (c === Ch.Quote) return this.skipString();
    if (c === Ch.OpenBrace || c === Ch.OpenBracket) return this.skipContainer();
    const { text, len } = this;
    while (this.pos < len) {
      const d = text.charCodeAt(this.pos);
      if (d === Ch.Comma || d === Ch.CloseBrace || d === Ch.CloseBracket || d === Ch.Space || d === Ch.Lf || d === Ch.Cr || d === Ch.Tab) return;
      this.pos++;
    }
  }
}
