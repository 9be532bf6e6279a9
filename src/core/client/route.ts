/**
 * Where a payload file goes (spec: Endpoints; the toolkit's payload meta data, docs/contract.md): the kind from
 * `$schema`, the body without `$` properties, path parameters and query from the kind's meta properties
 * (`$registrationId` → `:id`, `$invoiceNumber` → `?invoiceNumber=`, `$storeNumber`, `$uniqueId`, `$companyName`),
 * and among the kind's endpoints the first whose parameters are all known. Shared by the editor's Send Payload,
 * tests and a command line front: no editor, no prompts; what is missing is returned for the caller to ask.
 */
import { ENDPOINTS, pathSegmentProblem } from '../contract/endpoints';
import { kindFromSchemaUri, metaOf, PAYLOAD_KINDS, stripMeta, validatePayload } from '../contract/kinds';
import type { EndpointDef, EndpointId, PayloadKind } from '../contract/types';

/** Template placeholders that mean "not filled in yet" (treated as missing). */
const PLACEHOLDERS = new Set(['REGISTRATION-ID', 'SHOP-UNIQUE-ID']);

/** What will be sent: endpoint, path parameters, query and body (meta properties removed). */
export interface PayloadRoute {
  readonly kind: PayloadKind;
  readonly endpointId: EndpointId;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** What the file does not say and the caller must ask for before it can be sent. */
export type RouteNeed =
  /** A registration: its `_id` (or, when `byInvoice`, its invoice number and optional store number). */
  | { readonly need: 'registration'; readonly product: 'tire-protection' | 'motor-club'; readonly byInvoice: boolean }
  /** The `uniqueId` of a shop (shop updates, parts). */
  | { readonly need: 'shop' };

/** Answers to a {@link RouteNeed}, used where the file has no meta property. */
export interface RouteAnswers {
  readonly registrationId?: string;
  readonly invoiceNumber?: string;
  readonly storeNumber?: string;
  readonly uniqueId?: string;
}

/**
 * A payload that cannot be sent, with the reason (the message starts "Not sent: <name> …"): an ordinary outcome of
 * checking a file, not a failure of the toolkit. `problems` lists each problem found (`line 3: …`), when known.
 */
export class PayloadRefused extends Error {
  override readonly name = 'PayloadRefused';
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(message);
  }
}

/** A usable meta value (non-empty, not a template placeholder) as text. */
function metaValue(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t && !PLACEHOLDERS.has(t) ? t : undefined;
}

/** The `$product` of a cancellation payload: which registrations its endpoints address. */
function productFilter(kind: PayloadKind, meta: Record<string, unknown>): ((d: EndpointDef) => boolean) | undefined {
  if (kind !== 'cancellation') return undefined;
  const p = typeof meta.$product === 'string' && meta.$product ? meta.$product : 'tire-protection';
  return (d) => d.product === p;
}

/**
 * Routes a parsed payload file.
 *
 * @param value the file's JSON value (one object with a `"$schema": "tpp://schemas/<kind>.json"` line).
 * @param name the file name, for messages.
 * @param answers values the user gave for what the file left out (see {@link RouteNeed}).
 * @param options `unchecked`: skip the schema check (Send Anyway), route by the `$` meta properties alone.
 * @returns `{ route }`, or `{ missing }` when a registration or shop must be asked for (call again with answers).
 * @throws PayloadRefused when the value is not an object, names no payload kind, does not validate against the
 *   kind's schema (unless `unchecked`), has an unknown `$product`, or still does not say which record it is for after `answers`.
 */
export function routePayload(value: unknown, name: string, answers: RouteAnswers = {}, options: { readonly unchecked?: boolean } = {}): { route: PayloadRoute } | { missing: RouteNeed } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new PayloadRefused(`Not sent: ${name} must hold one JSON object with a "$schema" line.`);
  const meta = metaOf(value);
  const kind = typeof meta.$schema === 'string' ? kindFromSchemaUri(meta.$schema) : undefined;
  if (!kind) throw new PayloadRefused(`Not sent: ${name} has no "$schema": "tpp://schemas/<kind>.json" line naming a payload kind (use "New Payload…").`);
  // Unchecked: sent anyway, so that the server's own answer to a body that breaks the contract can be seen; routing
  // below reads only the `$` meta properties.
  const check = options.unchecked ? { success: true as const } : validatePayload(kind, value);
  if (!check.success) {
    const i = check.error.issues[0];
    throw new PayloadRefused(`Not sent: ${name} does not match ${kind}${i ? ` (${i.path.join('.') || '(root)'}: ${i.message})` : ''}.`);
  }
  const def = PAYLOAD_KINDS[kind];
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const [key, m] of Object.entries(def.meta)) {
    const v = metaValue(meta[key]);
    if (v === undefined) continue;
    if (m.pathParam) params[m.pathParam] = v;
    if (m.queryParam) query[m.queryParam] = v;
  }
  for (const [key, m] of Object.entries(def.meta)) {
    const problem = m.pathParam && params[m.pathParam] !== undefined ? pathSegmentProblem(params[m.pathParam] as string) : undefined;
    if (problem) throw new PayloadRefused(`Not sent: ${name}'s ${key} ${problem}.`);
  }
  const inProduct = productFilter(kind, meta);
  const candidates = def.endpoints.map((id) => ENDPOINTS[id]).filter((d) => !inProduct || inProduct(d));
  if (candidates.length === 0) throw new PayloadRefused(`Not sent: ${name} has an unknown $product (use tire-protection, motor-club or registrations).`);
  const fits = (d: EndpointDef) =>
    d.pathParams.every((p) => p === 'company_name' || params[p] !== undefined) && Object.entries(d.query).every(([q, qd]) => !qd.required || query[q] !== undefined);
  let chosen = candidates.find(fits);
  if (!chosen) {
    const first = candidates[0] as EndpointDef;
    const asked = Object.values(answers).some((v) => v !== undefined && v !== '');
    if (first.pathParams.includes('id')) {
      if (!asked) return { missing: { need: 'registration', product: first.product === 'motor-club' ? 'motor-club' : 'tire-protection', byInvoice: candidates.some((d) => Object.hasOwn(d.query, 'invoiceNumber')) } };
      if (answers.registrationId) params.id = answers.registrationId;
      if (answers.invoiceNumber) query.invoiceNumber = answers.invoiceNumber;
      if (answers.storeNumber) query.storeNumber = answers.storeNumber;
    } else if (first.pathParams.includes('uniqueId')) {
      if (!asked) return { missing: { need: 'shop' } };
      if (answers.uniqueId) params.uniqueId = answers.uniqueId;
    }
    chosen = candidates.find(fits);
    if (!chosen) throw new PayloadRefused(`Not sent: ${name} does not say which record it is for.`);
  }
  const target = chosen;
  // Keep only the parameters the chosen endpoint has.
  for (const q of Object.keys(query)) if (!Object.hasOwn(target.query, q)) delete query[q];
  for (const p of Object.keys(params)) if (!target.pathParams.includes(p)) delete params[p];
  return { route: { kind, endpointId: target.id, params, query, body: stripMeta(value) } };
}
