/**
 * A compact table from a row's key (docs/backfills.md, Rows are known by their key) to what the journal says of it: a
 * byte of state, a byte of flags and 32 bits of the hash of its values per key, keyed by 64 bits of the key's sha256,
 * in typed arrays with open addressing. About 15 to 30 bytes a key, so resuming a journal of a million rows needs
 * some 30 MB at most, and no string is kept per row.
 */
import { createHash } from 'node:crypto';

/** 64 bits of sha256 of `text`, as two 32-bit halves, never both 0 (0/0 marks an empty slot). */
export function key64(text: string): [number, number] {
  const d = createHash('sha256').update(text).digest();
  const lo = d.readUInt32LE(0);
  const hi = d.readUInt32LE(4);
  return lo === 0 && hi === 0 ? [1, 0] : [lo, hi];
}

/** The first 32 bits of a hex hash. */
export const hash32 = (hash: string): number => Number.parseInt(hash.slice(0, 8), 16) >>> 0;

/** One slot's contents. */
export interface Slot {
  readonly code: number;
  readonly flags: number;
  readonly hash: number;
}

/** An open-addressing table of 64-bit keys to (code, flags, hash32); grown by doubling at half full. */
export class KeyTable {
  private lo = new Uint32Array(1024);
  private hi = new Uint32Array(1024);
  private codes = new Uint8Array(1024);
  private flagBits = new Uint8Array(1024);
  private hashes = new Uint32Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  private find(lo: number, hi: number): number {
    const mask = this.lo.length - 1;
    for (let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      if ((this.lo[i] === lo && this.hi[i] === hi) || (this.lo[i] === 0 && this.hi[i] === 0)) return i;
    }
  }

  private grow(): void {
    const old = { lo: this.lo, hi: this.hi, codes: this.codes, flags: this.flagBits, hashes: this.hashes };
    const n = old.lo.length * 2;
    this.lo = new Uint32Array(n);
    this.hi = new Uint32Array(n);
    this.codes = new Uint8Array(n);
    this.flagBits = new Uint8Array(n);
    this.hashes = new Uint32Array(n);
    for (let i = 0; i < old.lo.length; i++) {
      if (old.lo[i] === 0 && old.hi[i] === 0) continue;
      const j = this.find(old.lo[i] as number, old.hi[i] as number);
      this.lo[j] = old.lo[i] as number;
      this.hi[j] = old.hi[i] as number;
      this.codes[j] = old.codes[i] as number;
      this.flagBits[j] = old.flags[i] as number;
      this.hashes[j] = old.hashes[i] as number;
    }
  }

  get([lo, hi]: readonly [number, number]): Slot | undefined {
    const i = this.find(lo, hi);
    if (this.lo[i] === 0 && this.hi[i] === 0) return undefined;
    return { code: this.codes[i] as number, flags: this.flagBits[i] as number, hash: this.hashes[i] as number };
  }

  /** Sets the slot of `key`; `flags` are added to those it has. */
  set([lo, hi]: readonly [number, number], code: number, flags: number, hash: number): void {
    if ((this.count + 1) * 2 > this.lo.length) this.grow();
    const i = this.find(lo, hi);
    if (this.lo[i] === 0 && this.hi[i] === 0) {
      this.count++;
      this.lo[i] = lo;
      this.hi[i] = hi;
    }
    this.codes[i] = code;
    this.flagBits[i] = (this.flagBits[i] as number) | flags;
    this.hashes[i] = hash;
  }

  /** Adds `flags` to the slot of `key` (which must be set). */
  flag([lo, hi]: readonly [number, number], flags: number): void {
    const i = this.find(lo, hi);
    this.flagBits[i] = (this.flagBits[i] as number) | flags;
  }
}

/** A set of row numbers (1-based), a bit each, grown by doubling. */
export class RowSet {
  private bits = new Uint8Array(128);

  add(row: number): void {
    if (!Number.isSafeInteger(row) || row < 1) throw new RangeError(`row ${row} is not a row number`);
    let n = this.bits.length;
    while (n * 8 <= row) n *= 2;
    if (n !== this.bits.length) {
      const grown = new Uint8Array(n);
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[row >> 3] = (this.bits[row >> 3] as number) | (1 << (row & 7));
  }

  has(row: number): boolean {
    return row >= 0 && row < this.bits.length * 8 && ((this.bits[row >> 3] as number) & (1 << (row & 7))) !== 0;
  }
}
