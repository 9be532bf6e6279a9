/**
 * Is a row's write stored already, and with which values? The duplicate check of a backfill (docs/backfills.md,
 * Answers that are checked): run before a started row's write is sent again, and after an answer that does not say
 * how the write ended (a 409 or 400 to a create, a 2xx whose body cannot be read, no answer at all). It finds the
 * record the way the client does before it repeats a create (client/repeat.ts: registrations by invoice number,
 * claims inside their registration), each read with the client's own time limits, so the check has time of its own
 * beyond the write's. A record found is compared with what the row sends, field by field where both have a value
 * (dates on their day, numbers as numbers): the same values are `same` (the row is recovered), other values under the
 * same key are `other` (a conflict, shown with both values).
 */
import type { PartnerClient } from '../client/client';
import { CHECKABLE_CREATES, repeatPolicyFor, type ReadForCheck } from '../client/repeat';
import { ENDPOINTS } from '../contract/endpoints';
import type { EndpointDef, EndpointId } from '../contract/types';

/** What the check found. */
export type Stored =
  | { readonly kind: 'safe' }
  | { readonly kind: 'none'; readonly howToCheck: string }
  | { readonly kind: 'same'; readonly id?: string }
  | { readonly kind: 'other'; readonly id?: string; readonly differences: string }
  | { readonly kind: 'absent'; readonly howToCheck: string }
  | { readonly kind: 'failed'; readonly reason: string; readonly howToCheck: string };

/** Fields of a difference shown at most. */
const MAX_SHOWN = 6;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}/;

/** Whether `def` is a create the duplicate check can find again. */
export function checkable(def: EndpointDef): boolean {
  return CHECKABLE_CREATES[def.id as EndpointId] !== undefined;
}

function sameLeaf(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && ISO_DAY.test(a) && ISO_DAY.test(b)) return a.slice(0, 10) === b.slice(0, 10);
  if (typeof a === 'number' || typeof b === 'number') return a !== '' && b !== '' && Number(a) === Number(b);
  return a === b;
}

/** Fields whose values differ where both `sent` and `found` have one: `path: sent → stored`. */
export function differences(sent: unknown, found: unknown, path = '', out: string[] = []): string[] {
  if (found === undefined || found === null) return out;
  if (sent !== null && typeof sent === 'object') {
    if (typeof found !== 'object') return out;
    if (Array.isArray(sent) && Array.isArray(found) && sent.length !== found.length) out.push(`${path}: ${sent.length} items, stored ${found.length}`);
    else for (const [k, v] of Object.entries(sent)) differences(v, (found as Record<string, unknown>)[k], path ? `${path}.${k}` : k, out);
    return out;
  }
  if (sent !== undefined && !sameLeaf(sent, found)) out.push(`${path}: ${JSON.stringify(sent)}, stored ${JSON.stringify(found)}`);
  return out;
}

/** The records a read answered: a list's `results`, or a registration's `claims`. */
function recordsOf(body: unknown): unknown[] {
  const b = body as { results?: unknown; claims?: unknown } | undefined;
  return Array.isArray(b?.results) ? b.results : Array.isArray(b?.claims) ? b.claims : [];
}

/** A record under the same key as `sent` (the invoice number and store number, or the service invoice number). */
function sameKey(sent: Record<string, unknown>, r: unknown): boolean {
  if (!r || typeof r !== 'object') return false;
  const f = r as Record<string, unknown>;
  if (typeof sent.serviceInvoiceNumber === 'string') return f.serviceInvoiceNumber === sent.serviceInvoiceNumber;
  if (typeof sent.invoiceNumber !== 'string' || f.invoiceNumber !== sent.invoiceNumber) return false;
  return typeof sent.storeNumber !== 'string' || f.storeNumber === undefined || f.storeNumber === sent.storeNumber;
}

const idOf = (r: unknown): string | undefined => {
  const v = (r as { _id?: unknown; id?: unknown } | undefined)?._id ?? (r as { id?: unknown } | undefined)?.id;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
};

/**
 * Looks for the record a write of `def` with `params` and `body` would have stored.
 * @returns `safe` (sending it again cannot store it twice), `none` (no read finds it: `howToCheck` says what to do by
 *   hand), `same`, `other`, `absent`, or `failed` (the reads failed: `reason`). Never throws.
 */
export async function lookForStored(client: PartnerClient, def: EndpointDef, params: Readonly<Record<string, string>>, body: unknown): Promise<Stored> {
  const readId = CHECKABLE_CREATES[def.id as EndpointId];
  const seen: unknown[] = [];
  const read: ReadForCheck = async (readDef, p, query) => {
    const res = await client.call(readDef.id as EndpointId, p as never, undefined as never, { query: query as never });
    seen.push(...recordsOf(res.body));
    return { body: res.body, url: res.url };
  };
  const policy = repeatPolicyFor(def, params, body, undefined, readId ? ENDPOINTS[readId] : undefined, read, 50);
  if (policy.kind === 'safe') return { kind: 'safe' };
  const howToCheck = policy.howToCheck ?? 'Read the record before sending it again.';
  if (policy.kind === 'unsafe') return { kind: 'none', howToCheck };
  const sent = (body ?? {}) as Record<string, unknown>;
  try {
    const found = await policy.check(undefined, undefined);
    const record = found.landed ? found.record : seen.find((r) => sameKey(sent, r));
    if (record === undefined) return { kind: 'absent', howToCheck };
    const diff = differences(sent, record);
    const id = found.landed ? (idOf(found.body) ?? idOf(record)) : idOf(record);
    if (diff.length === 0) return { kind: 'same', ...(id !== undefined ? { id } : {}) };
    const shown = diff.slice(0, MAX_SHOWN).join('; ') + (diff.length > MAX_SHOWN ? `; and ${diff.length - MAX_SHOWN} more` : '');
    return { kind: 'other', ...(id !== undefined ? { id } : {}), differences: shown };
  } catch (err) {
    return { kind: 'failed', reason: err instanceof Error ? err.message : String(err), howToCheck };
  }
}
