import { PAYLOAD_KINDS } from '../contract/kinds';
import type { PayloadKind } from '../contract/types';
import { knownProperties, schemaAt } from '../contract/schemaWalk';

/**
 * Values captured from earlier answers: after a 2xx create, the sent body merged with the
 * answer's body is kept under a name per kind, so the next payload can say `"$registrationId":
 * "{{lastRegistration.id}}"`. The names and their fields are known statically (from the contract), so a capture not
 * made yet is not an unknown variable; it only has no value until its create has been sent.
 */

/** Captured values: capture name (`lastRegistration`) → its fields (`id`, `invoiceNumber`, …). */
export type Captures = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** What a kind's 2xx create is captured as, and where its fields are in the body. */
interface CaptureDef {
  readonly name: string;
  /** Path of the record in the body (v2: the first record of its array). */
  readonly recordPath: readonly (string | number)[];
  /** Fields added by the answer or by meta data, beyond the body's. */
  readonly extra: readonly string[];
}

/** Capture name by payload kind (kinds not listed capture nothing: updates, parts, transactions, cancellations). */
export const CAPTURES: Readonly<Partial<Record<PayloadKind, CaptureDef>>> = {
  'tire-protection-registration': { name: 'lastRegistration', recordPath: [], extra: ['id'] },
  registration: { name: 'lastRegistration', recordPath: [], extra: ['id'] },
  'tire-protection-claim': { name: 'lastClaim', recordPath: [], extra: ['id', 'registrationId'] },
  'motor-club-registration': { name: 'lastMotorClubRegistration', recordPath: [], extra: ['id'] },
  shop: { name: 'lastShop', recordPath: [], extra: [] },
  'v2-registrations': { name: 'lastV2Registration', recordPath: ['Registrations', 0], extra: ['RegistrationID'] },
};

/** One capture name with the kinds that fill it and its top-level fields, for completion and docs. */
export interface CaptureInfo {
  readonly name: string;
  readonly kinds: readonly PayloadKind[];
  readonly fields: readonly string[];
}

/** Every capture name, its kinds and fields (sorted). */
export function captureNames(): CaptureInfo[] {
  const out = new Map<string, { kinds: PayloadKind[]; fields: Set<string> }>();
  for (const [kind, def] of Object.entries(CAPTURES) as [PayloadKind, CaptureDef][]) {
    const entry = out.get(def.name) ?? { kinds: [], fields: new Set<string>() };
    entry.kinds.push(kind);
    const record = schemaAt(PAYLOAD_KINDS[kind].schema, def.recordPath);
    for (const f of [...def.extra, ...(record ? knownProperties(record) : [])]) entry.fields.add(f);
    out.set(def.name, entry);
  }
  return [...out].map(([name, e]) => ({ name, kinds: e.kinds, fields: [...e.fields].sort() }));
}

/**
 * True when `name` (`lastRegistration.id`, `lastRegistration.customer.name`) is a field of a capture: its first part
 * names a capture and the rest a field of one of its kinds (or an extra such as `id`).
 */
export function isCaptureName(name: string): boolean {
  const [head, ...rest] = name.split('.');
  if (rest.length === 0) return false;
  for (const [kind, def] of Object.entries(CAPTURES) as [PayloadKind, CaptureDef][]) {
    if (def.name !== head) continue;
    if (rest.length === 1 && def.extra.includes(rest[0]!)) return true;
    if (schemaAt(PAYLOAD_KINDS[kind].schema, [...def.recordPath, ...rest])) return true;
  }
  return false;
}

/** True when the first part of `name` is a capture name (`lastRegistration…`). */
export function isCaptureRoot(name: string): boolean {
  const head = name.split('.')[0];
  return Object.values(CAPTURES).some((d) => d?.name === head);
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Captures a 2xx create: the record of `sentBody` (its top-level properties; meta data such as `$registrationId`
 * becomes `registrationId`) merged with the answer's body (`_id` also as `id`). Call it only for a 2xx answer.
 *
 * @param kind the payload kind sent.
 * @param sentBody the body as sent (resolved), with or without the file's `$` meta properties.
 * @param responseBody the parsed answer body (undefined for 204).
 * @param captured the captures so far (not modified).
 * @returns new captures with this kind's entry replaced, or `captured` itself when the kind captures nothing.
 */
export function captureFromResponse(kind: PayloadKind, sentBody: unknown, responseBody: unknown, captured: Captures): Captures {
  const def = CAPTURES[kind];
  if (!def) return captured;
  const at = (v: unknown): unknown => {
    for (const seg of def.recordPath) v = isRecord(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[seg] : undefined;
    return v;
  };
  const record = at(sentBody);
  // A v2 answer lists one result per record ({Registrations: [{RegistrationID, …}]}): take the same record's.
  const answer = def.recordPath.length && isRecord(at(responseBody)) ? at(responseBody) : responseBody;
  const value: Record<string, unknown> = {};
  if (isRecord(record)) {
    for (const [k, v] of Object.entries(record)) {
      if (k === '$schema') continue;
      if (k.startsWith('$')) value[k.slice(1)] = v;
      else value[k] = v;
    }
  }
  if (isRecord(sentBody) && typeof sentBody.$registrationId === 'string') value.registrationId = sentBody.$registrationId;
  if (isRecord(answer)) {
    for (const [k, v] of Object.entries(answer)) value[k] = v;
    if (answer._id !== undefined && answer.id === undefined) value.id = answer._id;
  }
  return { ...captured, [def.name]: value };
}
