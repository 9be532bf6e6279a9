/**
 * The request history on disk as JSON Lines (one masked entry per line, appended per request) with rotation:
 * `history.jsonl` takes new entries; when it holds `limit` of them it becomes `history.1.jsonl` (replacing the
 * previous one) and a new file starts. Reading both gives the newest `limit` entries, so a write never rewrites
 * the list (Developers' guide: Secrets — every entry is masked by {@link HistoryStore} before it is written).
 *
 * No editor here: the extension gives the directory (its global storage) and a CLI could give another.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { HISTORY_LIMIT, HistoryEntry, HistoryStore, NewHistoryEntry } from './history';

/** The file that takes new entries. */
export const CURRENT_FILE = 'history.jsonl';
/** The rotated file: the `limit` entries before those of {@link CURRENT_FILE}. */
export const ROTATED_FILE = 'history.1.jsonl';

/** Entries of one JSON Lines file, oldest first; lines that are not JSON (a write cut short) are skipped. */
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
 * The history kept in memory (newest `limit` entries) and appended to disk one line per entry.
 *
 * @example
 *   const log = HistoryLog.open(join(globalStorage, 'history'));
 *   log.append({ env: 'local', time, method: 'GET', path, url, status: 200, durationMs: 12, attempts: 1 });
 *   await log.flushed();
 */
export class HistoryLog {
  private writes: Promise<void> = Promise.resolve();
  private failure: unknown;

  private constructor(
    private readonly dir: string,
    private readonly store: HistoryStore,
    /** Entries in {@link CURRENT_FILE}. */
    private currentLines: number,
  ) {}

  /**
   * Reads the history of `dir` (creating the directory). Never throws on damaged content: unreadable lines and
   * entries are skipped, every string is masked again.
   * @param limit entries kept and rotated at (default {@link HISTORY_LIMIT}); a positive integer.
   * @throws RangeError for a bad limit; the file system's error when `dir` cannot be created.
   */
  static open(dir: string, limit = HISTORY_LIMIT): HistoryLog {
    fs.mkdirSync(dir, { recursive: true });
    const current = readLines(join(dir, CURRENT_FILE));
    const all = [...readLines(join(dir, ROTATED_FILE)), ...current];
    const store = HistoryStore.fromJSON({ entries: all.reverse() }, limit);
    return new HistoryLog(dir, store, current.length);
  }

  /** Entries newest first; with `env`, only that environment's. */
  list(env?: string): readonly HistoryEntry[] {
    return this.store.list(env);
  }

  get(id: string): HistoryEntry | undefined {
    return this.store.get(id);
  }

  /**
   * Records a request: masked, kept in memory at once, and appended to disk as one line (rotating when the
   * current file is full). Writes are queued in order; see {@link flushed}.
   * @returns the stored (masked) entry. Throws TypeError when a required field is missing.
   */
  append(entry: NewHistoryEntry): HistoryEntry {
    const stored = this.store.add(entry);
    const line = JSON.stringify(stored) + '\n';
    const rotate = ++this.currentLines >= this.store.limit;
    if (rotate) this.currentLines = 0;
    this.queue(async () => {
      await fs.promises.appendFile(join(this.dir, CURRENT_FILE), line, { encoding: 'utf8', mode: 0o600 });
      if (rotate) await fs.promises.rename(join(this.dir, CURRENT_FILE), join(this.dir, ROTATED_FILE));
    });
    return stored;
  }

  /** Removes all entries (or those of `env`) from memory and disk: the one write that rewrites the files. */
  clear(env?: string): void {
    this.store.clear(env);
    const kept = [...this.store.list()].reverse();
    this.currentLines = kept.length;
    const text = kept.map((e) => JSON.stringify(e) + '\n').join('');
    this.queue(async () => {
      await fs.promises.writeFile(join(this.dir, CURRENT_FILE), text, { encoding: 'utf8', mode: 0o600 });
      await fs.promises.rm(join(this.dir, ROTATED_FILE), { force: true });
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
