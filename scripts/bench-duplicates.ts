/**
 * npm run bench:duplicates [-- <n> [<fault-rate>]]
 *
 * Target (docs/sending.md: a write is never sent twice blindly): under 30 % injected 5xx-after-commit faults (the Local sandbox with `--fault-rate 0.3
 * --fault-mode after-commit`: the request is stored, then answered 500), 1,000 creates of each kind sent with
 * `tpp send`'s core (src/core/send/sendFiles.ts) end with 1,000 stored and 0 duplicates, claims included.
 * Prints stored/duplicates per kind; exits 1 when a count is off, in a smoke run too (TPP_BENCH_SMOKE=1,
 * scripts/bench-size.mjs: 20 creates of each kind): a duplicate is a defect at any size.
 */
import { runDuplicateProof } from '../test/unit/client/helpers/afterCommit';
import { done, sized } from './bench-size.mjs';

async function main(): Promise<number> {
  const n = Number(process.argv[2] ?? sized(1000, 20));
  const rate = Number(process.argv[3] ?? 0.3);
  if (!Number.isInteger(n) || n < 1 || !(rate >= 0 && rate < 1)) {
    console.error('usage: npm run bench:duplicates -- [<n> [<fault-rate 0..1>]]');
    return 2;
  }
  console.log(`bench:duplicates: ${n} creates per kind, fault rate ${rate} after commit, Local sandbox in memory`);
  const r = await runDuplicateProof(n, rate);
  console.log(`  ${r.seconds.toFixed(1)} s; the sandbox answered ${r.requests} requests, ${r.injected} of them (${((100 * r.injected) / r.requests).toFixed(1)} %) with an injected 500 after committing`);
  let ok = true;
  for (const [name, k] of [['tire-protection registrations', r.registrations], ['motor-club registrations', r.motorClub], ['claims', r.claims]] as const) {
    console.log(`  ${name.padEnd(30)} sent ${k.sent}, stored ${k.stored}, duplicates ${k.duplicates}, answered 2xx ${k.ok}, recovered ${k.recovered}, wrong ids ${k.wrongIds}`);
    for (const f of k.failures.slice(0, 3)) console.log(`    failed: ${f}`);
    if (k.stored !== n || k.duplicates !== 0 || k.ok !== n || k.wrongIds !== 0) ok = false;
  }
  console.log(ok ? '  OK: every create stored exactly once' : '  FAILED: see the counts above');
  done('duplicates');
  return ok ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(err);
    process.exitCode = 2;
  },
);
