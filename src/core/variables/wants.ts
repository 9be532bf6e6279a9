import type { z } from 'zod';
import { leaves } from '../contract/schemaWalk';

/**
 * What a field's contract schema accepts among strings and numbers (looking through optional, unions, pipes): the type
 * a string holding only one variable takes at send time; `text`: a string without a pattern, where text around a variable
 * cannot break a format. No schema (meta data, unknown properties) accepts everything.
 */
export function wantsOf(schema: z.ZodType | undefined): { readonly string: boolean; readonly number: boolean; readonly text: boolean } {
  if (!schema) return { string: true, number: true, text: true };
  const out = { string: false, number: false, text: false };
  for (const leaf of leaves(schema)) {
    const def = (leaf as unknown as { _zod: { def: { type: string; format?: string; entries?: Record<string, unknown>; values?: unknown[]; checks?: { _zod: { def: { check?: string } } }[] } } })._zod.def;
    if (def.type === 'string') {
      out.string = true;
      // Free text: no pattern or format (a v2 int's digits, a date, an e-mail are not).
      if (def.format === undefined && !def.checks?.some((c) => c._zod.def.check === 'string_format')) out.text = true;
    }
    else if (def.type === 'number' || def.type === 'int' || def.type === 'bigint') out.number = true;
    else if (def.type === 'enum' || def.type === 'literal') {
      for (const v of [...Object.values(def.entries ?? {}), ...(def.values ?? [])]) {
        if (typeof v === 'string') out.string = true;
        if (typeof v === 'number') out.number = true;
      }
    } else if (def.type === 'any' || def.type === 'unknown') return { string: true, number: true, text: true };
  }
  return out;
}
