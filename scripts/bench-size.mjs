// The size of a benchmark run, shared by every `npm run bench:*` script: full (the sizes its targets are judged at) or
// smoke, when the environment has TPP_BENCH_SMOKE=1: tiny sizes and few rounds, every part still run (each peer, the
// floor, each ratio printed), so that a run takes seconds. `npm test` runs each bench once so (scripts/bench-smoke.mjs)
// to prove it still runs and prints its figures; it never judges the figures. A size given as a flag wins over both.

const value = process.env.TPP_BENCH_SMOKE ?? '';
if (!['', '0', '1'].includes(value)) throw new Error(`TPP_BENCH_SMOKE must be 1 (smoke size) or unset (full size), not ${JSON.stringify(value)}`);

/** True in a smoke run (TPP_BENCH_SMOKE=1). */
export const SMOKE = value === '1';

/** `full`, or `smoke` in a smoke run. */
export function sized(full, smoke) {
  return SMOKE ? smoke : full;
}

/**
 * Whether a target counts as met for the bench's exit code: `met` in a full run; always true in a smoke run, whose
 * sizes are not the target's (the bench still prints the target as met or not).
 */
export function judgeTarget(met) {
  return SMOKE || met;
}

/** The bench's last line, `bench <name>: done`, which the smoke step looks for (`name` as in `npm run bench:<name>`). */
export function done(name) {
  console.log(`bench ${name}: done${SMOKE ? ' (smoke size: the figures show that it runs, not how fast)' : ''}`);
}
