import * as vscode from 'vscode';
import { ENDPOINTS } from '../../core/contract/endpoints';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENT_IDS, EnvironmentId } from '../../core/environments';
import type { ApiClients } from './apiClients';
import type { EnvironmentSettings } from './environmentSettings';
import type { KeyStore } from './keyStore';
import { ListCall, loadRegistrationPage, RegistrationPage, RegistrationProduct } from './registrationPages';

/** Filter of the tire-protection list (spec: list query invoiceNumber, storeNumber). */
export interface RegistrationFilter {
  readonly invoiceNumber?: string;
  readonly storeNumber?: string;
}

/** Which list changed: one folder of the Environments view. */
export interface ListChange {
  readonly env: EnvironmentId;
  readonly product: RegistrationProduct;
}

interface ListState {
  filter: RegistrationFilter;
  pages?: RegistrationPage[];
  loading?: Promise<RegistrationPage[]>;
  /** The last failure, kept until Retry/refresh: a redraw must not send the failing request again. */
  error?: { readonly err: unknown };
}

const PRODUCTS: readonly RegistrationProduct[] = ['tire-protection', 'motor-club'];

/**
 * The registrations the view shows, per environment and product (spec: Tire-protection registrations, Motor-club
 * registrations): loaded pages with their filter, each registration read by id, and each row's metadata. Loaded
 * data is kept until a refresh, a filter change, a settings or key change, or a successful data-changing request
 * of that environment; {@link onDidChange} then names the one list that changed, so the view redraws that folder.
 * Per-row metadata reads are cached by registration id and kept out of the request history.
 */
export class RegistrationsModel implements vscode.Disposable {
  private readonly lists = new Map<string, ListState>();
  private readonly registrations = new Map<string, Promise<Record<string, unknown>>>();
  private readonly metadata = new Map<string, Promise<{ body: unknown }>>();
  private readonly emitter = new vscode.EventEmitter<ListChange>();
  private readonly subscriptions: vscode.Disposable[];
  /** Fires with the list whose data or filter changed. */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly api: ApiClients,
    private readonly settings: EnvironmentSettings,
    keys: KeyStore,
  ) {
    this.subscriptions = [
      // New addresses, Partner ID or page size: what was read may be another server's data.
      settings.onDidChange(() => this.invalidate()),
      keys.onDidChange((env) => this.invalidate(env)),
      api.onDidChangeData(({ env, endpointId }) => {
        for (const product of touchedLists(endpointId)) this.invalidate(env, product);
      }),
    ];
  }

  private state(env: EnvironmentId, product: RegistrationProduct): ListState {
    const k = `${env}:${product}`;
    let s = this.lists.get(k);
    if (!s) {
      s = { filter: {} };
      this.lists.set(k, s);
    }
    return s;
  }

  filter(env: EnvironmentId, product: RegistrationProduct): RegistrationFilter {
    return this.state(env, product).filter;
  }

  /** Sets the filter (empty strings clear it); the list is read again from page 1 when shown. */
  setFilter(env: EnvironmentId, product: RegistrationProduct, filter: RegistrationFilter): void {
    const s = this.state(env, product);
    s.filter = { ...(filter.invoiceNumber ? { invoiceNumber: filter.invoiceNumber } : {}), ...(filter.storeNumber ? { storeNumber: filter.storeNumber } : {}) };
    this.invalidate(env, product);
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
    const call: ListCall = (id, params, o) => {
      // The tree's own reads stay out of the request history (it shows what the user did); they still update the
      // connection state.
      if (id !== 'getTireProtectionRegistrationMetadata') return this.api.send(env, id as EndpointId, params, undefined, { ...o, quiet: true }).then((r) => r.response);
      const k = `${env}:${params.id}`;
      let p = this.metadata.get(k);
      if (!p) {
        p = this.api.send(env, 'getTireProtectionRegistrationMetadata', { id: params.id ?? '' }, undefined, { signal: o.signal, quiet: true }).then((r) => r.response);
        this.metadata.set(k, p);
        // A failure is shown on the row but not kept: the next load asks again.
        p.catch(() => (this.metadata.get(k) === p ? this.metadata.delete(k) : undefined));
      }
      return p;
    };
    return loadRegistrationPage(call, { product, page, pageSize: this.settings.requests().pageSize, ...this.state(env, product).filter });
  }

  /** Loads the next page; the folder redraws once. Resolves to the rows added; throws the list call's error. */
  async loadMore(env: EnvironmentId, product: RegistrationProduct): Promise<number> {
    const s = this.state(env, product);
    const pages = await this.pages(env, product);
    const next = await this.loadPage(env, product, (pages.at(-1)?.page ?? 0) + 1);
    if (s.pages === pages) s.pages = [...pages, next];
    this.emitter.fire({ env, product });
    return next.rows.length;
  }

  /** The tire-protection registration read by id (with its claims), cached like the pages. */
  registration(env: EnvironmentId, id: string): Promise<Record<string, unknown>> {
    const k = `${env}:${id}`;
    let p = this.registrations.get(k);
    if (!p) {
      p = this.api.send(env, 'getTireProtectionRegistration', { id }, undefined, { quiet: true }).then((r) => (r.response.body ?? {}) as Record<string, unknown>);
      // A failure stays cached (shown with Retry) until invalidate(), like the pages.
      p.catch(() => undefined);
      this.registrations.set(k, p);
    }
    return p;
  }

  /** Drops loaded data (of one environment and product, or more) and fires {@link onDidChange} once per list. */
  invalidate(env?: EnvironmentId, product?: RegistrationProduct): void {
    for (const e of env ? [env] : ENVIRONMENT_IDS) {
      for (const p of product ? [product] : PRODUCTS) {
        const s = this.state(e, p);
        s.pages = undefined;
        s.loading = undefined;
        s.error = undefined;
        this.emitter.fire({ env: e, product: p });
      }
      for (const cache of [this.registrations, this.metadata]) for (const k of [...cache.keys()]) if (k.startsWith(`${e}:`)) cache.delete(k);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}

/** The lists a successful data-changing request may have changed (registration endpoints of its product; v2 both). */
export function touchedLists(endpointId: EndpointId): RegistrationProduct[] {
  const def = ENDPOINTS[endpointId];
  if (def.product === 'records') return [...PRODUCTS];
  if (!def.path.includes('/registrations')) return [];
  return def.product === 'motor-club' ? ['motor-club'] : ['tire-protection'];
}
