import * as vscode from 'vscode';
import type { Exchange } from '../../core/exchange/types';
import { RequestLogFile } from '../../core/requestLog/requestLogFile';
import type { Logger } from '../log';

/** Status classes the Integration Log can be filtered by. */
export type StatusFilter = 'all' | '2xx' | '4xx' | '5xx';
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', '2xx', '4xx', '5xx'];

/** Setting: entries the Integration Log keeps. */
export const INTEGRATION_LOG_LIMIT_SETTING = 'tpp.integrationLog.limit';
/** Default of {@link INTEGRATION_LOG_LIMIT_SETTING} ("the last 1,000 requests, configurable"). */
export const DEFAULT_INTEGRATION_LOG_LIMIT = 1000;
/** Context key set while a status filter other than 'all' is on. */
export const FILTERED_CONTEXT_KEY = 'tpp.integrationLog.filtered';
const FILTER_STATE_KEY = 'tpp.integrationLog.filter';
const EDITOR_READS_STATE_KEY = 'tpp.integrationLog.editorReads';

/**
 * The User-Agent of the editor's own reads (the tree's pages, a registration's details and metadata, a 409's
 * lookup): the Integration Log marks them and hides them by default, so that the application's requests are not
 * buried under what the view itself asked for.
 */
export const EDITOR_READ_USER_AGENT = 'tire-protection-partner-toolkit (view)';

/** The User-Agent of the editor's own sends (the requests a person asked for: they are recorded in its history). */
export const EDITOR_SEND_USER_AGENT = 'tire-protection-partner-toolkit';

/** True when `x` is one of the editor's own reads ({@link EDITOR_READ_USER_AGENT}). */
export function isEditorRead(x: Exchange): boolean {
  return x.request.headers?.['user-agent'] === EDITOR_READ_USER_AGENT;
}

/** Whether `status` (absent: no answer) is in the class `filter`. 3xx counts with 2xx (neither is a failure). */
export function matchesFilter(status: number | undefined, filter: StatusFilter): boolean {
  if (filter === 'all') return true;
  if (status === undefined) return filter === '5xx';
  if (filter === '2xx') return status < 400;
  if (filter === '4xx') return status >= 400 && status < 500;
  return status >= 500;
}

/**
 * The Integration Log: every request any client sent to the Local sandbox, as the sandbox's child
 * process pushes them over its IPC channel (see LocalSandbox.onDidLogExchanges), with their diagnosis. Keeps the last
 * `tpp.integrationLog.limit` entries, persisted incrementally as JSON Lines under the extension's global storage
 * (core's RequestLogFile: masked, rotated), so they survive a window reload. Holds the status filter of the view.
 * {@link onDidChange} fires with the entries added (or undefined after a clear, a filter or a limit change).
 */
export class IntegrationLog implements vscode.Disposable {
  // Opened on first use: RequestLogFile lives in dist/core.js, which activation does not load.
  private file: RequestLogFile | undefined;
  private current: StatusFilter;
  private editorReads: boolean;
  private readonly emitter = new vscode.EventEmitter<readonly Exchange[] | undefined>();
  /** Fires with the exchanges just added, or undefined when the list changed otherwise. */
  readonly onDidChange = this.emitter.event;
  private readonly config: vscode.Disposable;
  private readonly revealEmitter = new vscode.EventEmitter<Exchange>();
  /** Fires with an entry the view should scroll to and select (the newest of a run the person just started). */
  readonly onDidRequestReveal = this.revealEmitter.event;

  /**
   * @param dir directory of the log files, e.g. `<globalStorage>/integration-log`.
   * @param state where the status filter is kept across reloads.
   */
  constructor(
    /** Directory of the log files. */
    readonly directory: string,
    private readonly state: vscode.Memento,
    private readonly log: Logger,
  ) {
    const saved = state.get<string>(FILTER_STATE_KEY);
    this.current = STATUS_FILTERS.includes(saved as StatusFilter) ? (saved as StatusFilter) : 'all';
    this.editorReads = state.get<boolean>(EDITOR_READS_STATE_KEY) === true;
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT_KEY, this.current !== 'all');
    this.config = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(INTEGRATION_LOG_LIMIT_SETTING) || !this.file) return;
      this.file = undefined; // reopened with the new limit on next use
      this.emitter.fire(undefined);
    });
  }

  /** Entries kept: the setting, a whole number from 1 to 100,000. */
  get limit(): number {
    const v = vscode.workspace.getConfiguration().get<number>(INTEGRATION_LOG_LIMIT_SETTING, DEFAULT_INTEGRATION_LOG_LIMIT);
    return Number.isInteger(v) && v >= 1 ? Math.min(v, 100_000) : DEFAULT_INTEGRATION_LOG_LIMIT;
  }

  private get store(): RequestLogFile {
    return (this.file ??= RequestLogFile.open(this.directory, this.limit));
  }

  /** Keeps `records` (masked again before they are stored) and fires {@link onDidChange}. */
  add(records: readonly Exchange[]): void {
    if (records.length === 0) return;
    const stored = this.store.append(records);
    this.store.flushed().catch((err: unknown) => this.log.error('The Integration Log could not be written', err));
    this.emitter.fire(stored);
  }

  /**
   * Entries newest first, through the status filter (or `filter`), without the editor's own reads unless they are
   * shown (or `editorReads` is true).
   */
  list(filter: StatusFilter = this.current, editorReads: boolean = this.editorReads): Exchange[] {
    const all = this.store.list();
    const out: Exchange[] = [];
    for (let i = all.length - 1; i >= 0; i--) {
      const x = all[i] as Exchange;
      if (matchesFilter(x.response?.status, filter) && (editorReads || !isEditorRead(x))) out.push(x);
    }
    return out;
  }

  /** Whether the editor's own reads are listed (default false; kept across reloads). */
  get editorReadsShown(): boolean {
    return this.editorReads;
  }

  /** Shows or hides the editor's own reads ({@link isEditorRead}). */
  showEditorReads(show: boolean): void {
    this.editorReads = show;
    void this.state.update(EDITOR_READS_STATE_KEY, show);
    this.emitter.fire(undefined);
  }

  /** Number of entries kept, whatever the filter. */
  get size(): number {
    return this.store.list().length;
  }

  /** The entry with `id`, if still kept. */
  get(id: string): Exchange | undefined {
    return this.store.list().find((x) => x.id === id);
  }

  get filter(): StatusFilter {
    return this.current;
  }

  /** Shows only `filter`'s status class (kept across reloads). */
  setFilter(filter: StatusFilter): void {
    this.current = filter;
    void this.state.update(FILTER_STATE_KEY, filter);
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT_KEY, filter !== 'all');
    this.emitter.fire(undefined);
  }

  /** Asks the view to scroll to `x` and select it ({@link onDidRequestReveal}). */
  reveal(x: Exchange): void {
    this.revealEmitter.fire(x);
  }

  /**
   * Resolves with the entries matching `test` once there are `count` of them (they arrive from the sandbox's process
   * after the requests were answered), or with those there are after `timeoutMs`.
   */
  whenLogged(test: (x: Exchange) => boolean, count: number, timeoutMs: number): Promise<Exchange[]> {
    const found = () => this.list('all', true).filter(test);
    return new Promise((resolve) => {
      const check = () => {
        const xs = found();
        if (xs.length < count) return false;
        finish(xs);
        return true;
      };
      const finish = (xs: Exchange[]) => {
        clearTimeout(timer);
        sub.dispose();
        resolve(xs);
      };
      const timer = setTimeout(() => finish(found()), timeoutMs);
      const sub = this.onDidChange(() => void check());
      check();
    });
  }

  /** Removes every entry, in memory and on disk. */
  clear(): void {
    this.store.clear();
    this.emitter.fire(undefined);
  }

  /** Resolves when the entries are on disk (tests). */
  flushed(): Promise<void> {
    return this.file ? this.file.flushed() : Promise.resolve();
  }

  dispose(): void {
    this.config.dispose();
    this.emitter.dispose();
    this.revealEmitter.dispose();
  }
}
