/**
 * When a call may be sent again after a failure that may have reached the server (spec: Errors — retry 429 and
 * 5xx; Registrations are unique by invoice number): GETs and version 2 upserts are safe, creates that can be
 * looked up by invoice number are checked first, everything else is not repeated.
 */
import type { EndpointDef, EndpointId } from '../contract/types';
import type { CheckOutcome, RepeatPolicy } from './types';

/**
 * Creates endpoints whose repeated create can be detected by listing by invoice number, mapped to that list
 * (spec: "Registrations are unique by invoice number (version 3 additionally allows a store number to disambiguate)").
 */
export const CHECKABLE_CREATES: Readonly<Partial<Record<EndpointId, EndpointId>>> = {
  createTireProtectionRegistration: 'listTireProtectionRegistrations',
  createMotorClubRegistration: 'listMotorClubRegistrations',
  createRegistration: 'listRegistrations',
};

/** Version 2 record arrays whose resend updates instead of adding (spec: Registration (v2) and Cancellation (v2) rules). */
const V2_UPSERT_ARRAYS = ['Registrations', 'Cancellations'];

/** Reads one list page for the invoice check: the parsed envelope and the (masked) URL read. */
export type ListPage = (listDef: EndpointDef, query: Record<string, string | number>, signal: AbortSignal | undefined) => Promise<{ body: unknown; url: string }>;

/**
 * The repeat policy of one call.
 * @param listDef the list endpoint of a checkable create (from {@link CHECKABLE_CREATES}), when the table has it.
 * @param maxCheckPages pages read at most when the list cannot filter by invoice number.
 */
export function repeatPolicyFor(
  def: EndpointDef,
  body: unknown,
  storeNumber: string | undefined,
  listDef: EndpointDef | undefined,
  listPage: ListPage,
  maxCheckPages: number,
): RepeatPolicy {
  if (def.method === 'GET') return { kind: 'safe' };
  if (def.id === 'v2PostRecords') {
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    return keys.length > 0 && keys.every((k) => V2_UPSERT_ARRAYS.includes(k)) ? { kind: 'safe' } : { kind: 'unsafe' };
  }
  const invoiceNumber = (body as { invoiceNumber?: unknown } | undefined)?.invoiceNumber;
  if (def.method === 'POST' && listDef && typeof invoiceNumber === 'string' && invoiceNumber !== '') {
    return { kind: 'check', check: (signal) => findByInvoice(listDef, invoiceNumber, storeNumber, signal, listPage, maxCheckPages) };
  }
  return { kind: 'unsafe' };
}

/** Lists by invoice number (paging through when the list cannot filter) to see whether a create landed. */
async function findByInvoice(
  listDef: EndpointDef,
  invoiceNumber: string,
  storeNumber: string | undefined,
  signal: AbortSignal | undefined,
  listPage: ListPage,
  maxCheckPages: number,
): Promise<CheckOutcome> {
  const filterable = Object.hasOwn(listDef.query, 'invoiceNumber');
  const query: Record<string, string | number> = {};
  if (filterable) query.invoiceNumber = invoiceNumber;
  if (filterable && storeNumber && Object.hasOwn(listDef.query, 'storeNumber')) query.storeNumber = storeNumber;
  for (let page = 1; ; page++) {
    if (page > maxCheckPages) throw new Error(`no record with invoice number ${invoiceNumber} in the first ${maxCheckPages} pages of ${listDef.path}`);
    const res = await listPage(listDef, page === 1 ? query : { ...query, page }, signal);
    const envelope = res.body as { results?: unknown; totalPages?: unknown };
    const results = Array.isArray(envelope?.results) ? (envelope.results as unknown[]) : [];
    const found = results.find((r) => (r as { invoiceNumber?: unknown } | null)?.invoiceNumber === invoiceNumber);
    if (found) {
      const id = (found as { _id?: unknown })._id;
      return { landed: true, body: { id }, checkUrl: res.url, record: found };
    }
    const filtered = filterable && results.every((r) => (r as { invoiceNumber?: unknown } | null)?.invoiceNumber === invoiceNumber);
    const totalPages = typeof envelope?.totalPages === 'number' ? envelope.totalPages : 1;
    if (filtered || page >= totalPages) return { landed: false };
  }
}
