import { z } from 'zod';

/**
 * The one conversion of a contract schema to JSON Schema, shared by the editor's payload schemas (draft-07) and the
 * OpenAPI export (2020-12), so that both read a zod schema the same way.
 */

/** A JSON Schema object. */
export type JsonSchemaObject = Record<string, unknown>;

/**
 * A tuple whose items all have the same schema (`[longitude, latitude]`) is written as `items: <that schema>` with
 * `minItems`/`maxItems` n, not as positional items (`prefixItems` + `items: false` in 2020-12, `items: [...]` +
 * `additionalItems: false` in draft-07). Both accept exactly the same arrays, but validators of the OpenAPI 3.0 era
 * (Prism's, Spectral's `array-items`) read `items: false` as "no items allowed". The order stays in the description.
 */
function homogeneousTuple(ctx: { zodSchema: unknown; jsonSchema: JsonSchemaObject }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string; rest?: unknown } } })._zod?.def;
  if (def?.type !== 'tuple' || def.rest) return;
  const js = ctx.jsonSchema;
  const positional = Array.isArray(js.prefixItems) ? js.prefixItems : Array.isArray(js.items) ? js.items : undefined;
  if (!positional || positional.length === 0) return;
  const first = JSON.stringify(positional[0]);
  if (!positional.every((p) => JSON.stringify(p) === first)) return;
  delete js.prefixItems;
  delete js.additionalItems;
  js.items = positional[0];
  js.minItems = positional.length;
  js.maxItems = positional.length;
}

/**
 * A nullable array is written `type: [array, "null"]` with the array's keywords, not `anyOf: [array, null]`: the same
 * values, but json-schema-faker (behind `prism mock -d`) crashes on the `anyOf` form.
 */
function nullableArray(ctx: { zodSchema: unknown; jsonSchema: JsonSchemaObject }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def;
  const js = ctx.jsonSchema;
  if (def?.type !== 'nullable' || !Array.isArray(js.anyOf) || js.anyOf.length !== 2) return;
  const [a, b] = js.anyOf as JsonSchemaObject[];
  const isNull = (x: JsonSchemaObject | undefined) => x !== undefined && x.type === 'null' && Object.keys(x).length === 1;
  const array = isNull(b) ? a : isNull(a) ? b : undefined;
  if (!array || array.type !== 'array' || array.$ref !== undefined) return;
  delete js.anyOf;
  for (const [k, v] of Object.entries(array)) if (!(k in js)) js[k] = v;
  js.type = ['array', 'null'];
}

/**
 * A field whose reading is tolerant but whose answer has one type (`.meta({ answeredAs: 'integer' })`: the claim id,
 * a number by the spec, read from a numeric string too) is written as that type: a document describes what is
 * answered, and a mock server built from it (`prism mock`) answers that (docs/contract.md).
 */
function answeredAs(ctx: { jsonSchema: JsonSchemaObject }): void {
  const js = ctx.jsonSchema;
  const type = js.answeredAs;
  if (typeof type !== 'string') return;
  delete js.answeredAs;
  delete js.anyOf;
  js.type = type;
}

/**
 * JSON Schema of `schema` as sent on the wire (`io: 'input'`; a union such as money accepts what the contract
 * converts), with types zod cannot express as `{}`, in the dialect `target`. Without `$schema`.
 */
export function toJsonSchema(schema: z.ZodType, target: 'draft-7' | 'draft-2020-12'): JsonSchemaObject {
  const out = z.toJSONSchema(schema, {
    target,
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      homogeneousTuple(ctx);
      nullableArray(ctx);
      answeredAs(ctx);
    },
  }) as JsonSchemaObject;
  delete out.$schema;
  return out;
}
