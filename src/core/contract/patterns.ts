/**
 * Patterns of the contract that JSON Schema carries as they are checked. The dates as `pattern`s (ECMA-262), exact to the calendar: a month's last day, 29
 * February of leap years only (Gregorian, proleptic), hours to 23, minutes and seconds to 59, offsets to 23:59. They
 * accept exactly what `isIsoDateOrTimestamp` accepts (test/unit/contract/primitives.test.ts), so that a validator of
 * the exported schemas refuses `2024-02-30` as the contract and the Local sandbox do (docs/contract.md, Field formats).
 * The contract's own check stays the shorter pattern plus the calendar test of primitives.ts (faster per value).
 */

/** YYYY-MM-DD naming a real day. */
const DAY =
  '(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))' +
  '|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)';
/** T (or t, or a space: RFC 3339) HH:MM, optional :SS and a fraction of up to 9 digits. */
const TIME = '[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?';
/** Z, or an offset ±HH:MM or ±HHMM. */
const ZONE = '(?:[Zz]|[+-](?:[01]\\d|2[0-3]):?[0-5]\\d)';

/** Version 2 datetime: a date, or a timestamp with Z or an offset (spec: Data type formats (v2)). */
export const ISO_DATE_OR_TIMESTAMP_PATTERN = `^${DAY}(?:${TIME}${ZONE})?$`;
/** Version 3 dates ("Dates are ISO 8601 strings"): the same, the zone optional. */
export const ISO_8601_PATTERN = `^${DAY}(?:${TIME}${ZONE}?)?$`;

/**
 * A vehicle identification number: 17 letters (I, O and Q excluded) and digits, any letter case (ISO 3779). The
 * eligibility lookup's `vin` (docs/contract.md, Eligibility query).
 */
export const VIN_RE = /^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$/;
/** What a bad `vin` is told. */
export const VIN_MESSAGE = '17-character VIN expected (letters except I, O, Q, and digits)';
