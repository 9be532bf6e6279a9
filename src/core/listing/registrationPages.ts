/**
 * Loading of registration pages for the tree (no `vscode` import, so the tree benchmark runs it in plain Node).
 * Spec: Tire-protection registrations (list envelope, metadata), Motor-club registrations, States and transitions.
 */
import type { EndpointId } from '../contract/types';
import { contentKey } from './uniqueRows';

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

/** States whose rows offer Cancel Registration (package.json menus: `viewItem =~ /^registration\.(active|noTiresLeft|open)$/`). */
export const CANCELLABLE: readonly RegistrationState[] = ['Active', 'No tires left', 'Not cancelled'];
/** States whose rows offer File Claim (package.json menus: `viewItem =~ /^registration\.(active|open)$/`). */
export const CLAIMABLE: readonly RegistrationState[] = ['Active', 'Not cancelled'];
/** States of motor-club rows offering Motor-Club: Cancel Registration (`viewItem == motorClub.active`). */
export const MOTOR_CLUB_CANCELLABLE: readonly RegistrationState[] = ['Active'];

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
  let body: unknown;
  try {
    body = (await call(tp ? 'listTireProtectionRegistrations' : 'listMotorClubRegistrations', {}, { query, signal: req.signal })).body;
  } catch (err) {
    // A page whose rows break the contract (a row without `_id`, say) still shows its rows: they are the server's,
    // and the folder marks each odd one with a warning (mergePages) instead of hiding the whole page behind an error.
    body = listOfMalformedAnswer(err);
    if (body === undefined) throw err;
  }
  const env = (body ?? {}) as { results?: unknown; totalRecordCount?: unknown; totalPages?: unknown; page?: unknown; pageSize?: unknown };
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

/** The parsed list envelope of a client's MalformedResponseError (duck-typed: this file loads no client), if any. */
function listOfMalformedAnswer(err: unknown): unknown {
  const e = err as { name?: unknown; rawBody?: unknown; notJson?: unknown } | undefined;
  if (e?.name !== 'MalformedResponseError' || typeof e.rawBody !== 'string' || e.notJson) return undefined;
  try {
    const parsed = JSON.parse(e.rawBody) as { results?: unknown } | null;
    return parsed !== null && typeof parsed === 'object' && Array.isArray(parsed.results) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A row as a folder shows it: under a key unique in the folder, with a warning when the server's answer was odd. */
export interface ShownRow {
  /** The registration's `_id`, or `no-id:<hash of the record>` for a row without one. */
  readonly key: string;
  readonly row: RegistrationRow;
  /** Why the row carries a warning (listed without `_id`, or twice in one answer); undefined for a normal row. */
  readonly warning?: string;
}

/**
 * The rows of the pages read so far, each registration once (VS Code requires unique row ids). Pages are read by
 * `page` and `pageSize` (spec: Tire-protection registrations, list query), so a registration created or cancelled
 * by anyone between two page reads shifts the offsets, and the next page repeats rows already shown: such a row
 * keeps its place and shows the latest read. A row repeated within one answer, or without `_id`, is the server's
 * fault: shown once, with a warning. Linear in the rows read.
 */
export function mergePages(pages: readonly RegistrationPage[]): ShownRow[] {
  const at = new Map<string, number>();
  const out: ShownRow[] = [];
  for (const p of pages) {
    const inPage = new Set<string>();
    for (const row of p.rows) {
      const id = rowText(row, '_id');
      const key = id || `no-id:${contentKey(JSON.stringify(row.record))}`;
      const repeated = inPage.has(key);
      inPage.add(key);
      const warning = !id
        ? 'The server listed this registration without an _id: it cannot be read, claimed or cancelled from here.'
        : repeated
          ? 'The server listed this registration twice in one page; it is shown once.'
          : undefined;
      const shown: ShownRow = { key, row, ...(warning ? { warning } : {}) };
      const i = at.get(key);
      if (i === undefined) at.set(key, out.push(shown) - 1);
      else out[i] = { ...shown, ...(out[i]!.warning && !warning ? { warning: out[i]!.warning } : {}) };
    }
  }
  return out;
}

/**
 * True when the server has registrations not shown yet: pages after the loaded ones, or, once the last page was
 * read, registrations created since the first page was read (the server's total grew past those shown: Load more
 * reads from page 1 again). A total that did not grow is not chased: a server counting a row it repeated, or rows
 * it does not list, must not offer Load more for ever.
 */
export function hasMorePages(pages: readonly RegistrationPage[]): boolean {
  const last = pages.at(-1);
  if (!last) return false;
  const total = last.totalRecordCount;
  const shown = total === undefined ? 0 : mergePages(pages).length;
  if (total !== undefined && shown >= total) return false;
  const grew = total !== undefined && total > (pages[0]?.totalRecordCount ?? total);
  if (last.totalPages !== undefined) return last.page < last.totalPages || grew;
  if (total !== undefined) return true;
  return last.rows.length >= last.pageSize;
}

/** The page Load more reads after `p`: the next one, or page 1 after the last (rows created since the first read). */
function pageAfter(p: RegistrationPage | undefined): number {
  if (!p) return 1;
  const wasLast = p.totalPages !== undefined ? p.page >= p.totalPages : p.rows.length < p.pageSize;
  return wasLast ? 1 : p.page + 1;
}

/** Pages read past one that brought no new registration (others created a page or more meanwhile). */
export const CATCH_UP_PAGES = 3;

/**
 * `pages` and the page after the last one read (page 1 again after the last page, when the server's total says
 * registrations were created since): what Load more reads. Pages are read by offset (spec: list query `page`,
 * `pageSize`) while others write, so the rows repeated by a shifted page are merged by id ({@link mergePages}); when the total fell, the rows after the boundary moved back into the last page read, so that
 * page is read again; when a page brings nothing new (the total grew by a page or more), the next one is read, at
 * most {@link CATCH_UP_PAGES} more (a fixed bound, whatever others wrote).
 *
 * @param load reads page `n` (1-based); its errors are thrown.
 * @returns a new array: `pages` followed by the pages read.
 */
export async function readNextPages(pages: readonly RegistrationPage[], load: (page: number) => Promise<RegistrationPage>): Promise<RegistrationPage[]> {
  const boundary = pages.at(-1);
  const shown = mergePages(pages).length;
  let read: RegistrationPage[] = [];
  for (let n = pageAfter(boundary), tries = 0; tries <= CATCH_UP_PAGES; tries++) {
    const next = await load(n);
    read.push(next);
    const fell = tries === 0 && boundary?.totalRecordCount !== undefined && next.totalRecordCount !== undefined && next.totalRecordCount < boundary.totalRecordCount;
    if (fell) read = [await load(boundary.page), next];
    const all = [...pages, ...read];
    if (mergePages(all).length > shown || !hasMorePages(all)) break;
    n = pageAfter(next);
  }
  return [...pages, ...read];
}
