/**
 * A row's key (docs/backfills.md, Rows are known by their key): what the journal knows the row by, so that rows
 * inserted, removed or reordered in the data file resume as the rows they are. It is the kind's own key, read from
 * the body of the flow's first write resolved with the row's values: the invoice number (and store number) of a
 * registration (spec: "Registrations are unique by invoice number"), the service invoice number of a claim and the
 * registration it is filed on, the uniqueId of a shop, the shop and invoice numbers of a version 2 record, the path of
 * a write to one record (PATCH, DELETE). Else, or when that key is not the same for the same row twice (it reads a
 * dynamic value such as `{{$guid}}`), the key is a hash of the row's values.
 */
import { createHash } from 'node:crypto';
import type { EndpointId } from '../contract/types';
import { endpointsOf } from '../client/clientFor';
import type { PreparedRequest } from '../flows/send';
import { checkable } from './storedCheck';
import type { FlowEnvironment, FlowFile, FlowRequest } from '../flows/types';

/** Keys longer than this are written as their hash. */
const MAX_KEY = 200;

/** Body fields that are the key of a create, by endpoint (spec: Resources and their fields). */
const KEY_FIELDS: Partial<Record<EndpointId, readonly string[]>> = {
  createTireProtectionRegistration: ['invoiceNumber', 'storeNumber'],
  createRegistration: ['invoiceNumber', 'storeNumber'],
  createMotorClubRegistration: ['invoiceNumber'],
  createTireProtectionClaim: ['serviceInvoiceNumber'],
  createShop: ['uniqueId'],
};

/** Version 2 record fields that name a record (spec: Version 2 records). */
const V2_KEY_FIELDS = ['ShopID', 'InvoiceNumber', 'ClaimNumber'];

/** The request whose body holds a row's key: the flow's first write, unless it reads an earlier answer. */
export function keyRequestOf(flow: FlowFile, readsAnswers: ReadonlySet<number>): FlowRequest | undefined {
  const r = flow.requests.find((x) => x.method !== 'GET' && x.method !== 'HEAD');
  return r && !readsAnswers.has(r.index) ? r : undefined;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** `name value` pairs of the fields of `fields` that `o` has. */
function pairs(o: unknown, fields: readonly string[]): string {
  const rec = (o ?? {}) as Record<string, unknown>;
  return fields.flatMap((f) => (text(rec[f]) !== undefined ? [`${f} ${text(rec[f]) as string}`] : [])).join(', ');
}

/** The key of a version 2 records body of one record: `Registrations ShopID … InvoiceNumber …`. */
function v2Key(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const arrays = Object.entries(body as Record<string, unknown>).filter(([, v]) => Array.isArray(v));
  if (arrays.length !== 1) return undefined;
  const [name, records] = arrays[0] as [string, unknown[]];
  if (records.length !== 1) return undefined;
  const p = pairs(records[0], V2_KEY_FIELDS);
  return p.includes('InvoiceNumber') || p.includes('ClaimNumber') ? `${name} ${p}` : undefined;
}

/**
 * The key a resolved request names, or undefined when its kind has none (or the row leaves it empty).
 * @param req the key request resolved with a row's values.
 */
export function keyOf(req: PreparedRequest, env: FlowEnvironment): string | undefined {
  const { matches } = endpointsOf(req.method, req.url, env, req.json);
  const m = matches[0];
  if (!m) return undefined;
  const id = m.def.id as EndpointId;
  let key: string | undefined;
  if (id === 'v2PostRecords') key = v2Key(req.json?.value);
  else if (KEY_FIELDS[id]) {
    const fields = KEY_FIELDS[id];
    const body = (req.json?.value ?? {}) as Record<string, unknown>;
    if (text(body[fields[0] as string]) !== undefined) key = pairs(body, fields);
    if (key !== undefined && id === 'createTireProtectionClaim') key = `${key} on registration ${String(m.params.id)}`;
  } else if (m.def.method !== 'POST' && Object.keys(m.params).length > 0) {
    const u = new URL(req.url);
    key = `${req.method} ${u.pathname}${u.search}`;
  }
  if (key === undefined) return undefined;
  return key.length > MAX_KEY ? `key sha256 ${createHash('sha256').update(key).digest('hex').slice(0, 32)}` : key;
}

/** Whether a resolved request is a create the duplicate check can find again (storedCheck.ts). */
export function checkableRequest(req: PreparedRequest, env: FlowEnvironment): boolean {
  const def = endpointsOf(req.method, req.url, env, req.json).matches[0]?.def;
  return def !== undefined && checkable(def);
}

/** The key of a row that has no key of its own: its values' hash. */
export const valuesKey = (hash: string): string => `values ${hash.slice(0, 32)}`;
