/**
 * Records kept by the Local sandbox and the views derived from them (spec: Resources and their fields;
 * States and transitions). One tire registration record backs every view of it: the v2 registration and
 * registration-status records, the earlier-revision `/registrations` object, the tire-protection object and
 * its metadata. That is what keeps TiresLeft, TireClaimCount, TireCancelCount and WarrantyStatus consistent
 * whichever version wrote or reads it.
 */

/** Which interface created a tire registration. */
export type RegistrationSource = 'v2' | 'registrations' | 'tire-protection';

/** A claim filed against a tire registration (v2 Claims record or v3 claim). */
export interface ClaimRecord {
  /** Claim identifier (the v3 claim id, a number; unique across the sandbox). */
  readonly id: number;
  readonly source: 'v2' | 'v3';
  /** ISO 8601 time the sandbox stored the claim. */
  readonly createdDate: string;
  /** Tires this claim consumes (v2 TireClaimCount; v3 number of `tires` items). */
  readonly tireCount: number;
  /** The body as sent (validated). */
  readonly body: Readonly<Record<string, unknown>>;
}

/** A cancellation applied to a tire registration (v2 Cancellations record or v3 PATCH with cancelledOn). */
export interface CancellationRecord {
  readonly source: 'v2' | 'v3';
  readonly createdDate: string;
  /** ISO 8601 cancellation time (v2 CancelDate, v3 cancelledOn). */
  readonly cancelledOn: string;
  /** Tires cancelled by this cancellation. */
  readonly tireCount: number;
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * A stored tire registration: one row of `tpp.registrations` (the counters are kept by the same transaction that
 * files a claim or a cancellation; the database's CHECK keeps claimed + cancelled <= covered).
 */
export interface RegistrationRecord {
  /** v3 identifier (24 lowercase hex digits). */
  readonly _id: string;
  /** v2 RegistrationID (int, unique across the sandbox). */
  readonly registrationId: number;
  readonly source: RegistrationSource;
  /** `''` when the create carried none (such creates never collide with each other). */
  readonly invoiceNumber: string;
  /** v3 storeNumber = v2 ShopID; `''` when none was given. */
  readonly storeNumber: string;
  /** v2 OrgID; `''` when none. */
  readonly orgId: string;
  /**
   * ISO 8601 enrolment date (v3 enrollDate, v2 PlanEnrollDate), normalised with `new Date().toISOString()`; `''` when
   * the create carried none (a tire-protection registration's fields are all optional): then no expiry is computed.
   */
  readonly enrollDate: string;
  readonly createdDate: string;
  /** ISO 8601 time of the last status change. */
  readonly statusDate: string;
  /** Tires covered, 0..MAX_TIRE_COUNT. */
  readonly tiresCovered: number;
  /** Tires claimed so far (v2 TireClaimCount). */
  readonly tireClaimCount: number;
  /** Tires cancelled (v2 TireCancelCount). */
  readonly tireCancelCount: number;
  /** ISO 8601 cancellation time; undefined while not cancelled. */
  readonly cancelledOn?: string;
  /** The body as sent (validated), v2 record or v3 object. */
  readonly body: Readonly<Record<string, unknown>>;
}

/** Program term of the Local sandbox: a registration expires this many months after its enrolment date. */
export const DEFAULT_TERM_MONTHS = 36;

/** Counters derived from a registration, shared by every view. */
export interface RegistrationCounts {
  readonly tiresCovered: number;
  readonly tireClaimCount: number;
  readonly tireCancelCount: number;
  readonly tiresLeft: number;
  /** 1 Active, 2 Cancelled, 3 No Tires left, 4 Expired. */
  readonly warrantyStatus: 1 | 2 | 3 | 4;
  readonly cancelledOn?: string;
  /** Enrolment date plus the program term; undefined without an enrolment date (nothing to count the term from). */
  readonly expirationDate?: string;
  /** False without an enrolment date: a term that has no start has no end either (docs/contract.md). */
  readonly expired: boolean;
}

/** Adds `months` calendar months to an ISO date (day clamped to the month's length); returns ISO 8601. */
export function addMonths(iso: string, months: number): string {
  const d = new Date(iso);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.toISOString();
}

/**
 * Derives the counters and WarrantyStatus of a registration at time `nowMs` (milliseconds since epoch).
 * Precedence: Cancelled (2) over Expired (4) over No Tires left (3) over Active (1).
 * TiresLeft = TiresCovered − TireClaimCount − TireCancelCount, never below 0.
 */
export function countsOf(r: RegistrationRecord, nowMs: number, termMonths: number): RegistrationCounts {
  const { tireClaimCount, tireCancelCount, cancelledOn } = r;
  const tiresLeft = Math.max(0, r.tiresCovered - tireClaimCount - tireCancelCount);
  const expirationDate = r.enrollDate === '' ? undefined : addMonths(r.enrollDate, termMonths);
  const expired = expirationDate !== undefined && Date.parse(expirationDate) <= nowMs;
  const warrantyStatus = cancelledOn !== undefined ? 2 : expired ? 4 : tiresLeft === 0 ? 3 : 1;
  return { tiresCovered: r.tiresCovered, tireClaimCount, tireCancelCount, tiresLeft, warrantyStatus, cancelledOn, expirationDate, expired };
}

/** Normalises a date string accepted by the contract to ISO 8601 UTC (`YYYY-MM-DDTHH:mm:ss.sssZ`). */
export function isoDate(value: unknown): string {
  const ms = typeof value === 'string' || typeof value === 'number' ? Date.parse(String(value)) : NaN;
  return Number.isNaN(ms) ? new Date(0).toISOString() : new Date(ms).toISOString();
}

/** Converts a v2 number field (number or numeric string) to a number; `fallback` when absent or not numeric. */
export function num(value: unknown, fallback = 0): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : fallback;
}

/** A string field, or `''`. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
