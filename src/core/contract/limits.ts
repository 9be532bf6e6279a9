/**
 * Limits of the Local sandbox where the spec states none (spec: Limits — "Maximum pageSize and maximum number
 * of records per POST request: not shown"). Documented in docs/sandbox.md; the diagnostics warn before them.
 */

/** Largest count of tires that expands into one object per tire (v2 TiresCovered, TireClaimCount, TireCancelCount). */
export const MAX_TIRE_COUNT = 1000;

/**
 * Least tire count of a record the Local sandbox stores, by field: a count of tires is never negative, and a claim
 * repairs at least one tire. The spec states no sign or minimum, so the contract accepts any int and the sandbox
 * refuses what it cannot store as sent (400 naming the field and this range) rather than changing it
 * (docs/contract.md, "Tire counts").
 */
export const MIN_TIRE_COUNT = { TiresCovered: 0, TireClaimCount: 1, TireCancelCount: 0 } as const;
