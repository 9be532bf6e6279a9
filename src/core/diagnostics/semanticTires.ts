import { MAX_TIRE_COUNT, MIN_TIRE_COUNT } from '../contract/limits';
import type { Finding } from './engine';
import { SEMANTIC_RULES } from './semanticRules';
import type { JsonPath } from './types';

/** Plausibility checks of tire counts and DOT serials (warnings; see semantic.ts). */

type Obj = Record<string, unknown>;
/** The path of the record being checked (`[name, index]`, semantic.ts). */
type Base = JsonPath;

/** A whole number from a number or a string of digits, else undefined. */
function whole(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

const DOT_FIELDS = ['TireDOT1', 'TireDOT2', 'TireDOT3', 'TireDOT4', 'TireDOT5', 'TireDOT6'] as const;

/** More TireDOT serials than TiresCovered: no rule of the spec ties the two (plausibility). */
export function tireDots(r: Obj, base: Base, out: Finding[]): void {
  const covered = whole(r.TiresCovered);
  if (covered === undefined || covered >= 6) return;
  // Each serial read by its own name (one shape per read site); the list below is walked only when they outnumber.
  const serials = +filled(r.TireDOT1) + +filled(r.TireDOT2) + +filled(r.TireDOT3) + +filled(r.TireDOT4) + +filled(r.TireDOT5) + +filled(r.TireDOT6);
  if (serials <= covered) return;
  let count = 0;
  for (const field of DOT_FIELDS) {
    if (!filled(r[field])) continue;
    count++;
    if (count > covered)
      out.push({ path: [...base, field], severity: 'warning', code: SEMANTIC_RULES.tireDots, message: `${field}: more TireDOT serials (${count}) than TiresCovered (${covered}); check the count`, section: 'Registration (v2)' });
  }
}

/** A serial given: a string with something other than white space. */
const filled = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';

/**
 * A count the Local sandbox refuses with 400 (below its least count for the field, {@link MIN_TIRE_COUNT}, or above
 * {@link MAX_TIRE_COUNT}; the spec states neither), else a count below 1 (the spec states no minimum, but a record of
 * no tires is almost certainly a mistake). `sandboxLimit` false: a count the sandbox stores whatever it is.
 */
export function tireLimit(r: Obj, field: string, base: Base, section: string, out: Finding[], sandboxLimit = true): void {
  const n = whole(r[field]);
  if (n === undefined) return;
  const min = (MIN_TIRE_COUNT as Readonly<Record<string, number>>)[field] ?? 0;
  const path = [...base, field];
  if (sandboxLimit && (n < min || n > MAX_TIRE_COUNT)) {
    const side = n < min ? `less than the Local sandbox accepts (${min})` : `more than the Local sandbox accepts (${MAX_TIRE_COUNT})`;
    out.push({ path, severity: 'warning', code: SEMANTIC_RULES.sandboxTireLimit, message: `${field}: ${n} tires is ${side}; the Local sandbox refuses it with 400 (the spec states no ${n < min ? 'minimum' : 'maximum'})`, section });
  } else if (n < 1) {
    out.push({ path, severity: 'warning', code: SEMANTIC_RULES.tireCount, message: `${field}: ${n} tires; a count below 1 is unlikely (the spec states no minimum)`, section });
  }
}
