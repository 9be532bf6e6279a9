/**
 * The request history on disk as JSON Lines (one masked entry per line, appended per request) with rotation:
 * `history.jsonl` takes new entries; when it holds `limit` of them it becomes `history.1.jsonl` (replacing the
 * previous one) and a new file starts. Reading both gives the newest `limit` entries, so a write never rewrites
 * the list (Developers' guide: Secrets — every entry is masked by {@link HistoryStore} before it is written).
 *
 * No editor here: the extension gives the directory (its global storage) and a CLI could give another.
 */
import { RotatingJsonLines } from '../log/jsonLines';
import { HISTORY_LIMIT, HistoryEntry, HistoryStore, NewHistoryEntry } from './history';

/** The file that takes new entries. */
export const CURRENT_FILE = 'history.jsonl';
/** The rotated file: the `limit` entries before those of {@link CURRENT_FILE}. */
export const ROTATED_FILE = 'history.1.jsonl';

/**
 * The history kept in memory (newest `limit` entries) and appended to disk one line per entry.
 *
 * @example
 *   const log = HistoryLog.open(join(globalStorage, 'history'));
 *   log.append({ env: 'local', time, method: 'GET', path, url, status: 200, durationMs: 12, attempts: 1 });
 *   await log.flushed();
 */
export class HistoryLog {
  private constructor(
    private readonly file: RotatingJsonLines,
    private readonly store: HistoryStore,
  ) {}

  /**
   * Reads the history of `dir` (creating the directory). Never throws on damaged content: unreadable lines and
   * entries are skipped, every string is masked again.
   * @param limit entries kept and rotated at (default {@link HISTORY_LIMIT}); a positive integer.
   * @throws RangeError for a bad limit; the file system's error when `dir` cannot be created.
   */
  static open(dir: string, limit = HISTORY_LIMIT): HistoryLog {
    const { log, values } = RotatingJsonLines.open(dir, { current: CURRENT_FILE, rotated: ROTATED_FILE }, limit);
    return new HistoryLog(log, HistoryStore.fromJSON({ entries: values.reverse() }, limit));
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
    this.file.append([stored]);
    return stored;
  }

  /** Removes all entries (or those of `env`) from memory and disk: the one write that rewrites the files. */
  clear(env?: string): void {
    this.store.clear(env);
    this.file.replace([...this.store.list()].reverse());
  }

  /** Resolves when every queued write is on disk; rejects with the first write error since the last call. */
  flushed(): Promise<void> {
    return this.file.flushed();
  }
}
