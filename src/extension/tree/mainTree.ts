import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import type { ApiClients } from '../services/apiClients';
import type { EnvironmentStatus } from '../services/environmentModel';
import type { EnvironmentSettings } from '../services/environmentSettings';
import { Logger } from '../log';
import { ConnectionNode } from './connectionNode';
import { HistoryFolderNode } from './historyFolderNode';
import { TreeNode } from './node';
import { loadRegistrationPage, RegistrationPage, RegistrationProduct } from './registrationPages';
import { RegistrationsFolderNode } from './registrationsFolderNode';

/** Filter of the tire-protection list (spec: list query invoiceNumber, storeNumber). */
export interface RegistrationFilter {
  readonly invoiceNumber?: string;
  readonly storeNumber?: string;
}

interface ListState {
  filter: RegistrationFilter;
  pages?: RegistrationPage[];
  loading?: Promise<RegistrationPage[]>;
  /** The last failure, kept until Retry/refresh: a redraw must not send the failing request again. */
  error?: { readonly err: unknown };
}

/**
 * State and data of the request-driven part of the Environments tree (registrations with paging and filter,
 * motor-club registrations, request history), per environment. Loaded pages are cached until a refresh or a
 * successful data-changing request, so a tree refresh (which re-asks every expanded node) costs no request.
 */
export class MainTree implements vscode.Disposable {
  private readonly lists = new Map<string, ListState>();
  private readonly registrations = new Map<string, Promise<Record<string, unknown>>>();
  private readonly subscriptions: vscode.Disposable[];
  private historyTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly api: ApiClients,
    private readonly settings: EnvironmentSettings,
    private readonly fireRefresh: () => void,
    private readonly log: Logger,
    keyChanges?: vscode.Event<EnvironmentId>,
  ) {
    this.subscriptions = [
      // New addresses or Partner ID: what was read may be another server's data.
      settings.onDidChange(() => this.invalidate()),
      ...(keyChanges ? [keyChanges((env) => this.invalidate(env))] : []),
      api.onDidChangeData((env) => {
        this.invalidate(env);
        this.refresh();
      }),
      api.onDidRecord(() => {
        // Debounced: a burst of requests redraws the history once.
        if (this.historyTimer) clearTimeout(this.historyTimer);
        this.historyTimer = setTimeout(() => this.refresh(), 250);
      }),
    ];
  }

  private key(env: EnvironmentId, product: RegistrationProduct): string {
    return `${env}:${product}`;
  }

  private state(env: EnvironmentId, product: RegistrationProduct): ListState {
    const k = this.key(env, product);
    let s = this.lists.get(k);
    if (!s) {
      s = { filter: {} };
      this.lists.set(k, s);
    }
    return s;
  }

  /** The nodes appended under an environment: Connection, Registrations, Motor-club registrations, Request history. */
  folders(status: EnvironmentStatus): TreeNode[] {
    const env = status.info.id;
    return [new ConnectionNode(this, env), new RegistrationsFolderNode(this, env, 'tire-protection'), new RegistrationsFolderNode(this, env, 'motor-club'), new HistoryFolderNode(this, env)];
  }

  filter(env: EnvironmentId, product: RegistrationProduct): RegistrationFilter {
    return this.state(env, product).filter;
  }

  /** Sets the filter (empty strings clear it) and reloads from page 1. */
  setFilter(env: EnvironmentId, product: RegistrationProduct, filter: RegistrationFilter): void {
    const s = this.state(env, product);
    s.filter = { ...(filter.invoiceNumber ? { invoiceNumber: filter.invoiceNumber } : {}), ...(filter.storeNumber ? { storeNumber: filter.storeNumber } : {}) };
    s.pages = undefined;
    s.loading = undefined;
    s.error = undefined;
    this.refresh();
  }

  /**
   * Pages loaded so far (loads page 1 the first time). Rejects with the list call's error, which is kept until
   * {@link invalidate} (Retry, refresh, a settings or key change), so redraws do not repeat a failing request.
   */
  pages(env: EnvironmentId, product: RegistrationProduct): Promise<RegistrationPage[]> {
    const s = this.state(env, product);
    if (s.pages) return Promise.resolve(s.pages);
    if (s.error) return Promise.reject(s.error.err);
    if (!s.loading) {
      const loading = this.loadPage(env, product, 1).then(
        (p) => {
          if (s.loading === loading) {
            s.pages = [p];
            s.loading = undefined;
          }
          return [p];
        },
        (err: unknown) => {
          if (s.loading === loading) {
            s.loading = undefined;
            s.error = { err };
          }
          throw err;
        },
      );
      s.loading = loading;
    }
    return s.loading;
  }

  private loadPage(env: EnvironmentId, product: RegistrationProduct, page: number): Promise<RegistrationPage> {
    const s = this.state(env, product);
    return loadRegistrationPage((id, params, o) => this.api.send(env, id, params, undefined, o).then((r) => r.response), {
      product,
      page,
      pageSize: this.settings.requests().pageSize,
      ...s.filter,
    });
  }

  /** Loads the next page and redraws. Throws the list call's error. */
  async loadMore(env: EnvironmentId, product: RegistrationProduct): Promise<number> {
    const s = this.state(env, product);
    const pages = await this.pages(env, product);
    const next = await this.loadPage(env, product, (pages.at(-1)?.page ?? 0) + 1);
    if (s.pages === pages) s.pages = [...pages, next];
    this.refresh();
    return next.rows.length;
  }

  /** The registration read by id (with its claims), cached like the pages. */
  registration(env: EnvironmentId, id: string): Promise<Record<string, unknown>> {
    const k = `${env}:${id}`;
    let p = this.registrations.get(k);
    if (!p) {
      p = this.api.send(env, 'getTireProtectionRegistration', { id }, undefined).then((r) => (r.response.body ?? {}) as Record<string, unknown>);
      // A failure stays cached (shown with Retry) until invalidate(), like the pages.
      p.catch(() => undefined);
      this.registrations.set(k, p);
    }
    return p;
  }

  /** Drops cached pages and registrations (of one environment, or all). */
  invalidate(env?: EnvironmentId, product?: RegistrationProduct): void {
    for (const [k, s] of this.lists) {
      if (env && !k.startsWith(`${env}:`)) continue;
      if (product && !k.endsWith(`:${product}`)) continue;
      s.pages = undefined;
      s.loading = undefined;
      s.error = undefined;
    }
    for (const k of [...this.registrations.keys()]) if (!env || k.startsWith(`${env}:`)) this.registrations.delete(k);
  }

  /** Redraws the tree (cached data is reused). */
  refresh(): void {
    this.fireRefresh();
  }

  /** Logs a failure shown in the tree. */
  logFailure(what: string, err: unknown): void {
    this.log.warn(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }

  dispose(): void {
    if (this.historyTimer) clearTimeout(this.historyTimer);
    for (const s of this.subscriptions) s.dispose();
    if (current === this) current = undefined;
  }
}

let current: MainTree | undefined;

/** Installs the tree data source used by {@link mainFolders} (extension.ts calls this once). */
export function setMainTree(tree: MainTree): MainTree {
  current = tree;
  return tree;
}

/** The registration, motor-club and history folders of an environment (none before {@link setMainTree}). */
export function mainFolders(status: EnvironmentStatus): TreeNode[] {
  return current ? current.folders(status) : [];
}

/** The installed tree data source (commands use it). */
export function mainTree(): MainTree | undefined {
  return current;
}
