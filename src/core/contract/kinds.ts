import type { z } from 'zod';
import { ENDPOINTS } from './endpoints';
import { KindDef, SCHEMA_URI_PREFIX, schemaUri } from './kindDefs/common';
import { v2KindDefs } from './kindDefs/v2';
import { v3KindDefs } from './kindDefs/v3';
import { EndpointId, PayloadKind, PayloadKindDef } from './types';

/**
 * Payload kinds: a stable name for every sendable body (spec: Resources and their fields; Endpoints).
 * A payload file declares its kind with `"$schema": "tpp://schemas/<kind>.json"`; its other `$`-prefixed
 * top-level properties are meta data for the tool (e.g. `$registrationId`) and are never sent. Their definitions
 * are in kindDefs/; a kind's `schema` is built on its first read, so validating one kind builds no other.
 */

export { SCHEMA_URI_PREFIX, schemaUri };

const defs: Record<PayloadKind, KindDef> = { ...v2KindDefs, ...v3KindDefs };


/** "Sent with POST /tire-protection/shops." from the endpoint table. */
function sentWith(endpoints: readonly EndpointId[]): string {
  const forms = endpoints.map((id) => {
    const d = ENDPOINTS[id];
    const required = Object.entries(d.query).filter(([, q]) => q.required).map(([name]) => `${name}=…`);
    return `${d.method} ${d.path}${required.length ? `?${required.join('&')}` : ''}`;
  });
  return `Sent with ${forms.join(' or ')}.`;
}

/** Every payload kind, by its stable name. Descriptions end with the endpoint(s) the body is sent to. */
export const PAYLOAD_KINDS: Readonly<Record<PayloadKind, PayloadKindDef>> = Object.freeze(
  Object.fromEntries(Object.entries(defs).map(([kind, def]) => [kind, kindDef(kind as PayloadKind, def)])) as Record<PayloadKind, PayloadKindDef>,
);

/** A frozen kind with its name and full description; its `schema` stays the definition's getter (built on first read). */
function kindDef(kind: PayloadKind, def: KindDef): PayloadKindDef {
  const out = Object.defineProperties(
    { kind },
    { ...Object.getOwnPropertyDescriptors(def), description: { enumerable: true, value: `${def.description} ${sentWith(def.endpoints)}` } },
  );
  return Object.freeze(out) as unknown as PayloadKindDef;
}

/** All payload kind names, in table order. */
export const PAYLOAD_KIND_NAMES = Object.keys(defs) as PayloadKind[];

/** The kind named by a `$schema` value (`tpp://schemas/<kind>.json`), or undefined when it names none. */
export function kindFromSchemaUri(uri: string): PayloadKind | undefined {
  if (typeof uri !== 'string' || !uri.startsWith(SCHEMA_URI_PREFIX) || !uri.endsWith('.json')) return undefined;
  const name = uri.slice(SCHEMA_URI_PREFIX.length, -'.json'.length);
  return Object.prototype.hasOwnProperty.call(defs, name) ? (name as PayloadKind) : undefined;
}

/** The name ending of a payload file that has no `$schema` line (`*.<kind>.tpp.json`); flows read such files as payloads. */
export const PAYLOAD_FILE_SUFFIX = '.tpp.json';

/**
 * The kind of a file named `*.<kind>.tpp.json` (e.g. `march.v2-registrations.tpp.json`, a payload file of kind
 * `v2-registrations` without a `$schema` line), if any. The `.tpp` namespace keeps the toolkit (and the
 * `jsonValidation` globs of package.json) off other projects' `*.registration.json` or `*.shop.json` files.
 */
export function kindFromFileName(fileName: string): PayloadKind | undefined {
  const m = /\.([a-z0-9-]+)\.tpp\.json$/i.exec(fileName);
  const k = m?.[1]?.toLowerCase();
  return k !== undefined && Object.prototype.hasOwnProperty.call(defs, k) ? (k as PayloadKind) : undefined;
}

/** True for top-level property names that are tool meta data (start with `$`) and never sent. */
export function isMetaKey(key: string): boolean {
  return key.startsWith('$');
}

/**
 * A copy of a payload object without its `$`-prefixed top-level properties (`$schema`, `$registrationId`, ...),
 * i.e. the body that is sent. Nested properties are kept as they are. Non-objects are returned unchanged.
 */
export function stripMeta<T>(obj: T): T {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) if (!isMetaKey(k)) out[k] = v;
  return out as T;
}

/** The `$`-prefixed top-level properties of a payload object (including `$schema`). */
export function metaOf(obj: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return out;
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) if (isMetaKey(k)) out[k] = v;
  return out;
}

/**
 * Validates a payload object (as read from a file, meta properties included) against its kind's schema.
 * Returns zod's safeParse result of the stripped body; issue paths are relative to the body root.
 */
export function validatePayload(kind: PayloadKind, payload: unknown): z.ZodSafeParseResult<unknown> {
  return PAYLOAD_KINDS[kind].schema.safeParse(stripMeta(payload));
}
