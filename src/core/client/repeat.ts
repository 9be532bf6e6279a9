/**
 * When a call may be sent again after a failure that may have reached the server (spec: Errors — retry 429 and
 * 5xx; Registrations are unique by invoice number; Claims — "claims are returned inside the registration read"):
 * GETs and version 2 upserts are safe; creates whose record can be found again are checked first (registrations
 * and motor-club registrations by invoice number, claims on their registration); everything else is not repeated
 * and the error says how to check by hand.
 */
import { changesData } from '../contract/methods';
import type { EndpointDef, EndpointId } from '../contract/types';
import { sameClaim, sameRegistration } from './sameRecord';
import type { CheckOutcome, RepeatPolicy } from './types';

/**
 * Creates whose repeated create can be detected, mapped to the read that finds it: a list by invoice number
 * (spec: "Registrations are unique by invoice number (version 3 additionally allows a store number to
 * disambiguate)"), or for a claim the registration read, which returns the claims filed against it.
 */
export const CHECKABLE_CREATES: Readonly<Partial<Record<EndpointId, EndpointId>>> = {
  createTireProtectionRegistration: 'listTireProtectionRegistrations',
  createMotorClubRegistration: 'listMotorClubRegistrations',
  createRegistration: 'listRegistrations',
  createTireProtectionClaim: 'getTireProtectionRegistration',
};

/** Version 2 record arrays whose resend updates instead of adding (spec: Registration (v2) and Cancellation (v2) rules). */
const V2_UPSERT_ARRAYS = ['Registrations', 'Cancellations'];

/**
 * Reads one record or list page for a check, within the create's deadline (`deadlineAt`, a `performance.now()`
 * time): the parsed body and the (masked) URL read.
 */
export type ReadForCheck = (
  def: EndpointDef,
  params: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string | number>>,
  signal: AbortSignal | undefined,
  deadlineAt: number | undefined,
) => Promise<{ body: unknown; url: string }>;

/**
 * The repeat policy of one call.
 * @param params the call's path parameters (a claim's registration `id`).
 * @param readDef the read of a checkable create (from {@link CHECKABLE_CREATES}), when the table has it.
 * @param maxCheckPages pages read at most when a list cannot filter by invoice number.
 */
export function repeatPolicyFor(
  def: EndpointDef,
  params: Readonly<Record<string, string | number>>,
  body: unknown,
  storeNumber: string | undefined,
  readDef: EndpointDef | undefined,
  read: ReadForCheck,
  maxCheckPages: number,
): RepeatPolicy {
  if (!changesData(def.method)) return { kind: 'safe' };
  if (def.id === 'v2PostRecords') {
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    return keys.length > 0 && keys.every((k) => V2_UPSERT_ARRAYS.includes(k)) ? { kind: 'safe' } : { kind: 'unsafe', howToCheck: howToCheck(def, params, body) };
  }
  const sent = (body ?? {}) as Record<string, unknown>;
  if (def.method === 'POST' && readDef && readDef.method === 'GET') {
    if (def.id === 'createTireProtectionClaim' && typeof sent.serviceInvoiceNumber === 'string' && sent.serviceInvoiceNumber !== '' && params.id !== undefined) {
      const id = String(params.id);
      return { kind: 'check', howToCheck: howToCheck(def, params, body), check: (signal, deadlineAt) => findClaim(readDef, id, sent, signal, deadlineAt, read) };
    }
    if (typeof sent.invoiceNumber === 'string' && sent.invoiceNumber !== '' && readDef.path === def.path) {
      const store = storeNumber ?? (typeof sent.storeNumber === 'string' && sent.storeNumber ? sent.storeNumber : undefined);
      return { kind: 'check', resendAfterLostConnection: true, howToCheck: howToCheck(def, params, body), check: (signal, deadlineAt) => findByInvoice(readDef, sent, store, signal, deadlineAt, read, maxCheckPages) };
    }
  }
  return { kind: 'unsafe', howToCheck: howToCheck(def, params, body) };
}

/** One sentence telling the user how to find out whether a write that may have landed did land. */
export function howToCheck(def: EndpointDef, params: Readonly<Record<string, string | number>>, body: unknown): string {
  const id = params.id !== undefined ? String(params.id) : ':id';
  const b = (body ?? {}) as Record<string, unknown>;
  switch (def.id) {
    case 'createTireProtectionRegistration':
    case 'createRegistration':
    case 'createMotorClubRegistration':
      return `List the registrations with invoice number ${typeof b.invoiceNumber === 'string' ? b.invoiceNumber : '(its invoice number)'} (GET ${def.path}${def.product === 'motor-club' ? '' : `?invoiceNumber=…`}) before sending it again.`;
    case 'createTireProtectionClaim':
      return `Read the registration (GET /tire-protection/registrations/${id}): it lists the claims filed against it.`;
    case 'createShop':
      return `Sending it again is harmless: a shop that was stored answers 409 (uniqueId ${typeof b.uniqueId === 'string' ? b.uniqueId : ''} already exists).`;
    case 'addShopPart':
    case 'createTransaction':
      return 'The interface has no read of it: ask the administrator before sending it again, or it may be recorded twice.';
    case 'v2PostRecords':
      return 'Read the records back (GET with rec=claims or rec=sales and the invoice number) before sending them again.';
    default:
      if (def.method === 'PATCH' && def.product === 'motor-club') return `Read the motor-club registration (GET /motor-club/registrations/${id}) before sending it again.`;
      if (def.method === 'PATCH') return `Read the registration (GET ${def.path.replace(/\?.*$/, '').replace(':id', id)}): cancelledOn is set when the cancellation took effect.`;
      return 'Read the record before sending it again.';
  }
}

/** Reads the registration a claim was filed against and looks for a claim matching the one sent (sameRecord.ts). */
async function findClaim(
  readDef: EndpointDef,
  id: string,
  sent: Record<string, unknown>,
  signal: AbortSignal | undefined,
  deadlineAt: number | undefined,
  read: ReadForCheck,
): Promise<CheckOutcome> {
  const res = await read(readDef, { id }, {}, signal, deadlineAt);
  const claims = (res.body as { claims?: unknown } | undefined)?.claims;
  const found = Array.isArray(claims) ? claims.find((c) => sameClaim(sent, c)) : undefined;
  if (!found) return { landed: false };
  return { landed: true, body: { id: (found as { id?: unknown }).id }, checkUrl: res.url, record: found };
}

/**
 * Lists by invoice number to see whether a create landed. A list that cannot filter (motor club) is read from
 * its first page (for the page count) and then from the last page backwards: lists are in creation order, so
 * the record just created is near the end.
 */
async function findByInvoice(
  listDef: EndpointDef,
  sent: Record<string, unknown>,
  storeNumber: string | undefined,
  signal: AbortSignal | undefined,
  deadlineAt: number | undefined,
  read: ReadForCheck,
  maxCheckPages: number,
): Promise<CheckOutcome> {
  const invoiceNumber = sent.invoiceNumber as string;
  const filterable = Object.hasOwn(listDef.query, 'invoiceNumber');
  const query: Record<string, string | number> = {};
  if (filterable) query.invoiceNumber = invoiceNumber;
  if (filterable && storeNumber && Object.hasOwn(listDef.query, 'storeNumber')) query.storeNumber = storeNumber;
  const readPage = async (page: number): Promise<CheckOutcome | { totalPages: number }> => {
    const res = await read(listDef, {}, page === 1 ? query : { ...query, page }, signal, deadlineAt);
    const envelope = res.body as { results?: unknown; totalPages?: unknown };
    const results = Array.isArray(envelope?.results) ? (envelope.results as unknown[]) : [];
    const found = results.find((r) => sameRegistration(sent, r, storeNumber));
    if (found) return { landed: true, body: { id: (found as { _id?: unknown })._id }, checkUrl: res.url, record: found };
    return { totalPages: typeof envelope?.totalPages === 'number' ? envelope.totalPages : 1 };
  };
  const first = await readPage(1);
  if ('landed' in first) return first;
  const last = Math.max(2, first.totalPages - maxCheckPages + 2);
  for (let page = first.totalPages; page >= last; page--) {
    const r = await readPage(page);
    if ('landed' in r) return r;
  }
  if (last > 2) throw new Error(`no record with invoice number ${invoiceNumber} in the ${maxCheckPages} pages read of the ${first.totalPages} of ${listDef.path}`);
  return { landed: false };
}
