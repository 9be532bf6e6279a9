/**
 * What the Environments view knows of registrations, per environment and product, without the editor (no `vscode`
 * import: the editor's `RegistrationsModel` wraps it with events; unit tests run it in plain Node). Spec:
 * Tire-protection registrations, Motor-club registrations, States and transitions.
 */
import { ENDPOINTS } from '../contract/endpoints';
import type { EndpointId } from '../contract/types';
import { ENVIRONMENT_IDS, EnvironmentId } from '../environments';
import { ListCall, loadRegistrationPage, mergePages, readNextPages, RegistrationMetadataView, RegistrationPage, RegistrationProduct, RegistrationRow, registrationState, RegistrationState, rowText } from './registrationPages';

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

/** A successful data-changing request: where, which endpoint, and its path parameters (`{ id }` of a claim). */
export interface WriteDone {
  readonly env: EnvironmentId;
  readonly endpointId: EndpointId;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** The reads the listings make (each kept out of the request history) and the settings they follow. */
export interface RegistrationReads {
  /** The list requests of `env` (./registrationPages.ts). */
  readonly list: (env: EnvironmentId) => ListCall;
  /** A read by id of `env`; resolves to the answer's body, rejects with the client's error. */
  readonly read: (env: EnvironmentId, endpointId: 'getTireProtectionRegistration' | 'getTireProtectionRegistrationMetadata', id: string) => Promise<unknown>;
  /** Rows per list request (`tpp.registrations.pageSize`). */
  readonly pageSize: () => number;
  /** Milliseconds since the epoch: a registration's state depends on the day (default `Date.now`). */
  readonly now?: () => number;
}

/** Who hears what changed: a list (its folder redraws), a registration (its row redraws), whether any list is filtered. */
export interface ListingEvents {
  readonly list: (change: ListChange) => void;
  readonly record: (change: RecordChange) => void;
  readonly filtered?: (any: boolean) => void;
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
 * The registrations the view shows: loaded pages with their filter (one list request per page), and, for a row that
 * is expanded or acted on, the registration read by id with its metadata. Loaded data is kept until a refresh, a
 * filter change, a settings or key change, or a successful data-changing request of that environment; the events
 * then name the one list that changed, or the one registration, so the view redraws only those.
 */
export class RegistrationListings {
  private readonly lists = new Map<string, ListState>();
  private readonly details = new Map<string, Promise<RegistrationDetails>>();
  /** Details already read, by `env:id` (the row's state is drawn from them without waiting). */
  private readonly known = new Map<string, RegistrationDetails>();

  constructor(
    private readonly reads: RegistrationReads,
    private readonly events: ListingEvents,
  ) {}

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

  /** Sets the filter (empty strings clear it; an exact invoice number drops the prefix); the list is read again from page 1 when shown. */
  setFilter(env: EnvironmentId, product: RegistrationProduct, filter: RegistrationFilter): void {
    const s = this.state(env, product);
    s.filter = {
      ...(filter.invoiceNumber ? { invoiceNumber: filter.invoiceNumber } : {}),
      ...(filter.invoicePrefix && !filter.invoiceNumber ? { invoicePrefix: filter.invoicePrefix } : {}),
      ...(filter.storeNumber ? { storeNumber: filter.storeNumber } : {}),
    };
    this.events.filtered?.([...this.lists.values()].some((l) => Object.keys(l.filter).length > 0));
    this.invalidate(env, product, true);
  }

  /** True when `row` passes the part of the filter matched here (the invoice-number prefix, any case). */
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
    const { invoiceNumber, storeNumber } = this.state(env, product).filter;
    return loadRegistrationPage(this.reads.list(env), { product, page, pageSize: this.reads.pageSize(), invoiceNumber, storeNumber });
  }

  /** The pages loaded so far, without loading any (the folder's description counts them). */
  loadedPages(env: EnvironmentId, product: RegistrationProduct): readonly RegistrationPage[] | undefined {
    return this.state(env, product).pages;
  }

  /**
   * Loads the page after the last one read (`readNextPages`: each registration once, however others' writes
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
      this.events.list({ env, product });
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
   * acted on, and cached until the registration changes. A failure of the registration read stays cached (shown
   * with Retry) until {@link invalidate}; a metadata failure is kept on the details. Fires the record event once
   * read, so the row redraws with its state.
   */
  registrationDetails(env: EnvironmentId, id: string): Promise<RegistrationDetails> {
    const k = `${env}:${id}`;
    let p = this.details.get(k);
    if (!p) {
      const metadata = this.reads.read(env, 'getTireProtectionRegistrationMetadata', id).then(
        (body) => ({ metadata: (body ?? {}) as RegistrationMetadataView }),
        (err: unknown) => ({ metadataError: err instanceof Error ? err.message : String(err) }),
      );
      p = Promise.all([this.reads.read(env, 'getTireProtectionRegistration', id), metadata]).then(([body, m]) => {
        const d: RegistrationDetails = { registration: (body ?? {}) as Record<string, unknown>, ...m };
        if (this.details.get(k) === p) {
          this.known.set(k, d);
          this.events.record({ env, id });
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
    return { state: registrationState(record, d.metadata, (this.reads.now ?? Date.now)()), metadata: d.metadata, metadataError: d.metadataError };
  }

  /**
   * A successful write: a claim or a cancellation by id changes one registration (its details are read again and its
   * row redrawn); any other registration write changes the lists it touches (those folders are read again).
   */
  dataChanged({ env, endpointId, params }: WriteDone): void {
    const id = params?.id;
    if (id !== undefined && (endpointId === 'createTireProtectionClaim' || endpointId === 'cancelTireProtectionRegistration')) {
      const k = `${env}:${id}`;
      const hadDetails = this.known.has(k);
      this.details.delete(k);
      this.known.delete(k);
      if (hadDetails || endpointId === 'cancelTireProtectionRegistration') void this.registrationDetails(env, String(id)).catch(() => undefined);
      this.events.record({ env, id: String(id) });
      return;
    }
    for (const product of touchedLists(endpointId)) this.invalidate(env, product);
  }

  /**
   * Drops loaded data (of one environment and product, or more) and fires the list event once per list.
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
        this.events.list({ env: e, product: p });
      }
      if (product !== 'motor-club' && !keepDetails) for (const cache of [this.details, this.known]) for (const k of [...cache.keys()]) if (k.startsWith(`${e}:`)) cache.delete(k);
    }
  }
}

/** The lists a successful data-changing request may have changed (registration endpoints of its product; v2 both). */
export function touchedLists(endpointId: EndpointId): RegistrationProduct[] {
  const def = ENDPOINTS[endpointId];
  if (def.product === 'records') return [...PRODUCTS];
  if (def.resource !== 'registration' && def.resource !== 'claim') return [];
  return def.product === 'motor-club' ? ['motor-club'] : ['tire-protection'];
}
