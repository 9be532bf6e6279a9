import { z } from 'zod';
import { ISO_8601_PATTERN, ISO_DATE_OR_TIMESTAMP_PATTERN } from './patterns';

/**
 * Field primitives shared by the version 2 and version 3 schemas (spec: Resources and their fields,
 * "Data type formats (v2)"). Every check carries an error message in the spec's words, because the
 * diagnostics layer shows zod issue messages to users verbatim.
 */

/** Required flag of a spec field table: Y = required, N = optional, '' = not marked required (optional). */
export type ReqFlag = 'Y' | 'N' | '';

/** Messages used by the primitives, exported so that tests and other layers can match them. */
export const MESSAGES = {
  missing: 'required field is missing',
  empty: 'required field is empty',
  string: 'expected a string',
  maxLength: (n: number) => `at most ${n} characters`,
  /** Version 2 int: "Numbers may be sent as strings and are converted" (spec: Version 2 records). */
  int: 'integer expected (a whole number, or a string of digits such as "4")',
  /** Version 3 integer: a JSON number only (the strings rule is version 2's). */
  integer: 'integer expected (a whole JSON number such as 4)',
  number: 'number expected',
  money: 'money with at most 2 decimals (a number such as 12.5, or a matching string such as "12.50")',
  /** Version 2 datetime: "ISO 8601, UTC preferred or with a designated UTC offset". */
  datetime: 'ISO 8601 date or timestamp with Z or an offset (e.g. 2024-03-15 or 2024-03-15T14:30:00Z)',
  /** Version 3 dates: "Dates are ISO 8601 strings" (a zone is not required there). */
  isoDate: 'ISO 8601 date or timestamp (e.g. 2024-03-15 or 2024-03-15T14:30:00Z)',
  boolean: 'expected true or false',
  email: 'e-mail address expected (name@example.com)',
  vehicleYear: 'four-digit year (e.g. "2021")',
  object: 'expected an object',
  array: 'expected an array',
  stringOrStrings: 'a string or an array of strings',
  /**
   * A field of the other body of a shared PATCH (spec: Endpoints, motor-club registrations: the customer update and
   * the cancellation are separate requests on one path): refused, never dropped.
   */
  cancelWithCustomer: 'a customer update and a cancellation are separate requests: send cancelledOn in a PATCH of its own',
  customerWithCancel: 'a cancellation takes cancelledOn alone and a customer update is a separate request: send customer in a PATCH of its own',
} as const;

/**
 * Builds a zod error function: "required field is missing" for undefined input, "required field is empty"
 * for '' when `required`, otherwise `expected`.
 */
export function errorFor(expected: string, required = true): (iss: { input?: unknown }) => string {
  return (iss) =>
    iss.input === undefined ? MESSAGES.missing : iss.input === '' && required ? MESSAGES.empty : expected;
}

/** Options of the primitives: whether the field is required (changes the message for ''). */
export interface PrimitiveOptions {
  readonly required?: boolean;
}

/** Strict money string: optional minus, digits, at most 2 decimals. */
export const MONEY_STRING_RE = /^-?\d+(\.\d{1,2})?$/;
/** Integer sent as a string: optional minus, digits. */
export const INT_STRING_RE = /^-?\d+$/;

/**
 * True when the number `n` has at most 2 decimals. Works on the shortest string form of the number
 * (what JSON wrote), so 0.1 + 0.2 (0.30000000000000004) is rejected and 12.5 / 12.05 are accepted.
 */
export function hasAtMostTwoDecimals(n: number): boolean {
  if (!Number.isFinite(n)) return false;
  if (Number.isInteger(n)) return true;
  // Cents k = round(100 n): when k / 100 gives n back, n is the double nearest to a 2-decimal amount, and its
  // shortest form (what JSON wrote) is that amount. Saves the number-to-string conversion of nearly every value.
  if (Math.round(n * 100) / 100 === n) return true;
  return MONEY_STRING_RE.test(String(n));
}

/**
 * Pattern of an ISO 8601 date (YYYY-MM-DD) or timestamp with Z or a UTC offset
 * (YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM|±HHMM)). A timestamp without a zone is rejected:
 * the spec asks for UTC or a designated offset.
 */
export const ISO_DATE_OR_TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):?(\d{2})))?$/;

/**
 * Version 3 dates ("Dates are ISO 8601 strings"): the same shapes, but a timestamp may have no zone (it is still
 * ISO 8601; the diagnostics warn about it, code date-without-zone).
 */
export const ISO_8601_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))?)?$/;

/** Days of each month of a common year (February: see {@link isLeapYear}). */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Gregorian leap year (proleptic, as ISO 8601 counts years). */
const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * The number written by the `length` characters of `s` from `start` when they are all ASCII digits, else NaN. Reads
 * a fixed-width field (a year, a month) without taking a substring or running a pattern.
 */
export function digitsAt(s: string, start: number, length: number): number {
  let n = 0;
  for (let i = start; i < start + length; i++) {
    const c = s.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return Number.NaN;
    n = n * 10 + c;
  }
  return n;
}

/** True when `s` is exactly YYYY-MM-DD naming a real calendar day (the common date alone, read without a pattern). */
function isCalendarDate(s: string): boolean {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false; // '-'
  const year = digitsAt(s, 0, 4);
  const month = digitsAt(s, 5, 2);
  const day = digitsAt(s, 8, 2);
  if (!(year >= 0) || !(month >= 1 && month <= 12) || !(day >= 1)) return false;
  return day <= (month === 2 ? (isLeapYear(year) ? 29 : 28) : DAYS_IN_MONTH[month - 1]!);
}

/**
 * True when `s` is an ISO 8601 date alone, or a timestamp with Z or an offset, naming a real calendar day
 * and time (2024-02-30 and 25:00 are rejected). Spec: Data type formats (v2); v3 "Dates are ISO 8601 strings".
 */
export function isIsoDateOrTimestamp(s: string, zone: 'required' | 'optional' = 'required'): boolean {
  if (s.length === 10) return isCalendarDate(s);
  const m = (zone === 'required' ? ISO_DATE_OR_TIMESTAMP_RE : ISO_8601_RE).exec(s);
  if (!m) return false;
  const [, y, mo, d, h, mi, se, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > (month === 2 ? (isLeapYear(year) ? 29 : 28) : DAYS_IN_MONTH[month - 1]!)) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59)) return false;
  if (se !== undefined && Number(se) > 59) return false;
  if (oh !== undefined && (Number(oh) > 23 || Number(om) > 59)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Request primitives (payloads as sent). Required v2 strings must not be empty (v2: "If a required
// field is empty or malformed, the response is 400"); the spec states that for version 2 only, so a
// required v3 string may be '' (the diagnostics warn: empty-value).
// ---------------------------------------------------------------------------------------------

const ASCII_RE = /^[^\u0080-\uffff]*$/; // no UTF-16 unit above 0x7f

// Made on first use: creating a Segmenter loads ICU's break rules (milliseconds at start-up), and most strings are short.
let graphemes: Intl.Segmenter | undefined;

/**
 * Length of `s` in characters as the spec's string(n) counts them ("string of at most n characters"): what a
 * reader sees as one character (a Unicode extended grapheme cluster). An accented letter is one character
 * whether it is sent precomposed (é) or as e + combining accent, and an emoji is one character also when it is
 * two UTF-16 units (😀) or several code points (👍🏽, 🇫🇷). Never more than the code points or UTF-16 units.
 */
export function charLength(s: string): number {
  // Plain ASCII (nearly every value): each unit is one character except CR LF, one cluster of two (Unicode UAX #29,
  // GB3). A Segmenter step costs ~30 us per string; this is a scan.
  if (ASCII_RE.test(s)) {
    let crlf = 0;
    for (let i = s.indexOf('\r\n'); i >= 0; i = s.indexOf('\r\n', i + 2)) crlf++;
    return s.length - crlf;
  }
  let n = 0;
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const _ of graphemes.segment(s)) n++;
  return n;
}

/** True when `s` has at most `max` characters ({@link charLength}); nothing is counted when its UTF-16 length fits. */
export function fitsLength(s: string, max: number): boolean {
  return s.length <= max || charLength(s) <= max;
}

/**
 * A string, optionally of at most `max` characters (counted by {@link charLength}: grapheme clusters);
 * `nonEmpty` rejects '' with "required field is empty". The message of a too long string is
 * "at most n characters, got m". JSON Schema: `maxLength` n.
 */
export function str(opts: { max?: number; nonEmpty?: boolean } = {}) {
  let s = z.string({ error: errorFor(MESSAGES.string) });
  if (opts.nonEmpty) s = s.min(1, { error: MESSAGES.empty, abort: true });
  const max = opts.max;
  if (max !== undefined) {
    s = s
      .refine((v) => fitsLength(v, max), {
        error: (iss) => `${MESSAGES.maxLength(max)}${typeof iss.input === 'string' ? `, got ${charLength(iss.input)}` : ''}`,
      })
      .meta({ maxLength: max });
  }
  return s;
}

/**
 * Version 2 int: a whole number, or a string of digits ("4") converted to a number ("Numbers may be sent as
 * strings and are converted"). A required int's '' fails as "required field is empty" (never 0); an optional
 * int's '' means omitted ("Blank if omitted") and becomes undefined. Output: number (or undefined).
 */
export function int(opts: PrimitiveOptions = {}) {
  const required = opts.required ?? true;
  const branches = [
    z.number().int({ error: MESSAGES.int }),
    z.string().regex(INT_STRING_RE, { error: errorFor(MESSAGES.int, required) }),
    ...(required ? [] : [z.literal('')]),
  ] as const;
  return z
    .union(branches, { error: errorFor(MESSAGES.int, required) })
    .transform((v) => (v === '' ? undefined : typeof v === 'number' ? v : Number(v)));
}

/**
 * Version 2 money: a number with at most 2 decimals, or a string matching /^-?\d+(\.\d{1,2})?$/ ("12.50").
 * An optional money field's '' means omitted (undefined). Output: number (units of the currency, 2 decimals).
 * Spec: "money (number with 2 decimals, or a matching string)".
 */
export function money(opts: PrimitiveOptions = {}) {
  const required = opts.required ?? true;
  const branches = [
    // No `multipleOf: 0.01` in the JSON Schema: validators that divide binary floats (ajv's default, hence Prism) would
    // refuse ordinary prices such as 19.99 (19.99 / 0.01 = 1998.9999999999998). The decimals rule is the contract's
    // own check ({@link hasAtMostTwoDecimals}); docs/contract.md, money.
    z.number(),
    z.string().regex(MONEY_STRING_RE, { error: errorFor(MESSAGES.money, required) }),
    ...(required ? [] : [z.literal('')]),
  ] as const;
  return z
    .union(branches, { error: errorFor(MESSAGES.money, required) })
    .refine((v) => typeof v === 'string' || hasAtMostTwoDecimals(v), { error: MESSAGES.money })
    .transform((v) => (v === '' ? undefined : typeof v === 'number' ? v : Number(v)));
}

/**
 * ISO 8601 date or timestamp (string, unchanged). Version 2 (`zone` 'required', the default): a timestamp
 * needs Z or an offset, and a required field's '' is "required field is empty". Version 3 (`zone`
 * 'optional'): a timestamp without a zone is accepted, and '' is simply not a date.
 */
export function isoDate(opts: PrimitiveOptions & { zone?: 'required' | 'optional' } = {}) {
  const v3 = opts.zone === 'optional';
  const message = v3 ? MESSAGES.isoDate : MESSAGES.datetime;
  return z
    .string({ error: errorFor(message) })
    .min(1, { error: (opts.required ?? true) && !v3 ? MESSAGES.empty : message, abort: true })
    .regex(v3 ? ISO_8601_RE : ISO_DATE_OR_TIMESTAMP_RE, { error: message, abort: true })
    .refine((s) => isIsoDateOrTimestamp(s, v3 ? 'optional' : 'required'), { error: message })
    .meta({ pattern: v3 ? ISO_8601_PATTERN : ISO_DATE_OR_TIMESTAMP_PATTERN });
}

/** A JSON number (version 3 number fields; strings are not converted there). */
export function num() {
  return z.number({ error: errorFor(MESSAGES.number) });
}

/** A JSON integer (version 3 integer fields; strings are not converted there). */
export function integer() {
  return z.number({ error: errorFor(MESSAGES.integer) }).int({ error: MESSAGES.integer });
}

/** A JSON boolean. */
export function bool() {
  return z.boolean({ error: errorFor(MESSAGES.boolean) });
}

/** An e-mail address (only where the spec types the field "email string": the earlier revision's customer). */
export function email() {
  return z.email({ error: errorFor(MESSAGES.email) });
}

// ---------------------------------------------------------------------------------------------
// Response primitives (records read back): tolerant of the server's representation.
// ---------------------------------------------------------------------------------------------

/** Integer read back: number or numeric string, converted to number. */
export function readInt() {
  return z
    .union([z.number(), z.string().regex(/^\s*-?\d+(\.0+)?\s*$/)], { error: errorFor(MESSAGES.int) })
    .transform((v) => (typeof v === 'number' ? v : Number(v)));
}

/** Money read back: number or numeric string (any decimals), converted to number. */
export function readMoney() {
  return z
    .union([z.number(), z.string().regex(/^\s*-?\d+(\.\d+)?\s*$/)], { error: errorFor(MESSAGES.money) })
    .transform((v) => (typeof v === 'number' ? v : Number(v)));
}

/** Date read back: a string (not re-validated; "empty when not set" may be '' or null). */
export function readDate() {
  return z.string({ error: errorFor(MESSAGES.datetime) }).nullable();
}
