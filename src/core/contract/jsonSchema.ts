import { ISO_8601_PATTERN, ISO_DATE_OR_TIMESTAMP_PATTERN } from './patterns';
import { PAYLOAD_KINDS, schemaUri } from './kinds';
import { INT_STRING_RE, ISO_8601_RE, ISO_DATE_OR_TIMESTAMP_RE, MESSAGES, MONEY_STRING_RE } from './primitives';
import { toJsonSchema } from './toJsonSchema';
import { COMMERCIAL_VEHICLE_PATTERN, YES_NO_MESSAGE } from './v2/fields';
import { PayloadKind } from './types';

/** A JSON Schema object (draft-07 for payload files). */
export type JsonSchema = Record<string, unknown>;

const cache = new Map<PayloadKind, JsonSchema>();

/** Messages VS Code shows instead of "does not match the pattern" (its `patternErrorMessage` extension). */
const PATTERN_MESSAGES: Record<string, string> = {
  [MONEY_STRING_RE.source]: MESSAGES.money,
  [INT_STRING_RE.source]: MESSAGES.int,
  [ISO_DATE_OR_TIMESTAMP_RE.source]: MESSAGES.datetime,
  [ISO_8601_RE.source]: MESSAGES.isoDate,
  [ISO_DATE_OR_TIMESTAMP_PATTERN]: MESSAGES.datetime,
  [ISO_8601_PATTERN]: MESSAGES.isoDate,
  '^(\\d{4})?$': MESSAGES.vehicleYear,
  [COMMERCIAL_VEHICLE_PATTERN]: YES_NO_MESSAGE,
};

/** Adds `patternErrorMessage` next to every known `pattern`, in place. */
function addPatternMessages(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) addPatternMessages(n);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (typeof o.pattern === 'string' && PATTERN_MESSAGES[o.pattern] && o.patternErrorMessage === undefined) {
    o.patternErrorMessage = PATTERN_MESSAGES[o.pattern];
  }
  // money / int unions (anyOf number | pattern string): whichever branch the editor reports, use the message.
  if (Array.isArray(o.anyOf)) {
    const branches = o.anyOf as Record<string, unknown>[];
    const known = branches.find((b) => typeof b.pattern === 'string' && PATTERN_MESSAGES[b.pattern]);
    if (known) {
      const message = PATTERN_MESSAGES[known.pattern as string];
      for (const b of branches) b.errorMessage ??= message;
    }
  }
  for (const v of Object.values(o)) addPatternMessages(v);
}

/**
 * Draft-07 JSON Schema of a payload kind, generated from its zod schema with `io: 'input'` (the wire format:
 * numbers sent as strings are allowed where the contract converts them). Carries the spec's notes as
 * `description`s, allows the `$schema` property (`tpp://schemas/<kind>.json`) and the kind's `$` meta
 * properties. Unknown properties are not rejected (the diagnostics layer warns about them). Known patterns get a
 * `patternErrorMessage` (VS Code's extension keyword) in the contract's words.
 * Results are cached; callers get a fresh deep copy.
 */
export function jsonSchemaFor(kind: PayloadKind): JsonSchema {
  let schema = cache.get(kind);
  if (!schema) {
    const def = PAYLOAD_KINDS[kind];
    const generated = toJsonSchema(def.schema, 'draft-7');
    const properties: Record<string, unknown> = {
      $schema: {
        type: 'string',
        const: schemaUri(kind),
        description: `Declares this file a ${def.title} payload. Tool meta data: never sent.`,
      },
    };
    for (const [name, meta] of Object.entries(def.meta)) {
      properties[name] = { type: 'string', description: `${meta.description} Tool meta data: never sent.` };
    }
    Object.assign(properties, (generated.properties as Record<string, unknown> | undefined) ?? {});
    schema = {
      ...generated,
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: schemaUri(kind),
      title: def.title,
      description: def.deprecated ? `${def.description} Deprecated and unsupported.` : def.description,
      properties,
    };
    addPatternMessages(schema);
    cache.set(kind, schema);
  }
  return structuredClone(schema);
}
