import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { HistoryEntry, HistoryStore, NewHistoryEntry } from '../../core/history/history';
import { maskSecrets } from '../../core/log/mask';
import { Logger } from '../log';

/** globalState key of the request history (the newest 200 requests, masked). */
export const HISTORY_STATE_KEY = 'tpp.requestHistory';

/** What the latest request of an environment says about its connection (the tree's "Connection" row). */
export type ConnectionState =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'answering' | 'unauthorized' | 'server-error'; readonly status: number; readonly time: string }
  | { readonly kind: 'unreachable'; readonly error: string; readonly time: string };

/**
 * The request history (newest first, every environment, tokens masked; core's HistoryStore) and the connection
 * state derived from it. {@link onDidChange} fires with the environment whose history changed, so the view redraws
 * that environment's "Request history" and "Connection" rows only.
 */
export class HistoryModel implements vscode.Disposable {
  // Created on first use: HistoryStore lives in dist/core.js, which activation does not load.
  private store: HistoryStore | undefined;
  private readonly emitter = new vscode.EventEmitter<EnvironmentId>();
  /** Fires with the environment after an entry was recorded or its history cleared. */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: Logger,
  ) {}

  private get entries(): HistoryStore {
    return (this.store ??= HistoryStore.fromJSON(this.state.get<unknown>(HISTORY_STATE_KEY)));
  }

  /** The history, newest first (optionally one environment's). */
  list(env?: EnvironmentId): readonly HistoryEntry[] {
    return this.entries.list(env);
  }

  /** The entry with `id`, if still kept. */
  get(id: string): HistoryEntry | undefined {
    return this.entries.get(id);
  }

  /** The connection state of `env` from its latest recorded request. */
  connection(env: EnvironmentId): ConnectionState {
    const last = this.entries.list(env)[0];
    if (!last) return { kind: 'unknown' };
    if (last.status === undefined) return { kind: 'unreachable', error: last.error ?? 'no answer', time: last.time };
    const kind = last.status === 401 ? 'unauthorized' : last.status >= 500 ? 'server-error' : 'answering';
    return { kind, status: last.status, time: last.time };
  }

  /** Records a request (masked by the store), logs one line and fires {@link onDidChange}. Returns the stored entry. */
  record(entry: NewHistoryEntry & { env: EnvironmentId }): HistoryEntry {
    const stored = this.entries.add(entry);
    this.log.info(
      `[${ENVIRONMENTS[entry.env].label}] ${entry.method} ${maskSecrets(entry.url)} -> ${entry.status ?? entry.error ?? 'no answer'} (${Math.round(entry.durationMs)} ms, ${entry.attempts} attempt${entry.attempts === 1 ? '' : 's'})`,
    );
    void this.state.update(HISTORY_STATE_KEY, this.entries.toJSON());
    this.emitter.fire(entry.env);
    return stored;
  }

  /** Forgets the recorded requests of `env`. */
  async clear(env: EnvironmentId): Promise<void> {
    this.entries.clear(env);
    await this.state.update(HISTORY_STATE_KEY, this.entries.toJSON());
    this.emitter.fire(env);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
