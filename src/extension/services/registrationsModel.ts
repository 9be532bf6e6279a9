import * as vscode from 'vscode';
import { ENDPOINTS } from '../../core/contract/endpoints';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENT_IDS, EnvironmentId } from '../../core/environments';
import type { ApiClients } from './apiClients';
import type { EnvironmentSettings } from './environmentSettings';
import type { KeyStore } from './keyStore';
import type { DataChange } from './apiClients';
import { ListCall, loadRegistrationPage, mergePages, readNextPages, RegistrationMetadataView, RegistrationPage, RegistrationProduct, RegistrationRow, registrationState, RegistrationState, rowText } from '../../core/listing/registrationPages';

/**
 * Filter of the tire-protection list. `invoiceNumber` and `storeNumber` are the spec's list query (exact values,
 * matched by the server); `invoicePrefix` is matched by the toolkit among the rows read so far, because the list
 * query has no prefix form.
 */
export interface RegistrationFilter {
  readonly invoiceNumber?: string;
  readonly invoicePrefix?: string;
  readonly storeNumber?: string;
}

/** A registration read by id (with its claims) and its metadata, as the expanded row shows them. */
export interface RegistrationDetails {
  readonly registration: Record<string, unknown>;
  readonly metadata?: RegistrationMetadataView;
  /** Why the metadata could not be read. */
  readonly metadataError?: string;
}

/** One registration whose details changed (a claim filed, a cancellation): its row is redrawn alone. */
export interface RecordChange {
  readonly env: EnvironmentId;
  readonly id: string;
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
  /** The Load more in progress. */
  more?: Promise<number>;
}

const PRODUCTS: readonly RegistrationProduct[] = ['tire-protection', 'motor-club'];

/**
 * The registrations the view shows, per environment and product (spec: Tire-protection registrations, Motor-club
 * registrations): loaded pages with their filter (one list request per page), and, for a row that is expanded or
 * acted on, the registration read by id with its metadata. Loaded data is kept until a refresh, a filter change, a
 * settings or key change, or a successful data-changing request of that environment; {@link onDidChange} then names
 * the one list that changed, and {@link onDidChangeRecord} the one registration, so the view redraws only those.
 */
export class RegistrationsModel implements vscode.Disposable {
  private readonly lists = new Map<string, ListState>();
  private readonly details = new Map<string, Promise<RegistrationDetails>>();
  /** Details already read, by `env:id` (the row's state is drawn from them without waiting). */
  private readonly known = new Map<string, RegistrationDetails>();
  private readonly emitter = new vscode.EventEmitter<ListChange>();
  private readonly recordEmitter = new vscode.EventEmitter<RecordChange>();
  private readonly subscriptions: vscode.Disposable[];
  /** Fires with the list whose data or filter changed. */
  readonly onDidChange = this.emitter.event;
  /** Fires with the one registration whose details were read or changed (its row redraws, not the folder). */
  readonly onDidChangeRecord = this.recordEmitter.event;

  constructor(
    private readonly api: ApiClients,
    private readonly settings: EnvironmentSettings,
    keys: KeyStore,
  ) {
    this.subscriptions = [
      // New addresses, Partner ID or page size: what was read may be another server's data.
      settings.onDidChange(() => this.invalidate()),
      keys.onDidChange((env) => this.invalidate(env)),
      api.onDidChangeData((change) => this.dataChanged(change)),
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
    s.filter = {
      ...(filter.invoiceNumber ? { invoiceNumber: filter.invoiceNumber } : {}),
      ...(filter.invoicePrefix && !filter.invoiceNumber ? { invoicePrefix: filter.invoicePrefix } : {}),
      ...(filter.storeNumber ? { storeNumber: filter.storeNumber } : {}),
    };
    // The palette offers Clear Registration Filter only while a list is filtered.
    const filtered = [...this.lists.values()].some((l) => Object.keys(l.filter).length > 0);
    void vscode.commands.executeCommand('setContext', 'tpp.registrationsFiltered', filtered);
    this.invalidate(env, product, true);
  }

  /** True when `row` passes the part of the filter matched here (the invoice-number prefix). */
  matches(env: EnvironmentId, product: RegistrationProduct, row: RegistrationRow): boolean {
    const prefix = this.state(env, product).filter.invoicePrefix;
    return !prefix || rowText(row, 'invoiceNumber').toLowerCase().startsWith(prefix.toLowerCase());
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
    const call: ListCall = (id, params, o) => this.api.send(env, id as EndpointId, params, undefined, { ...o, quiet: true }).then((r) => r.response);
    const { invoiceNumber, storeNumber } = this.state(env, product).filter;
    return loadRegistrationPage(call, { product, page, pageSize: this.settings.requests().pageSize, invoiceNumber, storeNumber });
  }

  /** The pages loaded so far, without loading any (the folder's description counts them). */
  loadedPages(env: EnvironmentId, product: RegistrationProduct): readonly RegistrationPage[] | undefined {
    return this.state(env, product).pages;
  }

  /**
   * Loads the page after the last one read ({@link readNextPages}: each registration once, however others' writes
   * shifted the pages); the folder redraws once. A second click while one is loading waits for the same load.
   * Resolves to the registrations added; throws the list call's error.
   */
  loadMore(env: EnvironmentId, product: RegistrationProduct): Promise<number> {
    const s = this.state(env, product);
    if (s.more) return s.more;
    const more = (async () => {
      const pages = await this.pages(env, product);
      const all = await readNextPages(pages, (n) => this.loadPage(env, product, n));
      if (s.pages === pages) s.pages = all;
      this.emitter.fire({ env, product });
      return mergePages(all).length - mergePages(pages).length;
    })().finally(() => {
      if (s.more === more) s.more = undefined;
    });
    s.more = more;
    return more;
  }

  /** The tire-protection registration read by id (with its claims), from {@link registrationDetails}. */
  async registration(env: EnvironmentId, id: string): Promise<Record<string, unknown>> {
    return (await this.registrationDetails(env, id)).registration;
  }

  /**
   * The registration read by id (with its claims) and its metadata: two requests, made when the row is expanded or
   * acted on, kept out of the request history and cached until the registration changes. A failure of the
   * registration read stays cached (shown with Retry) until {@link invalidate}; a metadata failure is kept on the
   * details. Fires {@link onDidChangeRecord} once read, so the row redraws with its state.
   */
  registrationDetails(env: EnvironmentId, id: string): Promise<RegistrationDetails> {
    const k = `${env}:${id}`;
    let p = this.details.get(k);
    if (!p) {
      const quiet = { quiet: true };
      const metadata = this.api.send(env, 'getTireProtectionRegistrationMetadata', { id }, undefined, quiet).then(
        (r) => ({ metadata: (r.response.body ?? {}) as RegistrationMetadataView }),
        (err: unknown) => ({ metadataError: err instanceof Error ? err.message : String(err) }),
      );
      p = Promise.all([this.api.send(env, 'getTireProtectionRegistration', { id }, undefined, quiet), metadata]).then(([r, m]) => {
        const d: RegistrationDetails = { registration: (r.response.body ?? {}) as Record<string, unknown>, ...m };
        if (this.details.get(k) === p) {
          this.known.set(k, d);
          this.recordEmitter.fire({ env, id });
        }
        return d;
      });
      p.catch(() => undefined);
      this.details.set(k, p);
    }
    return p;
  }

  /** Resolves once the registrations of `env` being read (again, after a claim or a cancellation) are read. */
  async settled(env: EnvironmentId): Promise<void> {
    const pending = [...this.details].filter(([k]) => k.startsWith(`${env}:`) && !this.known.has(k)).map(([, p]) => p.catch(() => undefined));
    await Promise.all(pending);
  }

  /**
   * The state of a row: from its metadata when the details were read (a claim or cancellation since the list was
   * read is included), else what the listed record says.
   */
  stateOf(env: EnvironmentId, row: RegistrationRow): { state: RegistrationState; metadata?: RegistrationMetadataView; metadataError?: string } {
    const d = this.known.get(`${env}:${rowText(row, '_id')}`);
    if (!d) return { state: row.state };
    const record = { ...row.record, ...d.registration };
    return { state: registrationState(record, d.metadata, Date.now()), metadata: d.metadata, metadataError: d.metadataError };
  }

  /**
   * A successful write, the editor's own or another client's on the Local sandbox: a claim or a cancellation by id
   * changes one registration (its details are read again and its row redrawn); any other registration write changes
   * the lists it touches (those folders are read again).
   */
  dataChanged({ env, endpointId, params }: DataChange): void {
    const id = params?.id;
    if (id !== undefined && (endpointId === 'createTireProtectionClaim' || endpointId === 'cancelTireProtectionRegistration')) {
      const k = `${env}:${id}`;
      const hadDetails = this.known.has(k);
      this.details.delete(k);
      this.known.delete(k);
      if (hadDetails || endpointId === 'cancelTireProtectionRegistration') void this.registrationDetails(env, String(id)).catch(() => undefined);
      this.recordEmitter.fire({ env, id: String(id) });
      return;
    }
    for (const product of touchedLists(endpointId)) this.invalidate(env, product);
  }

  /**
   * Drops loaded data (of one environment and product, or more) and fires {@link onDidChange} once per list.
   * @param keepDetails keep the registrations read by id (a filter change: the data itself did not change).
   */
  invalidate(env?: EnvironmentId, product?: RegistrationProduct, keepDetails = false): void {
    for (const e of env ? [env] : ENVIRONMENT_IDS) {
      for (const p of product ? [product] : PRODUCTS) {
        const s = this.state(e, p);
        s.pages = undefined;
        s.loading = undefined;
        s.more = undefined;
        s.error = undefined;
        this.emitter.fire({ env: e, product: p });
      }
      if (product !== 'motor-club' && !keepDetails) for (const cache of [this.details, this.known]) for (const k of [...cache.keys()]) if (k.startsWith(`${e}:`)) cache.delete(k);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
    this.recordEmitter.dispose();
  }
}

/** The lists a successful data-changing request may have changed (registration endpoints of its product; v2 both). */
export function touchedLists(endpointId: EndpointId): RegistrationProduct[] {
  const def = ENDPOINTS[endpointId];
  if (def.product === 'records') return [...PRODUCTS];
  if (def.resource !== 'registration' && def.resource !== 'claim') return [];
  return def.product === 'motor-club' ? ['motor-club'] : ['tire-protection'];
}
