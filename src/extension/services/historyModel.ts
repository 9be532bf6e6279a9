import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { HistoryEntry, HistoryStore, NewHistoryEntry } from '../../core/history/history';
import { HistoryLog } from '../../core/history/historyLog';
import { maskSecrets } from '../../core/log/mask';
import { Logger } from '../log';

/** globalState key where earlier versions kept the whole history; moved to the JSON Lines file once, then removed. */
export const HISTORY_STATE_KEY = 'tpp.requestHistory';

/** What the latest request of an environment says about its connection (the tree's "Connection" row). */
export type ConnectionState =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'answering' | 'unauthorized' | 'server-error'; readonly status: number; readonly time: string }
  | { readonly kind: 'unreachable'; readonly error: string; readonly time: string };

/**
 * The request history (newest first, every environment, tokens masked) and the connection state derived from it.
 * Kept by core's {@link HistoryLog}: one JSON Lines line appended per request under the extension's global storage,
 * rotated at 200 entries. {@link onDidChange} fires with the environment whose history changed, so the view redraws
 * that environment's "Request history" and "Connection" rows only.
 */
export class HistoryModel implements vscode.Disposable {
  // Opened on first use: HistoryLog lives in dist/core.js, which activation does not load.
  private store: HistoryLog | undefined;
  private readonly emitter = new vscode.EventEmitter<EnvironmentId>();
  /**
   * The latest request kept out of the history, per environment: the tree's own reads, and (`other`) answers the
   * environment gave other clients. Connection state only.
   */
  private readonly quietSeen = new Map<EnvironmentId, { status?: number; error?: string; time: string; other?: true }>();
  /** A redraw of an environment's Connection row that waits, so that a burst of answers redraws it once a second. */
  private readonly pendingFire = new Map<EnvironmentId, ReturnType<typeof setTimeout>>();
  /** Fires with the environment after an entry was recorded or its history cleared. */
  readonly onDidChange = this.emitter.event;

  /**
   * @param state where an earlier version kept the history (moved into the file on first use).
   * @param dir directory of the history files, e.g. `<globalStorage>/history`.
   */
  constructor(
    private readonly state: vscode.Memento,
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  private get entries(): HistoryLog {
    if (!this.store) {
      this.store = HistoryLog.open(this.dir);
      const legacy = this.state.get<unknown>(HISTORY_STATE_KEY);
      if (legacy !== undefined) {
        if (this.store.list().length === 0) for (const e of [...HistoryStore.fromJSON(legacy).list()].reverse()) this.store.append(e);
        void this.state.update(HISTORY_STATE_KEY, undefined);
        this.written();
      }
    }
    return this.store;
  }

  /** Logs a failed write of the history file (the entry stays in memory). */
  private written(): void {
    this.store?.flushed().catch((err: unknown) => this.log.error('The request history could not be written', err));
  }

  /** Resolves when the history is on disk (tests). */
  flushed(): Promise<void> {
    return this.store ? this.store.flushed() : Promise.resolve();
  }

  /** The history, newest first (optionally one environment's). */
  list(env?: EnvironmentId): readonly HistoryEntry[] {
    return this.entries.list(env);
  }

  /** The entry with `id`, if still kept. */
  get(id: string): HistoryEntry | undefined {
    return this.entries.get(id);
  }

  /** The connection state of `env` from its latest request (recorded, or one of the tree's own reads). */
  connection(env: EnvironmentId): ConnectionState {
    const recorded = this.entries.list(env)[0];
    const quiet = this.quietSeen.get(env);
    const last = quiet && (!recorded || quiet.time > recorded.time) ? quiet : recorded;
    if (!last) return { kind: 'unknown' };
    if (last.status === undefined) return { kind: 'unreachable', error: last.error ?? 'no answer', time: last.time };
    // Another client's 401 is about its own token, not the editor's: the environment answered.
    const kind = last.status >= 500 ? 'server-error' : last.status === 401 && !('other' in last) ? 'unauthorized' : 'answering';
    return { kind, status: last.status, time: last.time };
  }

  /**
   * Notes a request kept out of the history (the tree's own reads): it only updates the connection state. Fires
   * {@link onDidChange} at once when that state's kind changed, else at most once a second while its status or time
   * changes (so a redraw that reads again cannot loop, and a burst of requests redraws the row once).
   */
  noteQuiet(env: EnvironmentId, status: number | undefined, error: string | undefined, time: string): void {
    this.noteSeen(env, { status, error, time });
  }

  /**
   * Notes an answer `env` gave another client (your application, a flow or backfill run, curl: the Integration Log's
   * entries from the Local sandbox): the Connection row shows the latest answer of any client, as the environment's
   * state. `time`: ISO 8601, when the request started.
   */
  noteOtherClient(env: EnvironmentId, status: number, time: string): void {
    this.noteSeen(env, { status, time, other: true });
  }

  private noteSeen(env: EnvironmentId, seen: { status?: number; error?: string; time: string; other?: true }): void {
    const before = this.connection(env);
    this.quietSeen.set(env, seen);
    const after = this.connection(env);
    if (after.kind !== before.kind) {
      clearTimeout(this.pendingFire.get(env));
      this.pendingFire.delete(env);
      this.emitter.fire(env);
    } else if (JSON.stringify(after) !== JSON.stringify(before) && !this.pendingFire.has(env)) {
      this.pendingFire.set(env, setTimeout(() => {
        this.pendingFire.delete(env);
        this.emitter.fire(env);
      }, 1000));
    }
  }

  /** Records a request (masked by the store), logs one line and fires {@link onDidChange}. Returns the stored entry. */
  record(entry: NewHistoryEntry & { env: EnvironmentId }): HistoryEntry {
    const stored = this.entries.append(entry);
    this.log.info(
      `[${ENVIRONMENTS[entry.env].label}] ${entry.method} ${maskSecrets(entry.url)} -> ${entry.status ?? entry.error ?? 'no answer'} (${Math.round(entry.durationMs)} ms, ${entry.attempts} attempt${entry.attempts === 1 ? '' : 's'})`,
    );
    this.written();
    this.emitter.fire(entry.env);
    return stored;
  }

  /** Forgets the recorded requests of `env`. */
  async clear(env: EnvironmentId): Promise<void> {
    this.entries.clear(env);
    this.emitter.fire(env);
    await this.flushed().catch((err: unknown) => this.log.error('The request history could not be written', err));
  }

  dispose(): void {
    for (const t of this.pendingFire.values()) clearTimeout(t);
    this.pendingFire.clear();
    this.emitter.dispose();
  }
}
