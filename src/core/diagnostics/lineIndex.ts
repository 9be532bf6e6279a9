import type { Position } from './types';

/**
 * Offset -> line/character conversion for one text. The line-start table is built on first use only,
 * so a document without problems never pays for it (cost O(n) once, then O(log lines) per lookup).
 */
export class LineIndex {
  private starts: number[] | undefined;

  constructor(private readonly text: string) {}

  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    const text = this.text;
    if (!text.includes('\r')) {
      // LF only (the common case): indexOf is several times faster than a character loop.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
      return starts;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
    return starts;
  }

  /** 0-based line and character of `offset` (clamped to the text). */
  positionAt(offset: number): Position {
    const starts = this.lineStarts();
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - starts[lo]! };
  }

  /** Offset of a 0-based line/character (clamped). */
  offsetAt(pos: Position): number {
    const starts = this.lineStarts();
    const line = Math.max(0, Math.min(pos.line, starts.length - 1));
    return Math.min(starts[line]! + Math.max(0, pos.character), this.text.length);
  }
}
