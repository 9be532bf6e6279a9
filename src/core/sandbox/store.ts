import { randomBytes } from 'node:crypto';
import { DurableLog } from './persistence';
import { MotorClubRecord, PlainRecord, RegistrationRecord, ShopRecord } from './model';

/** A partner known to the sandbox: its Partner ID (the JWT `iss`), v2 name segment and public key. */
export interface PartnerRecord {
  /** Partner ID (JWT `iss`). */
  readonly id: string;
  /** v2 {company_name} path segment and the `name` returned by verify-token. */
  readonly name: string;
  /** v2 PartnerID (int). */
  readonly num: number;
  /** Public key, SPKI PEM. */
  readonly spkiPem: string;
}

/**
 * One change of the sandbox state, as journaled. Every record event carries the whole new record
 * (an upsert), so replaying the journal needs no business logic and no clock.
 */
export type SandboxEvent =
  | { readonly t: 'partner'; readonly r: PartnerRecord }
  | { readonly t: 'reg'; readonly p: string; readonly r: RegistrationRecord }
  | { readonly t: 'mc'; readonly p: string; readonly r: MotorClubRecord }
  | { readonly t: 'shop'; readonly p: string; readonly r: ShopRecord }
  | { readonly t: 'sale'; readonly p: string; readonly key: string; readonly r: PlainRecord }
  | { readonly t: 'txn'; readonly p: string; readonly r: PlainRecord };

/** An insertion-ordered collection keyed by id, with O(1) lookup and O(pageSize) paging. */
export class OrderedMap<T> {
  private readonly byId = new Map<string, T>();
  private readonly order: string[] = [];

  get size(): number {
    return this.order.length;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** Stores `value`; a new id goes to the end of the order, an existing id keeps its place. Returns true when new. */
  put(id: string, value: T): boolean {
    const isNew = !this.byId.has(id);
    this.byId.set(id, value);
    if (isNew) this.order.push(id);
    return isNew;
  }

  /** Values at positions [start, end) of the insertion order. */
  slice(start: number, end: number): T[] {
    return this.order.slice(start, end).map((id) => this.byId.get(id) as T);
  }

  values(): IterableIterator<T> {
    return this.byId.values();
  }
}

/** Appends `id` to the list stored under `key` in a multi-valued index. */
function addTo(index: Map<string, string[]>, key: string, id: string): void {
  const list = index.get(key);
  if (list) list.push(id);
  else index.set(key, [id]);
}

/** Key of the v3 uniqueness rule: invoice number plus store number ('' when none). */
export function invoiceKey(invoiceNumber: string, storeNumber: string): string {
  return `${invoiceNumber}\u0000${storeNumber}`;
}

/** Everything one partner owns. Partners never see each other's data (spec: Authentication, item 2). */
export class PartnerData {
  readonly registrations = new OrderedMap<RegistrationRecord>();
  /** invoiceNumber -> registration ids, in insertion order. */
  readonly regByInvoice = new Map<string, string[]>();
  /** storeNumber -> registration ids, in insertion order. */
  readonly regByStore = new Map<string, string[]>();
  /** invoiceKey(invoiceNumber, storeNumber) -> registration id. */
  readonly regByKey = new Map<string, string>();
  /** v2 RegistrationID -> registration id. */
  readonly regByNumber = new Map<number, string>();
  readonly motorClub = new OrderedMap<MotorClubRecord>();
  readonly motorClubByInvoice = new Map<string, string[]>();
  readonly shops = new OrderedMap<ShopRecord>();
  /** v2 Sales, keyed by their identity (ShopID + InvoiceNumber). */
  readonly sales = new OrderedMap<PlainRecord>();
  readonly transactions = new OrderedMap<PlainRecord>();
}

/** Options of {@link SandboxStore.open}. */
export interface StoreOptions {
  /** Data directory; when absent, everything stays in memory. */
  readonly dataDir?: string;
  /** Journal lines after which a snapshot is written (default 50,000). */
  readonly snapshotEvery?: number;
}

/**
 * The sandbox's state: partners and their data, with the indexes that make invoice lookups O(1) and list
 * pages O(pageSize). All changes go through {@link commit}, which journals the event durably (when a data
 * directory is set) before applying it, so an acknowledged write survives a crash.
 */
export class SandboxStore {
  readonly partners = new Map<string, PartnerRecord>();
  private readonly data = new Map<string, PartnerData>();
  private nextRegistrationNumber = 1;
  private nextClaimId = 1;
  private nextPlainId = 1;
  private nextPartnerNum = 1001;
  private log: DurableLog | undefined;
  private batchDepth = 0;
  private readonly snapshotEvery: number;

  private constructor(opts: StoreOptions) {
    this.snapshotEvery = opts.snapshotEvery ?? 50_000;
  }

  /**
   * Creates the store; with `dataDir`, reads the snapshot and journal back (ignoring a torn last line).
   * Throws when the data directory is unreadable or corrupt.
   */
  static open(opts: StoreOptions = {}): SandboxStore {
    const store = new SandboxStore(opts);
    if (opts.dataDir) {
      const { log, snapshot, events } = DurableLog.open(opts.dataDir);
      try {
        if (Array.isArray(snapshot)) for (const e of snapshot) store.apply(e as SandboxEvent);
        for (const e of events) store.apply(e as SandboxEvent);
      } catch (err) {
        log.close();
        throw new Error(`Sandbox data in ${opts.dataDir} is unreadable: ${(err as Error).message}`);
      }
      store.log = log;
    }
    return store;
  }

  /** The partner's data (created empty on first use). */
  of(partnerId: string): PartnerData {
    let d = this.data.get(partnerId);
    if (!d) {
      d = new PartnerData();
      this.data.set(partnerId, d);
    }
    return d;
  }

  /** A new 24-hex-digit record identifier. */
  newId(): string {
    return randomBytes(12).toString('hex');
  }

  /** Reserves the next v2 RegistrationID. */
  takeRegistrationNumber(): number {
    return this.nextRegistrationNumber++;
  }

  /** Reserves the next claim identifier. */
  takeClaimId(): number {
    return this.nextClaimId++;
  }

  /** Reserves the next identifier of a sale or transaction. */
  takePlainId(): number {
    return this.nextPlainId++;
  }

  /** Reserves the next v2 PartnerID. */
  takePartnerNum(): number {
    return this.nextPartnerNum++;
  }

  /**
   * Journals `event` (fsynced when a data directory is set) and applies it. Throws on an I/O error, in which
   * case nothing was applied. Writes a snapshot when enough journal lines have accumulated.
   */
  commit(event: SandboxEvent): void {
    if (this.log) this.log.append(event, this.batchDepth === 0);
    this.apply(event);
    if (this.log && this.batchDepth === 0 && this.log.pending >= this.snapshotEvery) this.snapshot();
  }

  /**
   * Runs `fn` with one fsync at the end instead of one per event (bulk loads such as sample data).
   * The events are durable when batch returns. Returns what `fn` returns.
   */
  batch<T>(fn: () => T): T {
    this.batchDepth++;
    try {
      return fn();
    } finally {
      this.batchDepth--;
      if (this.batchDepth === 0 && this.log) {
        this.log.sync();
        if (this.log.pending >= this.snapshotEvery) this.snapshot();
      }
    }
  }

  /** Writes a snapshot of the whole state now (no-op in memory). Throws on I/O errors. */
  snapshot(): void {
    if (this.log) this.log.snapshot(this.dump());
  }

  /** Closes the journal (after a final snapshot when `compact` is true). */
  close(compact = false): void {
    if (this.log && compact) {
      try {
        this.snapshot();
      } catch {
        // the journal is still complete
      }
    }
    this.log?.close();
    this.log = undefined;
  }

  /** The whole state as a list of upsert events (the snapshot format). */
  dump(): SandboxEvent[] {
    const out: SandboxEvent[] = [];
    for (const r of this.partners.values()) out.push({ t: 'partner', r });
    for (const [p, d] of this.data) {
      for (const r of d.registrations.slice(0, d.registrations.size)) out.push({ t: 'reg', p, r });
      for (const r of d.motorClub.slice(0, d.motorClub.size)) out.push({ t: 'mc', p, r });
      for (const r of d.shops.slice(0, d.shops.size)) out.push({ t: 'shop', p, r });
      for (const r of d.sales.slice(0, d.sales.size)) out.push({ t: 'sale', p, key: saleKeyOf(r), r });
      for (const r of d.transactions.slice(0, d.transactions.size)) out.push({ t: 'txn', p, r });
    }
    return out;
  }

  private apply(e: SandboxEvent): void {
    switch (e.t) {
      case 'partner':
        this.partners.set(e.r.id, e.r);
        this.nextPartnerNum = Math.max(this.nextPartnerNum, e.r.num + 1);
        return;
      case 'reg': {
        const d = this.of(e.p);
        const r = e.r;
        if (d.registrations.put(r._id, r)) {
          addTo(d.regByInvoice, r.invoiceNumber, r._id);
          addTo(d.regByStore, r.storeNumber, r._id);
          d.regByKey.set(invoiceKey(r.invoiceNumber, r.storeNumber), r._id);
          d.regByNumber.set(r.registrationId, r._id);
        }
        this.nextRegistrationNumber = Math.max(this.nextRegistrationNumber, r.registrationId + 1);
        for (const c of r.claims) this.nextClaimId = Math.max(this.nextClaimId, c.id + 1);
        return;
      }
      case 'mc': {
        const d = this.of(e.p);
        if (d.motorClub.put(e.r._id, e.r)) addTo(d.motorClubByInvoice, e.r.invoiceNumber, e.r._id);
        return;
      }
      case 'shop':
        this.of(e.p).shops.put(e.r.uniqueId, e.r);
        return;
      case 'sale':
        this.of(e.p).sales.put(e.key, e.r);
        this.nextPlainId = Math.max(this.nextPlainId, e.r.id + 1);
        return;
      case 'txn':
        this.of(e.p).transactions.put(String(e.r.id), e.r);
        this.nextPlainId = Math.max(this.nextPlainId, e.r.id + 1);
        return;
    }
  }
}

/** Identity of a v2 Sales record: ShopID + InvoiceNumber (a resend updates it). */
export function saleKeyOf(r: PlainRecord): string {
  return invoiceKey(String(r.body.InvoiceNumber ?? ''), String(r.body.ShopID ?? ''));
}
