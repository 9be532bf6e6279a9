import { z } from 'zod';
import { SpecRow } from './specTables';

/**
 * Generates valid and invalid values for a spec field table row, from its Type column (and, for v2, the Notes
 * that narrow a string: "Four-digit year", "Yes or No", "REPLACE ... or REPAIR"). Used by the table-driven
 * contract tests; nothing here knows about the zod schemas under test.
 */

export type Kind =
  | 'string'
  | 'int'
  | 'money'
  | 'datetime'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'email'
  | 'year'
  | 'object'
  | 'array';

export interface FieldKind {
  readonly kind: Kind;
  readonly max?: number;
  /** Allowed values when the notes enumerate them. */
  readonly values?: readonly string[];
  /** v2 VehicleYear: a string of four digits. */
  readonly fourDigitString?: boolean;
  /** The enumerated values are matched in any letter case (CommercialVehicle; docs/contract.md). */
  readonly anyCase?: boolean;
  /** Req Y (an optional v2 number's '' means omitted; a required one's is "required field is empty"). */
  readonly required?: boolean;
  /** A version 3 date ("ISO 8601 string"): a timestamp needs no zone there (v2 datetime: "UTC ... or offset"). */
  readonly anyZone?: boolean;
}

/** Interprets a row's Type (and Notes). */
export function kindOf(row: SpecRow): FieldKind {
  const t = row.type.toLowerCase();
  let base: FieldKind;
  const sized = /^string\((\d+)\)/.exec(t);
  if (sized) base = { kind: 'string', max: Number(sized[1]) };
  else if (t.startsWith('iso 8601')) base = { kind: 'datetime', anyZone: true };
  else if (t.startsWith('datetime')) base = { kind: 'datetime' };
  else if (t === 'int' || t.startsWith('int,') || t.startsWith('int ')) base = { kind: 'int' };
  else if (t.startsWith('money')) base = { kind: 'money' };
  else if (t.startsWith('integer')) base = { kind: 'integer' };
  else if (t.startsWith('4-digit number')) base = { kind: 'year' };
  else if (t.startsWith('number')) base = { kind: 'number' };
  else if (t.startsWith('boolean')) base = { kind: 'boolean' };
  else if (t.startsWith('email')) base = { kind: 'email' }; // only "email string" is an address; a shop's email is typed string
  else if (t.startsWith('array')) base = { kind: 'array' };
  else if (t.includes('object')) base = { kind: 'object' };
  else if (t.startsWith('string') || t.startsWith('phone string') || t.startsWith('as in')) base = { kind: 'string' };
  else throw new Error(`Unknown type '${row.type}' of ${row.field}`);
  base = { ...base, required: row.req === 'Y' };
  const n = row.notes;
  if (/^Four-digit year/.test(n)) return { ...base, fourDigitString: true };
  if (/^Yes or No/.test(n)) return { ...base, values: ['Yes', 'No'], anyCase: true };
  if (/^REPLACE .* or REPAIR/.test(n)) return { ...base, values: ['REPLACE', 'REPAIR'] };
  return base;
}

/** A valid value of a scalar kind (objects/arrays come from fixtures). */
export function validValue(k: FieldKind, field: string): unknown {
  if (k.values) return k.values[0];
  if (k.fourDigitString) return '2021';
  switch (k.kind) {
    case 'string':
      return `${field.slice(0, 3)}-1`;
    case 'int':
      return 4;
    case 'money':
      return 19.99;
    case 'datetime':
      return '2024-03-15';
    case 'number':
      return 12.75;
    case 'integer':
      return 4;
    case 'boolean':
      return true;
    case 'email':
      return 'jane.doe@example.com';
    case 'year':
      return 2021;
    default:
      throw new Error(`No scalar value for ${k.kind} (${field}): give a fixture`);
  }
}

export interface ValueCase {
  readonly label: string;
  readonly value: unknown;
  /** Expected output after parsing (when the contract converts). */
  readonly output?: unknown;
}

/** More valid values of a request field (all must pass). */
export function validVariants(k: FieldKind): ValueCase[] {
  if (k.values)
    return [
      ...k.values.map((v) => ({ label: `enum value ${v}`, value: v })),
      ...(k.anyCase ? k.values.map((v) => ({ label: `enum value ${v} in lower case (read as ${v})`, value: v.toLowerCase(), output: v })) : []),
    ];
  if (k.fourDigitString) return [{ label: 'four digits', value: '1999' }];
  switch (k.kind) {
    case 'string':
      return k.max
        ? [
            { label: `exactly ${k.max} characters`, value: 'x'.repeat(k.max) },
            { label: `exactly ${k.max} emoji (2 UTF-16 units each, 1 character)`, value: '😀'.repeat(k.max) },
            { label: `exactly ${k.max} accented letters (precomposed)`, value: 'é'.repeat(k.max) },
            { label: `exactly ${k.max} accented letters (e + combining accent: one character)`, value: 'e\u0301'.repeat(k.max) },
            { label: `exactly ${k.max} emoji of several code points (👍🏽, a flag)`, value: '👍🏽🇫🇷'.repeat(k.max / 2) + (k.max % 2 ? '👍🏽' : '') },
          ]
        : [{ label: 'a long string', value: 'x'.repeat(500) }];
    case 'int':
      return [
        { label: 'number', value: 4, output: 4 },
        { label: 'number sent as string "4"', value: '4', output: 4 },
        { label: 'zero', value: 0, output: 0 },
        ...(k.required ? [] : [{ label: 'empty string (optional: omitted)', value: '', output: undefined }]),
      ];
    case 'money':
      return [
        { label: '2 decimals', value: 189.99, output: 189.99 },
        { label: '1 decimal', value: 142.5, output: 142.5 },
        { label: 'whole number', value: 100, output: 100 },
        { label: 'string "12.50"', value: '12.50', output: 12.5 },
        { label: 'string "7"', value: '7', output: 7 },
        { label: '0.29 (float-unfriendly)', value: 0.29, output: 0.29 },
      ];
    case 'datetime':
      return [
        { label: 'date alone', value: '2024-03-15' },
        { label: 'timestamp with Z', value: '2024-03-15T14:30:00Z' },
        { label: 'timestamp with milliseconds and Z', value: '2024-03-15T14:30:00.123Z' },
        { label: 'timestamp with offset', value: '2024-03-15T09:30:00-05:00' },
        { label: 'leap day', value: '2024-02-29' },
        ...(k.anyZone ? [{ label: 'timestamp without a zone (still ISO 8601)', value: '2024-03-15T14:30:00' }] : []),
      ];
    case 'number':
      return [
        { label: 'decimal', value: 12.75 },
        { label: 'integer', value: 3 },
      ];
    case 'integer':
      return [{ label: 'integer', value: 24 }];
    case 'boolean':
      return [
        { label: 'true', value: true },
        { label: 'false', value: false },
      ];
    case 'email':
      return [{ label: 'address', value: 'service@northwind-tire.example.com' }];
    case 'year':
      return [{ label: 'year', value: 1998 }];
    default:
      return [];
  }
}

/** Invalid values of a request field, each with the kind of violation. */
export function invalidVariants(k: FieldKind): ValueCase[] {
  const out: ValueCase[] = [];
  if (k.values) out.push({ label: 'wrong enum value', value: `${k.values[0]}X` });
  if (k.values && !k.anyCase) out.push({ label: 'lower case', value: k.values[0]?.toLowerCase() });
  if (k.fourDigitString) out.push({ label: 'two-digit year', value: '21' }, { label: 'letters', value: 'abcd' });
  switch (k.kind) {
    case 'string':
      out.push({ label: 'wrong type (number)', value: 12345 }, { label: 'wrong type (object)', value: {} });
      if (k.max) out.push({ label: `too long (${k.max + 1} characters)`, value: 'x'.repeat(k.max + 1) }, { label: `too long (${k.max + 1} emoji characters)`, value: '😀'.repeat(k.max + 1) });
      break;
    case 'int':
      out.push(
        { label: 'wrong type (boolean)', value: true },
        { label: 'not a number string', value: 'four' },
        { label: 'decimal', value: 2.5 },
        { label: 'decimal string', value: '2.5' },
        ...(k.required ? [{ label: 'empty string (not converted to 0)', value: '' }] : []),
      );
      break;
    case 'money':
      out.push(
        { label: '3-decimal money', value: 12.345 },
        { label: '3-decimal money string', value: '12.345' },
        { label: 'float artefact 0.1+0.2', value: 0.1 + 0.2 },
        { label: 'wrong type (boolean)', value: true },
        { label: 'not a number string', value: '12,50' },
        ...(k.required ? [{ label: 'empty string', value: '' }] : []),
      );
      break;
    case 'datetime':
      out.push(
        { label: 'bad date (month 13)', value: '2024-13-01' },
        { label: 'bad date (Feb 30)', value: '2024-02-30' },
        { label: 'bad date (US format)', value: '03/15/2024' },
        ...(k.anyZone ? [] : [{ label: 'timestamp without Z or offset', value: '2024-03-15T14:30:00' }]),
        { label: 'bad time (25:00)', value: '2024-03-15T25:00:00Z' },
        { label: 'wrong type (number)', value: 20240315 },
        { label: 'empty string', value: '' },
      );
      break;
    case 'number':
      out.push({ label: 'wrong type (string)', value: '12.75' }, { label: 'wrong type (boolean)', value: true });
      break;
    case 'integer':
      out.push({ label: 'decimal', value: 2.5 }, { label: 'wrong type (string)', value: '24' });
      break;
    case 'boolean':
      out.push({ label: 'wrong type (string)', value: 'true' }, { label: 'wrong type (number)', value: 1 });
      break;
    case 'email':
      out.push({ label: 'not an e-mail address', value: 'jane.doe' }, { label: 'wrong type (number)', value: 5 });
      break;
    case 'year':
      out.push(
        { label: 'two digits', value: 21 },
        { label: 'five digits', value: 20210 },
        { label: 'wrong type (string)', value: '2021' },
        { label: 'decimal', value: 2021.5 },
      );
      break;
    case 'object':
      out.push({ label: 'wrong type (string)', value: 'x' }, { label: 'wrong type (array)', value: [] });
      break;
    case 'array':
      out.push({ label: 'wrong type (string)', value: 'x' }, { label: 'wrong type (object)', value: {} });
      break;
  }
  return out;
}

/** Builds a valid object from rows: every field gets its valid value (or its fixture). */
export function buildValid(rows: readonly SpecRow[], fixtures: Record<string, unknown> = {}): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const r of rows) o[r.field] = r.field in fixtures ? fixtures[r.field] : validValue(kindOf(r), r.field);
  return o;
}

/** Paths (dotted) of all issues of a failed parse. */
export function issuePaths(result: z.ZodSafeParseResult<unknown>): string[] {
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
}
