import * as fs from 'node:fs';
import { join } from 'node:path';

/** Values of one JSON Lines file, oldest first; a missing file is empty, lines that are not JSON (a write cut short) are skipped. */
function readLines(file: string): unknown[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as unknown);
    } catch {
      // skip a damaged line
    }
  }
  return out;
}

/**
 * An append-only JSON Lines log with one rotation, shared by the request history and the Integration Log: the
 * current file takes new lines; when it holds `limit` of them it becomes the rotated file (replacing the previous
 * one) and a new current file starts, so a write never rewrites the list and reading both gives at least the newest
 * `limit` values. Writes are queued in order (mode 0600); {@link flushed} reports the first failure. Callers mask
 * what they append.
 */
export class RotatingJsonLines {
  private writes: Promise<void> = Promise.resolve();
  private failure: unknown;

  private constructor(
    private readonly dir: string,
    private readonly currentFile: string,
    private readonly rotatedFile: string,
    readonly limit: number,
    /** Lines in the current file. */
    private currentLines: number,
  ) {}

  /**
   * Opens the log of `dir` (creating the directory).
   * @returns the log and the values read from the rotated then the current file, oldest first.
   * @throws the file system's error when `dir` cannot be created.
   */
  static open(dir: string, files: { readonly current: string; readonly rotated: string }, limit: number): { log: RotatingJsonLines; values: unknown[] } {
    fs.mkdirSync(dir, { recursive: true });
    const current = readLines(join(dir, files.current));
    const values = [...readLines(join(dir, files.rotated)), ...current];
    return { log: new RotatingJsonLines(dir, files.current, files.rotated, limit, current.length), values };
  }

  /** Appends one line per value, rotating each time the current file reaches the limit. */
  append(values: readonly unknown[]): void {
    const batches: { text: string; rotate: boolean }[] = [];
    let text = '';
    for (const v of values) {
      text += `${JSON.stringify(v)}\n`;
      if (++this.currentLines >= this.limit) {
        batches.push({ text, rotate: true });
        text = '';
        this.currentLines = 0;
      }
    }
    if (text) batches.push({ text, rotate: false });
    const current = join(this.dir, this.currentFile);
    this.queue(async () => {
      for (const b of batches) {
        await fs.promises.appendFile(current, b.text, { encoding: 'utf8', mode: 0o600 });
        if (b.rotate) await fs.promises.rename(current, join(this.dir, this.rotatedFile));
      }
    });
  }

  /** Replaces the whole log by `values` (none: both files removed): the one write that rewrites the files. */
  replace(values: readonly unknown[]): void {
    this.currentLines = values.length;
    const text = values.map((v) => `${JSON.stringify(v)}\n`).join('');
    const current = join(this.dir, this.currentFile);
    this.queue(async () => {
      if (text) await fs.promises.writeFile(current, text, { encoding: 'utf8', mode: 0o600 });
      else await fs.promises.rm(current, { force: true });
      await fs.promises.rm(join(this.dir, this.rotatedFile), { force: true });
    });
  }

  /** Resolves when every queued write is on disk; rejects with the first write error since the last call. */
  async flushed(): Promise<void> {
    await this.writes;
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
  }

  private queue(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch((err: unknown) => {
      this.failure ??= err;
    });
  }
}
