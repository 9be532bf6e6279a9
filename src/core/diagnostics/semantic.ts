import { digitsAt, email } from '../contract/primitives';
import { COMMERCIAL_VEHICLE_VALUES } from '../contract/v2/fields';
import type { PayloadKind } from '../contract/types';
import type { Finding, SemanticCheck } from './engine';
import { SEMANTIC_RULES } from './semanticRules';
import { tireDots, tireLimit } from './semanticTires';
import type { JsonPath } from './types';

/**
 * Plausibility checks: what the spec does not state but is almost certainly a mistake. Every
 * finding here is a WARNING with its own code: it never blocks sending, and it can be turned off per code
 * (`tpp.diagnostics.disabled`, `tpp validate --ignore <code>`). Rules the spec states are errors of the
 * contract (zod), never of this module. docs/diagnostics.md lists every code.
 */

export { SEMANTIC_RULES } from './semanticRules';

/** How far in the future a date may lie before it is reported (time zones: a date alone is UTC midnight). */
export const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;
/** A date more than this many years before now is reported as far in the past. */
export const PAST_LIMIT_YEARS = 10;
/** Oldest plausible vehicle model year; the newest is next year (model years run ahead). */
export const OLDEST_VEHICLE_YEAR = 1900;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const nameOf = (p: JsonPath): string => String(p[p.length - 1]);

/** Items of the array property `name` of the root (an empty list when it is not an array). */
function list(root: Obj, name: string): readonly unknown[] {
  const v = root[name];
  return Array.isArray(v) ? v : [];
}

/**
 * The path of the record being checked (`[name, index]`): one array per check, its index updated for each record,
 * so nothing is allocated for a plausible record. A finding copies it (`[...base, field]`).
 */
type Base = JsonPath;

/** Duplicate ShopID + InvoiceNumber inside one Registrations array: the later one overwrites the earlier. */
function duplicates(regs: readonly unknown[], out: Finding[]): void {
  // Keyed by the InvoiceNumber as parsed (its hash is kept by the string), the first registration of each; a
  // pair only for an invoice number that several shops use. No string is built per registration.
  const byInvoice = new Map<string, number>();
  let byPair: Map<string, number> | undefined;
  for (let i = 0; i < regs.length; i++) {
    const r = regs[i];
    if (!isObj(r) || r.ShopID === undefined || r.InvoiceNumber === undefined) continue;
    const invoice = String(r.InvoiceNumber);
    const shop = String(r.ShopID);
    let earlier = byInvoice.get(invoice);
    if (earlier === undefined) {
      byInvoice.set(invoice, i);
      continue;
    }
    if (String((regs[earlier] as Obj).ShopID) !== shop) {
      const key = JSON.stringify([shop, invoice]);
      earlier = (byPair ??= new Map()).get(key);
      if (earlier === undefined) {
        byPair.set(key, i);
        continue;
      }
    }
    out.push({
      path: ['Registrations', i, 'InvoiceNumber'],
      severity: 'warning',
      code: SEMANTIC_RULES.duplicateRegistration,
      message: `InvoiceNumber: Registrations[${i}] repeats ShopID ${shop} + InvoiceNumber ${invoice} of Registrations[${earlier}]; the later one overwrites the earlier`,
      section: 'Registration (v2)',
    });
  }
}

/** Window of plausible dates around `now`, in milliseconds, with the years for a cheap first test. */
interface DateWindow {
  readonly min: number;
  readonly max: number;
  readonly minYear: number;
  readonly maxYear: number;
}

function windowOf(now: Date): DateWindow {
  const max = now.getTime() + FUTURE_TOLERANCE_MS;
  const min = Date.UTC(now.getUTCFullYear() - PAST_LIMIT_YEARS, now.getUTCMonth(), now.getUTCDate());
  return { min, max, minYear: new Date(min).getUTCFullYear(), maxYear: new Date(max).getUTCFullYear() };
}

/** Reports a date that lies in the future (beyond a day) or more than {@link PAST_LIMIT_YEARS} years ago. */
function dateCheck(v: unknown, w: DateWindow, base: Base, field: string, what: string, section: string, out: Finding[], future = true): void {
  if (typeof v !== 'string' || v.length < 4) return;
  // Cheap exit for the common case: a year strictly inside the window's years (read from the digits, no substring).
  const year = digitsAt(v, 0, 4);
  if (year > w.minYear && year < w.maxYear) return;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return;
  if (future && t > w.max) {
    out.push({ path: [...base, field], severity: 'warning', code: SEMANTIC_RULES.futureDate, message: `${field}: ${v} is in the future; the ${what} has already happened`, section });
  } else if (t < w.min) {
    out.push({ path: [...base, field], severity: 'warning', code: SEMANTIC_RULES.pastDate, message: `${field}: ${v} is more than ${PAST_LIMIT_YEARS} years ago; check the ${what} date`, section });
  }
}

const ZONELESS_RE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/;

/** A version 3 timestamp without Z or an offset: ISO 8601 (accepted), but the time zone is left to the server. */
function zoneCheck(v: unknown, path: JsonPath, section: string, out: Finding[]): void {
  if (typeof v !== 'string' || !ZONELESS_RE.test(v)) return;
  out.push({ path, severity: 'warning', code: SEMANTIC_RULES.dateWithoutZone, message: `${nameOf(path)}: ${v} has no time zone; add Z (UTC) or an offset so the server cannot read it in another zone`, section, replaceWith: `${v}Z` });
}

/** Version 3 date fields of the root checked for a missing time zone. */
const v3Zones = (section: string, ...fields: string[]): SemanticCheck => (root) => {
  const out: Finding[] = [];
  for (const f of fields) zoneCheck(root[f], [f], section, out);
  return out;
};

/** A vehicle year outside 1900..next year (v2 VehicleYear is a string, v3 vehicle.year a number). */
function vehicleYear(v: unknown, now: Date, base: Base, field: string, section: string, out: Finding[]): void {
  const year = typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && v.length === 4 ? digitsAt(v, 0, 4) : undefined;
  if (year === undefined || Number.isNaN(year)) return;
  const max = now.getUTCFullYear() + 1;
  if (year >= OLDEST_VEHICLE_YEAR && year <= max) return;
  out.push({ path: [...base, field], severity: 'warning', code: SEMANTIC_RULES.vehicleYear, message: `${field}: vehicle year ${year} is outside ${OLDEST_VEHICLE_YEAR}..${max}; check it`, section });
}

/** CommercialVehicle in another letter case than the spec's Yes / No (accepted and converted). */
function commercialVehicle(v: unknown, base: Base, out: Finding[]): void {
  if (typeof v !== 'string' || v === '' || (COMMERCIAL_VEHICLE_VALUES as readonly string[]).includes(v)) return;
  const canonical = COMMERCIAL_VEHICLE_VALUES.find((c) => c.toLowerCase() === v.toLowerCase());
  if (canonical)
    out.push({ path: [...base, 'CommercialVehicle'], severity: 'warning', code: SEMANTIC_RULES.commercialVehicleCase, message: `CommercialVehicle: the spec writes ${canonical}; "${v}" is accepted and read as ${canonical}`, section: 'Registration (v2)', replaceWith: canonical });
}

const emailSchema = email();
/** A shop e-mail (typed plain "string" by the spec) that is not an address. */
function emailFormat(v: unknown, path: JsonPath, out: Finding[]): void {
  if (typeof v !== 'string' || v === '' || emailSchema.safeParse(v).success) return;
  out.push({ path, severity: 'warning', code: SEMANTIC_RULES.emailFormat, message: `${String(path[0])}${path.length > 1 ? `[${String(path[1])}]` : ''}: "${v}" does not look like an e-mail address (name@example.com)`, section: 'Shop' });
}

/** Required strings of the earlier-revision registration (spec: its field tables; `*` = every array item). */
const REGISTRATION_REQUIRED_STRINGS: readonly (readonly string[])[] = [
  ['product_id'],
  ['invoiceNumber'],
  ['customer', 'name'],
  ...['line1', 'city', 'state', 'zip'].map((f) => ['customer', 'address', f]),
  ...['make', 'model', 'size'].map((f) => ['tires', '*', f]),
  ['vehicle', 'make'],
  ['vehicle', 'model'],
];

/** '' in a required version 3 string: accepted (the 400 for it is stated for version 2 only), but likely a gap. */
const emptyRequired: SemanticCheck = (root) => {
  const out: Finding[] = [];
  const walk = (v: unknown, rest: readonly string[], path: JsonPath): void => {
    if (rest.length === 0) {
      if (v === '') out.push({ path, severity: 'warning', code: SEMANTIC_RULES.emptyValue, message: `${nameOf(path)}: required field is empty (accepted: the spec makes an empty required field a 400 in version 2 only)`, section: 'Registration, earlier revision (paths without product prefix)' });
      return;
    }
    const [head, ...tail] = rest as [string, ...string[]];
    if (head === '*') {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, tail, [...path, i]));
    } else if (isObj(v)) walk(v[head], tail, [...path, head]);
  };
  for (const p of REGISTRATION_REQUIRED_STRINGS) walk(root, p, []);
  return out;
};

/** A check over the items of a v2 array property. */
const v2Records =
  (name: string, dateField: string, what: string, section: string, extra?: (r: Obj, base: Base, now: Date, out: Finding[]) => void): SemanticCheck =>
  (root, { now }) => {
    const out: Finding[] = [];
    const w = windowOf(now);
    const items = list(root, name);
    const base: [string, number] = [name, 0];
    for (let i = 0; i < items.length; i++) {
      const r = items[i];
      if (!isObj(r)) continue;
      base[1] = i;
      dateCheck(r[dateField], w, base, dateField, what, section, out, name !== 'Cancellations');
      extra?.(r, base, now, out);
    }
    return out;
  };

const v2Registrations = v2Records('Registrations', 'PlanEnrollDate', 'enrolment', 'Registration (v2)', (r, base, now, out) => {
  tireDots(r, base, out);
  tireLimit(r, 'TiresCovered', base, 'Registration (v2)', out);
  vehicleYear(r.VehicleYear, now, base, 'VehicleYear', 'Registration (v2)', out);
  commercialVehicle(r.CommercialVehicle, base, out);
});

const v2Duplicates: SemanticCheck = (root) => {
  const out: Finding[] = [];
  duplicates(list(root, 'Registrations'), out);
  return out;
};

const v3Registration = (section: string, vehicle: boolean): SemanticCheck => (root, { now }) => {
  const out: Finding[] = [];
  dateCheck(root.enrollDate, windowOf(now), [], 'enrollDate', 'enrolment', section, out);
  zoneCheck(root.enrollDate, ['enrollDate'], section, out);
  if (vehicle && isObj(root.vehicle)) vehicleYear(root.vehicle.year, now, ['vehicle'], 'year', section, out);
  return out;
};

const v3Dated = (field: string, what: string, section: string, future = true): SemanticCheck => (root, { now }) => {
  const out: Finding[] = [];
  dateCheck(root[field], windowOf(now), [], field, what, section, out, future);
  zoneCheck(root[field], [field], section, out);
  return out;
};

/** A claim listing no tires: the Local sandbox counts a claim's tires by its `tires` items and refuses none (400). */
const claimTires: SemanticCheck = (root) => {
  const tires = root.tires;
  if (tires !== undefined && (!Array.isArray(tires) || tires.length > 0)) return [];
  const message = `tires: a claim listing no tires; the Local sandbox refuses it with 400 (it counts the tires a claim lists; the spec states no minimum)`;
  return [{ path: tires === undefined ? [] : ['tires'], severity: 'warning', code: SEMANTIC_RULES.sandboxTireLimit, message, section: 'Claim (tire protection)' }];
};

const shopEmails: SemanticCheck = (root) => {
  const out: Finding[] = [];
  if (Array.isArray(root.email)) root.email.forEach((e, i) => emailFormat(e, ['email', i], out));
  else emailFormat(root.email, ['email'], out);
  return out;
};

/** Plausibility checks of each payload kind (kinds without any are absent). */
export const SEMANTIC_CHECKS: Partial<Record<PayloadKind, readonly SemanticCheck[]>> = {
  'v2-registrations': [v2Registrations, v2Duplicates],
  'v2-claims': [v2Records('Claims', 'ClaimDate', 'claim', 'Claim (v2)', (r, base, _now, out) => tireLimit(r, 'TireClaimCount', base, 'Claim (v2)', out))],
  'v2-sales': [v2Records('Sales', 'SaleDate', 'sale', 'Sale (v2)', (r, base, _now, out) => tireLimit(r, 'TireCount', base, 'Sale (v2)', out, false))],
  'v2-cancellations': [v2Records('Cancellations', 'CancelDate', 'cancellation', 'Cancellation (v2, deprecated)', (r, base, _now, out) => tireLimit(r, 'TireCancelCount', base, 'Cancellation (v2, deprecated)', out))],
  registration: [v3Registration('Registration, earlier revision (paths without product prefix)', true), emptyRequired],
  'tire-protection-registration': [v3Registration('Tire-protection registration', true)],
  'motor-club-registration': [v3Registration('Motor-club registration', false)],
  'tire-protection-claim': [v3Dated('serviceInvoiceDate', 'repair', 'Claim (tire protection)'), claimTires],
  transaction: [v3Dated('date', 'sale', 'Transaction (manufacturer to dealer)')],
  part: [v3Dated('date', 'sale', 'Part (sold to a shop)')],
  shop: [shopEmails, v3Zones('Shop', 'startDate')],
  'shop-update': [shopEmails, v3Zones('Shop', 'startDate', 'endDate')],
  cancellation: [v3Dated('cancelledOn', 'cancellation', 'States and transitions', false)],
};
