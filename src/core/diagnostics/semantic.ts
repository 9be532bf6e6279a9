import type { PayloadKind } from '../contract/types';
import type { Finding, SemanticCheck } from './engine';
import type { JsonPath } from './types';

/**
 * Checks the JSON Schema cannot express, run on the plain parsed value (issue: semantic checks).
 * Severity: an inconsistency the data cannot mean (more DOT serials than tires, an impossible vehicle
 * year) is an error; what is legal but almost certainly a mistake (an overwrite by a duplicate, a date in
 * the future, a deprecated record type) is a warning.
 */

export const SEMANTIC_RULES = {
  tireDots: 'tire-dots',
  duplicateRegistration: 'duplicate-registration',
  futureDate: 'future-date',
  vehicleYear: 'vehicle-year',
  deprecated: 'deprecated',
} as const;

/** How far in the future a date may lie before it is reported (time zones: a date alone is UTC midnight). */
export const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Items of the array property `name` of the root (an empty list when it is not an array). */
function list(root: Obj, name: string): readonly unknown[] {
  const v = root[name];
  return Array.isArray(v) ? v : [];
}

/** A whole number from a number or a string of digits, else undefined. */
function whole(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

const DOT_FIELDS = ['TireDOT1', 'TireDOT2', 'TireDOT3', 'TireDOT4', 'TireDOT5', 'TireDOT6'] as const;

/** TireDOT1..TireDOT6 beyond TiresCovered (spec: Registration (v2): DOT fields give the serial of each covered tire). */
function tireDots(r: Obj, base: JsonPath, out: Finding[]): void {
  const covered = whole(r.TiresCovered);
  if (covered === undefined || covered >= 6) return;
  let count = 0;
  for (const field of DOT_FIELDS) {
    const v = r[field];
    if (typeof v !== 'string' || v.trim() === '') continue;
    count++;
    if (count > covered)
      out.push({
        path: [...base, field],
        severity: 'error',
        code: SEMANTIC_RULES.tireDots,
        message: `${field}: more TireDOT serials (${count}) than TiresCovered (${covered})`,
        section: 'Registration (v2)',
      });
  }
}

/** Duplicate ShopID + InvoiceNumber inside one Registrations array: the later one overwrites the earlier. */
function duplicates(regs: readonly unknown[], out: Finding[]): void {
  const first = new Map<string, number>();
  for (let i = 0; i < regs.length; i++) {
    const r = regs[i];
    if (!isObj(r) || r.ShopID === undefined || r.InvoiceNumber === undefined) continue;
    const key = `${String(r.ShopID)}\u0000${String(r.InvoiceNumber)}`;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else
      out.push({
        path: ['Registrations', i, 'InvoiceNumber'],
        severity: 'warning',
        code: SEMANTIC_RULES.duplicateRegistration,
        message: `InvoiceNumber: Registrations[${i}] repeats ShopID ${String(r.ShopID)} + InvoiceNumber ${String(r.InvoiceNumber)} of Registrations[${earlier}]; the later one overwrites the earlier`,
        section: 'Registration (v2)',
      });
  }
}

let cachedLimit = NaN;
let cachedYear = NaN;
/** UTC year of the instant `limit` (milliseconds), memoised for the loop over records. */
function limitYear(limit: number): number {
  if (limit !== cachedLimit) {
    cachedLimit = limit;
    cachedYear = new Date(limit).getUTCFullYear();
  }
  return cachedYear;
}

/** Reports a date string that parses and lies more than {@link FUTURE_TOLERANCE_MS} after `now`. */
function futureDate(v: unknown, limit: number, path: () => JsonPath, what: string, section: string, out: Finding[]): void {
  if (typeof v !== 'string') return;
  // Cheap exit for the common case: a year (first 4 digits) before the limit's year is not in the future.
  const year = v.length >= 4 ? Number(v.slice(0, 4)) : NaN;
  if (year < limitYear(limit)) return;
  const t = Date.parse(v);
  if (Number.isNaN(t) || t <= limit) return;
  const p = path();
  const name = String(p[p.length - 1]);
  out.push({ path: p, severity: 'warning', code: SEMANTIC_RULES.futureDate, message: `${name}: ${v} is in the future; the ${what} has already happened`, section });
}

/** Reports a vehicle year outside 1900..next year (v2 VehicleYear is a string, v3 vehicle.year a number). */
function vehicleYear(v: unknown, now: Date, path: () => JsonPath, section: string, out: Finding[]): void {
  if (v === undefined) return;
  const year = typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d{4}$/.test(v) ? Number(v) : undefined;
  if (year === undefined) return;
  const max = now.getUTCFullYear() + 1;
  if (year >= 1900 && year <= max) return;
  const p = path();
  const name = String(p[p.length - 1]);
  out.push({ path: p, severity: 'error', code: SEMANTIC_RULES.vehicleYear, message: `${name}: vehicle year ${year} is outside 1900..${max}`, section });
}

/** A check over the items of a v2 array property. */
const v2Records =
  (name: string, dateField: string, what: string, section: string, extra?: (r: Obj, i: number, now: Date, out: Finding[]) => void): SemanticCheck =>
  (root, { now }) => {
    const out: Finding[] = [];
    const limit = now.getTime() + FUTURE_TOLERANCE_MS;
    const items = list(root, name);
    for (let i = 0; i < items.length; i++) {
      const r = items[i];
      if (!isObj(r)) continue;
      futureDate(r[dateField], limit, () => [name, i, dateField], what, section, out);
      extra?.(r, i, now, out);
    }
    return out;
  };

const v2Registrations = v2Records('Registrations', 'PlanEnrollDate', 'enrolment', 'Registration (v2)', (r, i, now, out) => {
  tireDots(r, ['Registrations', i], out);
  vehicleYear(r.VehicleYear, now, () => ['Registrations', i, 'VehicleYear'], 'Registration (v2)', out);
});

const v2Duplicates: SemanticCheck = (root) => {
  const out: Finding[] = [];
  duplicates(list(root, 'Registrations'), out);
  return out;
};

const v3Registration = (section: string, vehicle: boolean): SemanticCheck => (root, { now }) => {
  const out: Finding[] = [];
  futureDate(root.enrollDate, now.getTime() + FUTURE_TOLERANCE_MS, () => ['enrollDate'], 'enrolment', section, out);
  if (vehicle && isObj(root.vehicle)) vehicleYear(root.vehicle.year, now, () => ['vehicle', 'year'], section, out);
  return out;
};

const v3Dated = (field: string, what: string, section: string): SemanticCheck => (root, { now }) => {
  const out: Finding[] = [];
  futureDate(root[field], now.getTime() + FUTURE_TOLERANCE_MS, () => [field], what, section, out);
  return out;
};

/** Semantic checks of each payload kind (kinds without any are absent). */
export const SEMANTIC_CHECKS: Partial<Record<PayloadKind, readonly SemanticCheck[]>> = {
  'v2-registrations': [v2Registrations, v2Duplicates],
  'v2-claims': [v2Records('Claims', 'ClaimDate', 'claim', 'Claim (v2)')],
  'v2-sales': [v2Records('Sales', 'SaleDate', 'sale', 'Sale (v2)')],
  registration: [v3Registration('Registration, earlier revision (paths without product prefix)', true)],
  'tire-protection-registration': [v3Registration('Tire-protection registration', true)],
  'motor-club-registration': [v3Registration('Motor-club registration', false)],
  'tire-protection-claim': [v3Dated('serviceInvoiceDate', 'repair', 'Claim (tire protection)')],
  transaction: [v3Dated('date', 'sale', 'Transaction (manufacturer to dealer)')],
  part: [v3Dated('date', 'sale', 'Part (sold to a shop)')],
};
