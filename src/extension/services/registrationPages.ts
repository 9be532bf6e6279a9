/**
 * Loading of registration pages for the tree (no `vscode` import, so the tree benchmark runs it in plain Node).
 * Spec: Tire-protection registrations (list envelope, metadata), Motor-club registrations, States and transitions.
 */
import type { EndpointId } from '../../core/contract/types';

/**
 * A registration's state as the tree shows it. `Not cancelled` is all a list row says by itself (no `cancelledOn`):
 * Active, Expired and No tires left come from the registration's metadata, read when the row is expanded or acted on.
 */
export type RegistrationState = 'Active' | 'Cancelled' | 'Expired' | 'No tires left' | 'Not cancelled';

/** The `viewItem` suffix of a state (`registration.<suffix>`, `motorClub.<suffix>`): menus are offered by it. */
export const STATE_CONTEXT: Readonly<Record<RegistrationState, string>> = {
  Active: 'active',
  Cancelled: 'cancelled',
  Expired: 'expired',
  'No tires left': 'noTiresLeft',
  'Not cancelled': 'open',
};

/** The metadata object (spec: Registration metadata). Fields may be missing in a server's answer. */
export interface RegistrationMetadataView {
  readonly enrollDate?: string;
  readonly expirationDate?: string;
  readonly claimedTiresCount?: number;
  readonly availableTiresCount?: number;
  readonly hasTiresToClaim?: boolean;
  readonly hasTiresToReplace?: boolean;
  readonly isActive?: boolean;
}

/** One row: the record as listed, its metadata (tire protection, once read) and the state derived from both. */
export interface RegistrationRow {
  readonly record: Record<string, unknown>;
  readonly metadata?: RegistrationMetadataView;
  /** Why the metadata could not be read (the row is still shown). */
  readonly metadataError?: string;
  readonly state: RegistrationState;
}

/** A string property of a row's record (`_id`, `invoiceNumber`, …), or `''` when absent or not a string. */
export function rowText(row: RegistrationRow, name: string): string {
  const v = row.record[name];
  return typeof v === 'string' ? v : '';
}

/** One loaded page. */
export interface RegistrationPage {
  readonly page: number;
  readonly pageSize: number;
  readonly totalRecordCount?: number;
  readonly totalPages?: number;
  readonly rows: readonly RegistrationRow[];
}

/** Which list: tire protection (with metadata and filters) or motor club. */
export type RegistrationProduct = 'tire-protection' | 'motor-club';

/** Options of one call of the loader: query, cancellation, and `quiet` (kept out of the request history). */
export interface ListCallOptions {
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly signal?: AbortSignal;
  readonly quiet?: boolean;
}

/** The call the loader needs: a list or metadata endpoint, its path parameters and options, answering the parsed body. */
export type ListCall = (endpointId: EndpointId, params: Readonly<Record<string, string>>, options: ListCallOptions) => Promise<{ body: unknown }>;

/**
 * The state of a registration (spec: States and transitions; WarrantyStatus meanings): Cancelled when the record
 * carries `cancelledOn`; otherwise from the metadata: Expired when not active and the expiration date has passed,
 * No tires left when active but `availableTiresCount` is 0 (or `hasTiresToClaim` false), else Active; Not cancelled
 * without metadata (motor club: Active unless cancelled).
 *
 * @param nowMs current time in milliseconds since the epoch.
 */
export function registrationState(record: Record<string, unknown>, metadata: RegistrationMetadataView | undefined, nowMs: number, product: RegistrationProduct = 'tire-protection'): RegistrationState {
  if (typeof record.cancelledOn === 'string' && record.cancelledOn !== '') return 'Cancelled';
  if (product === 'motor-club') return 'Active';
  if (!metadata) return 'Not cancelled';
  const expires = typeof metadata.expirationDate === 'string' ? Date.parse(metadata.expirationDate) : NaN;
  if (metadata.isActive === false) return Number.isFinite(expires) && expires <= nowMs ? 'Expired' : 'Cancelled';
  if (Number.isFinite(expires) && expires <= nowMs) return 'Expired';
  if (metadata.availableTiresCount === 0 || metadata.hasTiresToClaim === false) return 'No tires left';
  return 'Active';
}

/** Options of {@link loadRegistrationPage}. */
export interface PageRequest {
  readonly product: RegistrationProduct;
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
  /** Tire protection only (spec: list query invoiceNumber, storeNumber). */
  readonly invoiceNumber?: string;
  readonly storeNumber?: string;
  readonly signal?: AbortSignal;
  /** Clock in milliseconds (tests). */
  readonly now?: () => number;
}

/**
 * Reads one page of registrations: one list request (spec: Tire-protection registrations, Motor-club registrations:
 * GET with page, pageSize and, for tire protection, the exact invoiceNumber and storeNumber filters). Each row's state
 * is what the listed record says (Cancelled, or Not cancelled); no per-row request is made. Errors of the list call
 * are thrown.
 */
export async function loadRegistrationPage(call: ListCall, req: PageRequest): Promise<RegistrationPage> {
  const tp = req.product === 'tire-protection';
  const query: Record<string, string | number | undefined> = { page: req.page, pageSize: req.pageSize };
  if (tp && req.invoiceNumber) query.invoiceNumber = req.invoiceNumber;
  if (tp && req.storeNumber) query.storeNumber = req.storeNumber;
  const res = await call(tp ? 'listTireProtectionRegistrations' : 'listMotorClubRegistrations', {}, { query, signal: req.signal });
  const env = (res.body ?? {}) as { results?: unknown; totalRecordCount?: unknown; totalPages?: unknown; page?: unknown; pageSize?: unknown };
  const records = (Array.isArray(env.results) ? env.results : []).filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object');
  const now = (req.now ?? Date.now)();
  return {
    page: typeof env.page === 'number' ? env.page : req.page,
    pageSize: typeof env.pageSize === 'number' ? env.pageSize : req.pageSize,
    totalRecordCount: typeof env.totalRecordCount === 'number' ? env.totalRecordCount : undefined,
    totalPages: typeof env.totalPages === 'number' ? env.totalPages : undefined,
    rows: records.map((record) => ({ record, state: registrationState(record, undefined, now, req.product) })),
  };
}

/** True when more pages exist after the loaded ones. */
export function hasMorePages(pages: readonly RegistrationPage[]): boolean {
  const last = pages.at(-1);
  if (!last) return false;
  if (last.totalPages !== undefined) return last.page < last.totalPages;
  if (last.totalRecordCount !== undefined) return pages.reduce((n, p) => n + p.rows.length, 0) < last.totalRecordCount;
  return last.rows.length >= last.pageSize;
}
