import { randomBytes } from 'node:crypto';
import { ERROR_NAMES, SANDBOX_STATUS_TABLE } from '../../contract';
import { MAX_TIRE_COUNT } from '../../contract/limits';
import { SandboxDb, UNIQUE_VIOLATION, constraintOf, sqlState } from '../db/database';
import { RegistrationCounts, RegistrationRecord, RegistrationSource, countsOf } from '../model';

/**
 * What every resource module of the Local sandbox shares (spec: Endpoints; Errors): the error type of an answer,
 * the operations' context (database, clock, program term), row mapping and paging.
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

/** The `error` name of a status (the contract's names, then the sandbox's own statuses; others get a generic name). */
export function errorName(status: number): string {
  return ERROR_NAMES[status] ?? SANDBOX_STATUS_TABLE[status]?.error ?? (status >= 500 ? 'internal_server_error' : 'bad_request');
}

export const notFound = (what: string) => new ApiError(404, 'not_found', what);
export const conflict = (what: string) => new ApiError(409, 'conflict', what);

/**
 * A registration as a 409's message names it: by its invoice number, as the partner and the editor know it, with the
 * identifier of the version that was called (v3 `_id`, v2 RegistrationID); the identifier alone when it has none.
 */
export const registrationName = (r: RegistrationRecord, id: string | number = r._id): string => (r.invoiceNumber ? `Registration ${r.invoiceNumber} (${id})` : `Registration ${id}`);
export const badRequest = (what: string, path = '') => new ApiError(400, 'bad_request', what, [{ path, message: what }]);

/** Program identifier returned as `program_id` on tire-protection reads. */
export const SANDBOX_PROGRAM_ID = 'local-sandbox-tire-protection';

/** Maximum `pageSize` the sandbox accepts (the spec leaves it open). */
export const MAX_PAGE_SIZE = 1000;

/** Maximum number of records one version 2 GET answers (its shape for several matches is "not shown"). */
export const MAX_V2_RECORDS = 1000;

/**
 * 400 unless `n` tires (a count that expands into one object per tire) is within `min`..{@link MAX_TIRE_COUNT}: a
 * count outside is refused, never clamped, so what is read back is what was sent (docs/contract.md, "Tire counts").
 */
export function checkTireCount(n: number, path: string, min = 0): void {
  if (n > MAX_TIRE_COUNT) throw badRequest(`${path} is ${n}: the Local sandbox accepts at most ${MAX_TIRE_COUNT} tires per record`, path);
  if (n < min) throw badRequest(`${path} is ${n}: the Local sandbox accepts ${min} to ${MAX_TIRE_COUNT} tires per record${min > 0 ? ' (a claim repairs at least one tire)' : ' (a count of tires is never negative)'}`, path);
}

/** The list envelope (spec: List envelope). */
export interface ListEnvelope<T> {
  readonly results: T[];
  readonly totalRecordCount: number;
  readonly page: number;
  readonly pageSize: number;
  readonly totalPages: number;
}

export function envelope<T>(results: T[], total: number, page: number, pageSize: number): ListEnvelope<T> {
  return { results, totalRecordCount: total, page, pageSize, totalPages: Math.ceil(total / pageSize) };
}

/** Selects a record for a PATCH: by `_id`, or by invoice number with an optional store number. */
export type Selector = { readonly id: string } | { readonly invoiceNumber: string; readonly storeNumber?: string };

export type Body = Readonly<Record<string, unknown>>;

export function obj(v: unknown): Body {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Body) : {};
}

export function arr(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Removes undefined properties (so JSON output and equality are stable). */
export function compact(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

const PROCESS_PART = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

/**
 * A new 24-hex-digit record identifier, shaped like a MongoDB ObjectId (the spec's `_id`): 4 bytes of Unix seconds of
 * `nowMs` (the sandbox's clock, so an id follows a moved clock: docs/testing-your-application.md, Time and tokens),
 * 5 random bytes per process, a 3-byte counter. The counter keeps ids unique under a frozen clock; while the clock
 * runs forward, ids of one process increase, so the primary-key index grows at its end instead of at random places.
 */
export function newId(nowMs: number): string {
  return idPrefix(nowMs) + reserveIds(1).toString(16).padStart(6, '0');
}

/** The first 18 hex digits of {@link newId}: the seconds of `nowMs` (ms since epoch) and the process part. */
export function idPrefix(nowMs: number): string {
  return Math.floor(nowMs / 1000).toString(16).padStart(8, '0').slice(-8) + PROCESS_PART;
}

/**
 * Reserves `n` consecutive values of the process's id counter and returns the first (a bulk load appends
 * `(first + i) mod 2^24` to one {@link idPrefix}). No other id of this process gets them; the counter wraps only after
 * 16,777,216 ids.
 */
export function reserveIds(n: number): number {
  const first = (counter + 1) % 0x1000000;
  counter = (counter + n) % 0x1000000;
  return first;
}

/** Whether `err` is a unique violation of `constraint` (a database constraint named in the migrations). */
export function violates(err: unknown, constraint: string): boolean {
  return sqlState(err) === UNIQUE_VIOLATION && constraintOf(err) === constraint;
}

/** What the operations run on: the database, the clock (ms since epoch) and the program term in months. */
export class OpsContext {
  constructor(
    readonly db: SandboxDb,
    readonly now: () => number,
    readonly termMonths: number,
  ) {}

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** The same database and term with a clock held at `ms` (ms since epoch): what it writes is stamped with that instant. */
  at(ms: number): OpsContext {
    return new OpsContext(this.db, () => ms, this.termMonths);
  }

  counts(r: RegistrationRecord): RegistrationCounts {
    return countsOf(r, this.now(), this.termMonths);
  }
}

/** Columns of `tpp.registrations` read into a {@link RegistrationRecord}. */
export const REG_COLUMNS =
  'id, registration_id, source, invoice_number, store_number, org_id, enroll_date, created_date, status_date, tires_covered, tire_claim_count, tire_cancel_count, cancelled_on, body';

export interface RegRow {
  id: string;
  registration_id: number;
  source: RegistrationSource;
  invoice_number: string | null;
  store_number: string;
  org_id: string;
  enroll_date: string;
  created_date: string;
  status_date: string;
  tires_covered: number;
  tire_claim_count: number;
  tire_cancel_count: number;
  cancelled_on: string | null;
  body: Body;
}

export function regOf(r: RegRow): RegistrationRecord {
  return {
    _id: r.id,
    registrationId: Number(r.registration_id),
    source: r.source,
    invoiceNumber: r.invoice_number ?? '',
    storeNumber: r.store_number,
    orgId: r.org_id,
    enrollDate: r.enroll_date,
    createdDate: r.created_date,
    statusDate: r.status_date,
    tiresCovered: Number(r.tires_covered),
    tireClaimCount: Number(r.tire_claim_count),
    tireCancelCount: Number(r.tire_cancel_count),
    ...(r.cancelled_on !== null ? { cancelledOn: r.cancelled_on } : {}),
    body: r.body,
  };
}
