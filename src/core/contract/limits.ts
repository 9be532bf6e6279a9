/**
 * Limits of the Local sandbox where the spec states none (spec: Limits — "Maximum pageSize and maximum number
 * of records per POST request: not shown"). Documented in docs/sandbox.md; the diagnostics warn before them.
 */

/** Largest count of tires that expands into one object per tire (v2 TiresCovered, TireClaimCount, TireCancelCount). */
export const MAX_TIRE_COUNT = 1000;
