import { ERROR_NAMES } from '../contract';
import {
  CancellationRecord,
  ClaimRecord,
  DEFAULT_TERM_MONTHS,
  MotorClubRecord,
  PlainRecord,
  RegistrationCounts,
  RegistrationRecord,
  RegistrationSource,
  ShopRecord,
  WARRANTY_MESSAGE,
  countsOf,
  isoDate,
  num,
  str,
} from './model';
import { OrderedMap, PartnerData, PartnerRecord, SandboxStore, invoiceKey, saleKeyOf } from './store';

/**
 * The business rules of the Local sandbox (spec: What the service does — Business rules; States and
 * transitions; Endpoints). Every method takes already-validated bodies (the contract's zod output) and
 * either returns the result or throws {@link ApiError}. Every write goes through the store's journal.
 */

/** One field-level problem of a 400 answer. */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

/** An error answer: HTTP status, the `error` name of the body, a message and optional field issues. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    readonly issues?: readonly Issue[],
    readonly extra?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The `error` name of a status (the contract's names; other statuses get a generic name). */
export function errorName(status: number): string {
  return ERROR_NAMES[status] ?? EXTRA_ERROR_NAMES[status] ?? (status >= 500 ? 'internal_server_error' : 'bad_request');
}

/** Names of statuses the spec's Errors table does not list but the HTTP layer may answer. */
const EXTRA_ERROR_NAMES: Readonly<Record<number, string>> = { 413: 'payload_too_large', 415: 'unsupported_media_type' };

export const notFound = (what: string) => new ApiError(404, 'not_found', what);
export const conflict = (what: string) => new ApiError(409, 'conflict', what);

/** Program identifier returned as `program_id` on tire-protection reads. */
export const SANDBOX_PROGRAM_ID = 'local-sandbox-tire-protection';

/** Maximum `pageSize` the sandbox accepts (the spec leaves it open). */
export const MAX_PAGE_SIZE = 1000;

/** The list envelope (spec: List envelope). */
export interface ListEnvelope<T> {
  readonly results: T[];
  readonly totalRecordCount: number;
  readonly page: number;
  readonly pageSize: number;
  readonly totalPages: number;
}

/** Selects a registration for a PATCH: by `_id`, or by invoice number with an optional store number. */
export type Selector = { readonly id: string } | { readonly invoiceNumber: string; readonly storeNumber?: string };

type Body = Readonly<Record<string, unknown>>;

function obj(v: unknown): Body {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Body) : {};
}

function arr(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Removes undefined properties (so JSON output and equality are stable). */
function compact(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** Options of {@link SandboxOperations}. */
export interface OperationsOptions {
  /** Program term in months (default {@link DEFAULT_TERM_MONTHS}). */
  readonly termMonths?: number;
  /** Clock, milliseconds since epoch (default Date.now). */
  readonly now?: () => number;
}

export class SandboxOperations {
  readonly termMonths: number;
  private readonly now: () => number;

  constructor(
    readonly store: SandboxStore,
    opts: OperationsOptions = {},
  ) {
    this.termMonths = opts.termMonths ?? DEFAULT_TERM_MONTHS;
    this.now = opts.now ?? Date.now;
  }

  private nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Counters and WarrantyStatus of `r` now. */
  counts(r: RegistrationRecord): RegistrationCounts {
    return countsOf(r, this.now(), this.termMonths);
  }

  // ------------------------------------------------------------------------------------------
  // Tire registrations (earlier revision and tire-protection)
  // ------------------------------------------------------------------------------------------

  /**
   * Creates a v3 registration from a validated body (`source` 'registrations' for the earlier revision,
   * 'tire-protection' for the product path). Unique by invoiceNumber + storeNumber: a duplicate is 409.
   * Returns the new `_id`.
   */
  createRegistration(partner: string, source: Exclude<RegistrationSource, 'v2'>, body: Body): string {
    const d = this.store.of(partner);
    const invoiceNumber = str(body.invoiceNumber);
    const storeNumber = str(body.storeNumber);
    if (d.regByKey.has(invoiceKey(invoiceNumber, storeNumber))) {
      throw conflict(
        storeNumber
          ? `A registration with invoiceNumber ${invoiceNumber} and storeNumber ${storeNumber} already exists`
          : `A registration with invoiceNumber ${invoiceNumber} already exists`,
      );
    }
    const now = this.nowIso();
    const r: RegistrationRecord = {
      _id: this.store.newId(),
      registrationId: this.store.takeRegistrationNumber(),
      source,
      invoiceNumber,
      storeNumber,
      orgId: '',
      enrollDate: isoDate(body.enrollDate),
      createdDate: now,
      statusDate: now,
      tiresCovered: Math.max(1, arr(body.tires).length),
      body,
      claims: [],
      cancellations: [],
    };
    this.store.commit({ t: 'reg', p: partner, r });
    return r._id;
  }

  /** The registration `id` of `partner`; 404 when unknown (or another partner's). */
  registration(partner: string, id: string): RegistrationRecord {
    const r = this.store.of(partner).registrations.get(id);
    if (!r) throw notFound(`No registration with id ${id}`);
    return r;
  }

  /**
   * Resolves a PATCH selector. 404 when nothing matches; 409 when an invoice number (without store number)
   * matches several registrations ("use the :id form").
   */
  select(partner: string, sel: Selector): RegistrationRecord {
    if ('id' in sel) return this.registration(partner, sel.id);
    const d = this.store.of(partner);
    if (sel.storeNumber !== undefined) {
      const id = d.regByKey.get(invoiceKey(sel.invoiceNumber, sel.storeNumber));
      if (!id) throw notFound(`No registration with invoiceNumber ${sel.invoiceNumber} and storeNumber ${sel.storeNumber}`);
      return d.registrations.get(id) as RegistrationRecord;
    }
    const ids = d.regByInvoice.get(sel.invoiceNumber) ?? [];
    if (ids.length === 0) throw notFound(`No registration with invoiceNumber ${sel.invoiceNumber}`);
    if (ids.length > 1) {
      throw conflict(`invoiceNumber ${sel.invoiceNumber} is not unique (${ids.length} registrations): add storeNumber or use the :id form`);
    }
    return d.registrations.get(ids[0] as string) as RegistrationRecord;
  }

  /**
   * Cancels a registration (v3 PATCH with cancelledOn): all tires left are cancelled.
   * 409 when already cancelled (spec: "Cancelled — cancellation again — 409") or when the program terms
   * forbid it (the registration has expired, or cancelledOn precedes enrollDate).
   */
  cancelRegistration(partner: string, sel: Selector, cancelledOn: string): void {
    const r = this.select(partner, sel);
    const c = this.counts(r);
    if (c.cancelledOn !== undefined) throw conflict(`Registration ${r._id} is already cancelled (cancelledOn ${c.cancelledOn})`);
    if (c.expired) throw conflict(`Registration ${r._id} expired on ${c.expirationDate}: the program terms forbid cancelling it`);
    const when = isoDate(cancelledOn);
    if (Date.parse(when) < Date.parse(r.enrollDate)) throw conflict(`cancelledOn ${cancelledOn} precedes enrollDate: the program terms forbid it`);
    const now = this.nowIso();
    const cancellation: CancellationRecord = { source: 'v3', createdDate: now, cancelledOn: when, tireCount: c.tiresLeft, body: { cancelledOn } };
    this.store.commit({ t: 'reg', p: partner, r: { ...r, statusDate: now, cancellations: [...r.cancellations, cancellation] } });
  }

  /**
   * Files a v3 claim. 404 unknown registration; 409 when cancelled, expired, or fewer tires left than the
   * claim's tires (spec: Business rules). Returns the claim id (a number).
   */
  fileClaim(partner: string, id: string, body: Body): number {
    const r = this.registration(partner, id);
    const tireCount = Math.max(1, arr(body.tires).length);
    this.checkClaimable(r, tireCount);
    const now = this.nowIso();
    const claim: ClaimRecord = { id: this.store.takeClaimId(), source: 'v3', createdDate: now, tireCount, body };
    this.store.commit({ t: 'reg', p: partner, r: { ...r, statusDate: now, claims: [...r.claims, claim] } });
    return claim.id;
  }

  private checkClaimable(r: RegistrationRecord, tireCount: number, alreadyClaimedByThis = 0): void {
    const c = this.counts(r);
    if (c.cancelledOn !== undefined) throw conflict(`Registration ${r._id} is cancelled: no claim can be filed`);
    if (c.expired) throw conflict(`Registration ${r._id} expired on ${c.expirationDate}: no claim can be filed`);
    const left = c.tiresLeft + alreadyClaimedByThis;
    if (left < tireCount) throw conflict(`Registration ${r._id} has ${left} tire(s) left; the claim needs ${tireCount}`);
  }

  /** Metadata of a registration (spec: Registration metadata). */
  metadata(partner: string, id: string): Record<string, unknown> {
    const r = this.registration(partner, id);
    const c = this.counts(r);
    const isActive = c.cancelledOn === undefined && !c.expired;
    return {
      enrollDate: r.enrollDate,
      expirationDate: c.expirationDate,
      claimedTiresCount: c.tireClaimCount,
      availableTiresCount: c.tiresLeft,
      hasTiresToClaim: isActive && c.tiresLeft > 0,
      hasTiresToReplace: isActive && c.tiresLeft > 0,
      isActive,
    };
  }

  /**
   * One page of the partner's registrations in creation order, optionally filtered by invoiceNumber and/or
   * storeNumber (index lookups: the cost depends on the page, not on how many are stored).
   */
  listRegistrations(
    partner: string,
    q: { page: number; pageSize: number; invoiceNumber?: string; storeNumber?: string },
    view: (r: RegistrationRecord) => unknown,
  ): ListEnvelope<unknown> {
    const d = this.store.of(partner);
    let ids: readonly string[] | undefined;
    if (q.invoiceNumber !== undefined && q.storeNumber !== undefined) {
      const id = d.regByKey.get(invoiceKey(q.invoiceNumber, q.storeNumber));
      ids = id ? [id] : [];
    } else if (q.invoiceNumber !== undefined) ids = d.regByInvoice.get(q.invoiceNumber) ?? [];
    else if (q.storeNumber !== undefined) ids = d.regByStore.get(q.storeNumber) ?? [];
    if (ids) {
      const start = (q.page - 1) * q.pageSize;
      const page = ids.slice(start, start + q.pageSize).map((id) => view(d.registrations.get(id) as RegistrationRecord));
      return envelope(page, ids.length, q.page, q.pageSize);
    }
    return pageOf(d.registrations, q.page, q.pageSize, view);
  }

  /** The earlier-revision view of a registration (spec: Registration, earlier revision). */
  registrationView(r: RegistrationRecord): Record<string, unknown> {
    const out: Record<string, unknown> = { ...this.v3Body(r), _id: r._id };
    const last = r.cancellations[r.cancellations.length - 1];
    if (last) out.cancelledOn = last.cancelledOn;
    return out;
  }

  /** The tire-protection view; `withClaims` adds the claims (read by id). */
  tireProtectionView(r: RegistrationRecord, withClaims: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = { ...this.v3Body(r), _id: r._id, program_id: SANDBOX_PROGRAM_ID };
    const last = r.cancellations[r.cancellations.length - 1];
    if (last) out.cancelledOn = last.cancelledOn;
    if (withClaims) out.claims = r.claims.map((cl) => this.v3Claim(r, cl));
    return out;
  }

  private v3Body(r: RegistrationRecord): Readonly<Record<string, unknown>> {
    if (r.source !== 'v2') return r.body;
    const b = r.body;
    const tires = [];
    for (let i = 0; i < r.tiresCovered; i++) {
      tires.push(compact({ make: str(b.TireBrand), model: str(b.TireModel), size: str(b.TireSize), retailPrice: num(b.TirePrice), dot: i < 6 ? (b[`TireDOT${i + 1}`] as string | undefined) : undefined }));
    }
    const year = num(b.VehicleYear, NaN);
    const vehicle =
      b.VehicleMake !== undefined || b.VehicleModel !== undefined || b.VIN !== undefined
        ? compact({ year: Number.isFinite(year) ? year : undefined, make: str(b.VehicleMake), model: str(b.VehicleModel), vin: b.VIN, mileage: b.CurrentMileage })
        : undefined;
    return compact({
      product_id: SANDBOX_PROGRAM_ID,
      invoiceNumber: r.invoiceNumber,
      storeNumber: r.storeNumber || undefined,
      enrollDate: r.enrollDate,
      customer: { name: str(b.CustomerID) },
      vehicle,
      tires,
    });
  }

  private v3Claim(r: RegistrationRecord, cl: ClaimRecord): Record<string, unknown> {
    if (cl.source === 'v3') return { id: cl.id, ...cl.body };
    const b = cl.body;
    const original = obj(arr(this.v3Body(r).tires)[0]);
    const tires = [];
    for (let i = 0; i < cl.tireCount; i++) {
      const replacement = b.ServiceType === 'REPAIR' ? undefined : { make: str(b.TireBrand), model: str(b.TireModel), size: str(b.TireSize) };
      tires.push(compact({ original: { make: str(original.make), model: str(original.model), size: str(original.size) }, replacement }));
    }
    return compact({
      id: cl.id,
      serviceInvoiceNumber: str(b.RepairInvoiceNumber),
      serviceInvoiceDate: isoDate(b.ClaimDate),
      vehicleMileage: b.VehicleMileage,
      damageReason: b.ServiceType,
      damageDescription: b.ServiceDescription,
      authorizedAmount: num(b.CreditAmount),
      tires,
    });
  }

  // ------------------------------------------------------------------------------------------
  // Version 2 views and records
  // ------------------------------------------------------------------------------------------

  /** v2 registration record (rec=registrations): the fields as sent (or mapped from v3) plus PartnerID. */
  v2Registration(p: PartnerRecord, r: RegistrationRecord): Record<string, unknown> {
    if (r.source === 'v2') {
      return compact({ ...r.body, OrgID: str(r.body.OrgID), CommercialVehicle: r.body.CommercialVehicle === 'Yes' ? 'true' : 'false', PartnerID: p.num });
    }
    const b = r.body;
    const customer = obj(b.customer);
    const vehicle = obj(b.vehicle);
    const tires = arr(b.tires).map(obj);
    const first = tires[0] ?? {};
    const out: Record<string, unknown> = {
      OrgID: r.orgId,
      ShopID: r.storeNumber,
      InvoiceNumber: r.invoiceNumber,
      PlanEnrollDate: r.enrollDate,
      EmployeeID: '',
      CustomerID: str(customer.name),
      VehicleYear: vehicle.year !== undefined ? String(vehicle.year) : undefined,
      VehicleMake: vehicle.make,
      VehicleModel: vehicle.model,
      VIN: vehicle.vin,
      CurrentMileage: vehicle.mileage,
      TiresCovered: r.tiresCovered,
      TPPPrice: 0,
      TireBrand: str(first.make),
      TireModel: str(first.model),
      TireSize: str(first.size),
      TirePrice: num(first.retailPrice),
      TireCost: 0,
      CommercialVehicle: 'false',
      PartnerID: p.num,
    };
    tires.slice(0, 6).forEach((t, i) => {
      out[`TireDOT${i + 1}`] = str(t.dot);
    });
    return compact(out);
  }

  /** v2 registration status record (rec=registrationstatus; spec: Registration status record (v2)). */
  v2Status(p: PartnerRecord, r: RegistrationRecord): Record<string, unknown> {
    const c = this.counts(r);
    return {
      RegistrationID: r.registrationId,
      PartnerID: p.num,
      OrgID: r.orgId,
      ShopID: r.storeNumber,
      InvoiceNumber: r.invoiceNumber,
      PlanEnrollDate: r.enrollDate,
      CreatedDate: r.createdDate,
      TiresCovered: c.tiresCovered,
      TireClaimCount: c.tireClaimCount,
      TireCancelCount: c.tireCancelCount,
      TiresLeft: c.tiresLeft,
      WarrantyStatus: c.warrantyStatus,
      CancelDate: c.cancelledOn ?? '',
      ExpireDate: c.expirationDate,
      StatusDate: c.expired && c.cancelledOn === undefined ? c.expirationDate : r.statusDate,
      Message: WARRANTY_MESSAGE[c.warrantyStatus] ?? '',
    };
  }

  private v2Claims(p: PartnerRecord, r: RegistrationRecord): Record<string, unknown>[] {
    const regTirePrice = num(r.source === 'v2' ? r.body.TirePrice : obj(arr(r.body.tires)[0]).retailPrice);
    return r.claims.map((cl) => {
      if (cl.source === 'v2') return { ...cl.body, OrgID: str(cl.body.OrgID), TirePrice: regTirePrice, PartnerID: p.num };
      const b = cl.body;
      const t = obj(obj(arr(b.tires)[0]).replacement);
      const o = obj(obj(arr(b.tires)[0]).original);
      return compact({
        OrgID: r.orgId,
        ShopID: r.storeNumber,
        InvoiceNumber: r.invoiceNumber,
        ClaimDate: str(b.serviceInvoiceDate),
        RepairShopID: r.storeNumber,
        RepairInvoiceNumber: str(b.serviceInvoiceNumber),
        VehicleMileage: b.vehicleMileage,
        TireClaimCount: cl.tireCount,
        CreditAmount: num(b.authorizedAmount),
        CostPerUnit: 0,
        ServiceType: Object.keys(t).length > 0 ? 'REPLACE' : 'REPAIR',
        ServiceDescription: [b.damageReason, b.damageDescription].filter((x) => typeof x === 'string').join(': ') || undefined,
        TireBrand: str(t.make ?? o.make),
        TireModel: str(t.model ?? o.model),
        TireSize: str(t.size ?? o.size),
        TireCost: 0,
        TirePrice: regTirePrice,
        PartnerID: p.num,
      });
    });
  }

  private v2Cancellations(p: PartnerRecord, r: RegistrationRecord): Record<string, unknown>[] {
    return r.cancellations.map((c) =>
      c.source === 'v2'
        ? { ...c.body, OrgID: str(c.body.OrgID), PartnerID: p.num }
        : {
            OrgID: r.orgId,
            ShopID: r.storeNumber,
            InvoiceNumber: r.invoiceNumber,
            CancelShopID: r.storeNumber,
            CancelInvoiceNumber: r.invoiceNumber,
            TireCancelCount: c.tireCount,
            CancelDate: c.cancelledOn,
            PartnerID: p.num,
          },
    );
  }

  /**
   * v2 GET: the records of kind `rec` of the partner, filtered by ShopID / InvoiceNumber / PartnerID when
   * given. Always an array (possibly empty). A `partnerid` other than the caller's matches nothing.
   */
  v2Get(p: PartnerRecord, rec: string, f: { shopId?: string; invoiceNumber?: string; partnerId?: string }): Record<string, unknown>[] {
    if (f.partnerId !== undefined && f.partnerId !== String(p.num) && f.partnerId !== p.id) return [];
    const d = this.store.of(p.id);
    if (rec === 'sales') {
      const all = f.invoiceNumber !== undefined && f.shopId !== undefined ? [d.sales.get(invoiceKey(f.invoiceNumber, f.shopId))].filter((x) => x !== undefined) : [...d.sales.values()];
      return all.filter((s) => match(s.body, f)).map((s) => ({ ...s.body, OrgID: str(s.body.OrgID), PartnerID: p.num }));
    }
    const regs = this.regsMatching(d, f);
    const out: Record<string, unknown>[] = [];
    for (const r of regs) {
      if (rec === 'registrations') out.push(this.v2Registration(p, r));
      else if (rec === 'registrationstatus') out.push(this.v2Status(p, r));
      else if (rec === 'claims') out.push(...this.v2Claims(p, r));
      else if (rec === 'cancellations') out.push(...this.v2Cancellations(p, r));
    }
    return out;
  }

  private regsMatching(d: PartnerData, f: { shopId?: string; invoiceNumber?: string }): RegistrationRecord[] {
    let ids: readonly string[];
    if (f.invoiceNumber !== undefined && f.shopId !== undefined) {
      const id = d.regByKey.get(invoiceKey(f.invoiceNumber, f.shopId));
      ids = id ? [id] : [];
    } else if (f.invoiceNumber !== undefined) ids = d.regByInvoice.get(f.invoiceNumber) ?? [];
    else if (f.shopId !== undefined) ids = d.regByStore.get(f.shopId) ?? [];
    else return d.registrations.slice(0, d.registrations.size);
    return ids.map((id) => d.registrations.get(id) as RegistrationRecord);
  }

  /** Outcome of one record of a v2 POST. */
  v2Post(p: PartnerRecord, kind: 'Registrations' | 'Claims' | 'Sales' | 'Cancellations', records: readonly Body[]): V2PostOutcome[] {
    return records.map((rec, index) => {
      try {
        switch (kind) {
          case 'Registrations':
            return { index, ...this.v2Registrations(p.id, rec) };
          case 'Claims':
            return { index, ...this.v2Claim(p.id, rec) };
          case 'Sales':
            return { index, ...this.v2Sale(p.id, rec) };
          case 'Cancellations':
            return { index, ...this.v2Cancellation(p.id, rec) };
        }
      } catch (err) {
        if (err instanceof ApiError) return { index, status: 'rejected', statusCode: err.statusCode, message: err.message };
        throw err;
      }
    });
  }

  private v2Registrations(partner: string, b: Body): Omit<V2PostOutcome, 'index'> {
    const d = this.store.of(partner);
    const invoiceNumber = str(b.InvoiceNumber);
    const shopId = str(b.ShopID);
    const existingId = d.regByKey.get(invoiceKey(invoiceNumber, shopId));
    const now = this.nowIso();
    const existing = existingId ? d.registrations.get(existingId) : undefined;
    const r: RegistrationRecord = {
      _id: existing?._id ?? this.store.newId(),
      registrationId: existing?.registrationId ?? this.store.takeRegistrationNumber(),
      source: 'v2',
      invoiceNumber,
      storeNumber: shopId,
      orgId: str(b.OrgID),
      enrollDate: isoDate(b.PlanEnrollDate),
      createdDate: existing?.createdDate ?? now,
      statusDate: now,
      tiresCovered: Math.max(0, num(b.TiresCovered)),
      body: b,
      claims: existing?.claims ?? [],
      cancellations: existing?.cancellations ?? [],
    };
    this.store.commit({ t: 'reg', p: partner, r });
    return { status: existing ? 'updated' : 'created', statusCode: existing ? 200 : 201, RegistrationID: r.registrationId, id: r._id };
  }

  private v2Target(partner: string, b: Body): RegistrationRecord {
    const d = this.store.of(partner);
    const id = d.regByKey.get(invoiceKey(str(b.InvoiceNumber), str(b.ShopID)));
    if (!id) throw notFound(`No registration with ShopID ${str(b.ShopID)} and InvoiceNumber ${str(b.InvoiceNumber)}`);
    return d.registrations.get(id) as RegistrationRecord;
  }

  /** A v2 claim; identity RepairShopID + RepairInvoiceNumber on the same registration: a resend updates it. */
  private v2Claim(partner: string, b: Body): Omit<V2PostOutcome, 'index'> {
    const r = this.v2Target(partner, b);
    const tireCount = Math.max(1, num(b.TireClaimCount, 1));
    const same = r.claims.find((c) => c.source === 'v2' && c.body.RepairShopID === b.RepairShopID && c.body.RepairInvoiceNumber === b.RepairInvoiceNumber);
    this.checkClaimable(r, tireCount, same?.tireCount ?? 0);
    const now = this.nowIso();
    const claim: ClaimRecord = { id: same?.id ?? this.store.takeClaimId(), source: 'v2', createdDate: same?.createdDate ?? now, tireCount, body: b };
    const claims = same ? r.claims.map((c) => (c === same ? claim : c)) : [...r.claims, claim];
    this.store.commit({ t: 'reg', p: partner, r: { ...r, statusDate: now, claims } });
    return { status: same ? 'updated' : 'created', statusCode: same ? 200 : 201, RegistrationID: r.registrationId, ClaimID: claim.id };
  }

  private v2Sale(partner: string, b: Body): Omit<V2PostOutcome, 'index'> {
    const d = this.store.of(partner);
    const existing = d.sales.get(invoiceKey(str(b.InvoiceNumber), str(b.ShopID)));
    const r: PlainRecord = { id: existing?.id ?? this.store.takePlainId(), createdDate: existing?.createdDate ?? this.nowIso(), body: b };
    this.store.commit({ t: 'sale', p: partner, key: saleKeyOf(r), r });
    return { status: existing ? 'updated' : 'created', statusCode: existing ? 200 : 201 };
  }

  /**
   * A v2 cancellation. Identity OrgID + ShopID + InvoiceNumber + CancelShopID + CancelInvoiceNumber: a resend
   * updates it. A different cancellation of a cancelled registration is 409; of an expired one, 409.
   */
  private v2Cancellation(partner: string, b: Body): Omit<V2PostOutcome, 'index'> {
    const r = this.v2Target(partner, b);
    const same = r.cancellations.find(
      (c) =>
        c.source === 'v2' &&
        str(c.body.OrgID) === str(b.OrgID) &&
        c.body.ShopID === b.ShopID &&
        c.body.InvoiceNumber === b.InvoiceNumber &&
        c.body.CancelShopID === b.CancelShopID &&
        c.body.CancelInvoiceNumber === b.CancelInvoiceNumber,
    );
    const c = this.counts(r);
    if (!same) {
      if (c.cancelledOn !== undefined) throw conflict(`Registration ${r.registrationId} is already cancelled`);
      if (c.expired) throw conflict(`Registration ${r.registrationId} expired on ${c.expirationDate}: the program terms forbid cancelling it`);
    }
    const available = c.tiresLeft + (same?.tireCount ?? 0);
    const now = this.nowIso();
    const cancellation: CancellationRecord = {
      source: 'v2',
      createdDate: same?.createdDate ?? now,
      cancelledOn: isoDate(b.CancelDate),
      tireCount: Math.min(available, Math.max(0, num(b.TireCancelCount))),
      body: b,
    };
    const cancellations = same ? r.cancellations.map((x) => (x === same ? cancellation : x)) : [...r.cancellations, cancellation];
    this.store.commit({ t: 'reg', p: partner, r: { ...r, statusDate: now, cancellations } });
    return { status: same ? 'updated' : 'created', statusCode: same ? 200 : 201, RegistrationID: r.registrationId };
  }

  // ------------------------------------------------------------------------------------------
  // Shops, parts, transactions
  // ------------------------------------------------------------------------------------------

  /** Creates a shop; 409 when its uniqueId already exists (for this partner). */
  createShop(partner: string, body: Body): void {
    const d = this.store.of(partner);
    const uniqueId = str(body.uniqueId);
    if (d.shops.get(uniqueId)) throw conflict(`A shop with uniqueId ${uniqueId} already exists`);
    this.store.commit({ t: 'shop', p: partner, r: { uniqueId, createdDate: this.nowIso(), body, parts: [] } });
  }

  private shop(partner: string, uniqueId: string): ShopRecord {
    const s = this.store.of(partner).shops.get(uniqueId);
    if (!s) throw notFound(`No shop with uniqueId ${uniqueId}`);
    return s;
  }

  /**
   * Updates a shop: the body's properties replace the stored ones, except arrays of e-mail addresses which
   * are added to the existing ones. 404 when the shop is unknown.
   */
  updateShop(partner: string, uniqueId: string, body: Body): void {
    const s = this.shop(partner, uniqueId);
    const merged: Record<string, unknown> = { ...s.body };
    for (const [k, v] of Object.entries(body)) {
      const old = merged[k];
      merged[k] = Array.isArray(v) && Array.isArray(old) ? [...new Set([...old, ...v])] : v;
    }
    this.store.commit({ t: 'shop', p: partner, r: { ...s, body: merged } });
  }

  /** Records a part sold to a shop; 404 when the shop is unknown. */
  addPart(partner: string, uniqueId: string, body: Body): void {
    const s = this.shop(partner, uniqueId);
    this.store.commit({ t: 'shop', p: partner, r: { ...s, parts: [...s.parts, body] } });
  }

  /**
   * Shop lookup (spec: Shops and parts): `query` is a phone number (matched on its last 10 digits) or a name
   * and address (matched when the query contains the shop's legal name or dba and its address line1, ignoring
   * case and punctuation). 404 when nothing matches. Returns the lookup result of the first match.
   */
  lookupShop(partner: string, query: string): Record<string, unknown> {
    const d = this.store.of(partner);
    const digits = query.replace(/\D/g, '');
    const norm = normalize(query);
    const isPhone = digits.length >= 7 && /^[\d\s()+.\-/]+$/.test(query.trim());
    for (const s of d.shops.values()) {
      const b = s.body;
      const a = obj(b.address);
      let hit = false;
      if (isPhone) {
        const phone = str(b.phone).replace(/\D/g, '');
        hit = phone.length >= 7 && phone.slice(-10) === digits.slice(-10);
      } else {
        const names = [str(b.legalName), str(b.dba)].map(normalize).filter((n) => n.length > 0);
        const line1 = normalize(str(a.line1));
        hit = names.some((n) => norm.includes(n)) && line1.length > 0 && norm.includes(line1);
      }
      if (hit) {
        return compact({
          name: str(b.dba) || str(b.legalName),
          phone: str(b.phone),
          line1: str(a.line1),
          line2: str(a.line2),
          city: str(a.city),
          state: str(a.state),
          zip: str(a.zip),
          country: str(a.country),
          placeId: str(b.placeId),
          location: { type: 'Point', coordinates: pseudoCoordinates(str(b.placeId) || s.uniqueId) },
        });
      }
    }
    throw notFound('No shop matches the query');
  }

  /** Records a manufacturer-to-dealer transaction. */
  createTransaction(partner: string, body: Body): void {
    this.store.commit({ t: 'txn', p: partner, r: { id: this.store.takePlainId(), createdDate: this.nowIso(), body } });
  }

  // ------------------------------------------------------------------------------------------
  // Motor club
  // ------------------------------------------------------------------------------------------

  /** Creates a motor-club registration; unique by invoiceNumber (409 on a duplicate). Returns its `_id`. */
  createMotorClub(partner: string, body: Body): string {
    const d = this.store.of(partner);
    const invoiceNumber = str(body.invoiceNumber);
    if ((d.motorClubByInvoice.get(invoiceNumber) ?? []).length > 0) throw conflict(`A motor-club registration with invoiceNumber ${invoiceNumber} already exists`);
    const r: MotorClubRecord = { _id: this.store.newId(), invoiceNumber, createdDate: this.nowIso(), body };
    this.store.commit({ t: 'mc', p: partner, r });
    return r._id;
  }

  /** Motor-club registration by id or invoice number; 404 unknown, 409 invoice number not unique. */
  motorClub(partner: string, sel: Selector): MotorClubRecord {
    const d = this.store.of(partner);
    if ('id' in sel) {
      const r = d.motorClub.get(sel.id);
      if (!r) throw notFound(`No motor-club registration with id ${sel.id}`);
      return r;
    }
    const ids = d.motorClubByInvoice.get(sel.invoiceNumber) ?? [];
    if (ids.length === 0) throw notFound(`No motor-club registration with invoiceNumber ${sel.invoiceNumber}`);
    if (ids.length > 1) throw conflict(`invoiceNumber ${sel.invoiceNumber} is not unique: use the :id form`);
    return d.motorClub.get(ids[0] as string) as MotorClubRecord;
  }

  /** The motor-club view: the body plus `_id` and `cancelledOn` when cancelled. */
  motorClubView(r: MotorClubRecord): Record<string, unknown> {
    return compact({ ...r.body, _id: r._id, cancelledOn: r.cancelledOn });
  }

  /** Replaces the customer of a motor-club registration; 409 when it is cancelled. */
  updateMotorClubCustomer(partner: string, sel: Selector, customer: unknown): void {
    const r = this.motorClub(partner, sel);
    if (r.cancelledOn !== undefined) throw conflict(`Motor-club registration ${r._id} is cancelled`);
    this.store.commit({ t: 'mc', p: partner, r: { ...r, body: { ...r.body, customer } } });
  }

  /** Cancels a motor-club registration; 409 when already cancelled. */
  cancelMotorClub(partner: string, sel: Selector, cancelledOn: string): void {
    const r = this.motorClub(partner, sel);
    if (r.cancelledOn !== undefined) throw conflict(`Motor-club registration ${r._id} is already cancelled (cancelledOn ${r.cancelledOn})`);
    this.store.commit({ t: 'mc', p: partner, r: { ...r, cancelledOn: isoDate(cancelledOn) } });
  }

  /** One page of the partner's motor-club registrations. */
  listMotorClub(partner: string, page: number, pageSize: number): ListEnvelope<unknown> {
    return pageOf(this.store.of(partner).motorClub, page, pageSize, (r) => this.motorClubView(r));
  }
}

/** Outcome of one record of a v2 POST (returned in the response's `results`). */
export interface V2PostOutcome {
  readonly index: number;
  readonly status: 'created' | 'updated' | 'rejected';
  readonly statusCode: number;
  readonly message?: string;
  readonly RegistrationID?: number;
  readonly ClaimID?: number;
  readonly id?: string;
}

function envelope<T>(results: T[], total: number, page: number, pageSize: number): ListEnvelope<T> {
  return { results, totalRecordCount: total, page, pageSize, totalPages: Math.ceil(total / pageSize) };
}

function pageOf<T>(m: OrderedMap<T>, page: number, pageSize: number, view: (r: T) => unknown): ListEnvelope<unknown> {
  const start = (page - 1) * pageSize;
  return envelope(m.slice(start, start + pageSize).map(view), m.size, page, pageSize);
}

function match(b: Body, f: { shopId?: string; invoiceNumber?: string }): boolean {
  return (f.shopId === undefined || b.ShopID === f.shopId) && (f.invoiceNumber === undefined || b.InvoiceNumber === f.invoiceNumber);
}

function normalize(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** Deterministic longitude/latitude (in the continental US) derived from a string. */
function pseudoCoordinates(seed: string): [number, number] {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619) >>> 0;
  const lng = -124 + ((h & 0xffff) / 0xffff) * 57;
  const lat = 25 + ((h >>> 16) / 0xffff) * 24;
  return [Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6];
}
