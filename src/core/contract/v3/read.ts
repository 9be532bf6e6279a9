import { z } from 'zod';

/**
 * Read (response) schemas derived from request schemas (spec: Version 3 objects; records read back): a
 * `z.looseObject` with every field optional and nullable, formats not re-checked, unknown properties kept.
 */

/** Type of a record read back: every property optional/nullable, unknown properties kept. */
export type ReadOf<T> = T extends readonly (infer U)[]
  ? ReadOf<U>[]
  : T extends object
    ? { [K in keyof T]?: ReadOf<T[K]> | null } & { [k: string]: unknown }
    : T;

function defOf(schema: z.ZodType): { type: string; [k: string]: unknown } {
  return (schema as unknown as { _zod: { def: { type: string; [k: string]: unknown } } })._zod.def;
}

/** Tolerant read version of one (request) schema, keeping descriptions. */
function readNode(schema: z.ZodType): z.ZodType {
  const meta = z.globalRegistry.get(schema);
  const def = defOf(schema);
  let out: z.ZodType;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return withMeta(readNode(def.innerType as z.ZodType), meta);
    case 'object': {
      const shape: Record<string, z.ZodType> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        shape[k] = readNode(v).nullable().optional();
      }
      out = z.looseObject(shape);
      break;
    }
    case 'array':
      out = z.array(readNode(def.element as z.ZodType));
      break;
    case 'union':
      out = z.union((def.options as z.ZodType[]).map(readNode) as [z.ZodType, z.ZodType]);
      break;
    case 'string':
      out = z.string();
      break;
    case 'number':
      out = z.number();
      break;
    case 'boolean':
      out = z.boolean();
      break;
    default:
      out = z.unknown();
  }
  return withMeta(out, meta);
}

/**
 * The metadata of a request schema minus the check it carries for JSON Schema (a date's `pattern`, primitives.ts): a
 * read does not re-check formats, so neither does its JSON Schema.
 */
function withMeta(schema: z.ZodType, meta: Record<string, unknown> | undefined): z.ZodType {
  if (!meta) return schema;
  const { pattern: _pattern, ...rest } = meta;
  return schema.meta(rest);
}

/**
 * Builds the read (response) schema of a request object schema: a `z.looseObject` with every property optional
 * and nullable, nested objects and arrays likewise, string formats not re-checked; `extra` adds read-only fields.
 */
export function readOf<T extends z.ZodType, E extends z.core.$ZodLooseShape = Record<never, never>>(
  schema: T,
  extra?: E,
): z.ZodType<ReadOf<z.output<T> & z.output<z.ZodObject<E>>>> {
  const base = readNode(schema) as z.ZodObject;
  return (extra ? base.extend(extra) : base) as unknown as z.ZodType<ReadOf<z.output<T> & z.output<z.ZodObject<E>>>>;
}
