/**
 * docs/sending.md (Writes that may have landed), in small: under `--fault-rate 0.3 --fault-mode after-commit` on the real Local sandbox
 * (30 % of requests stored, then answered 500), N creates of each kind sent with `tpp send`'s core end with exactly
 * N stored and 0 duplicates, every file answered 2xx with the id actually stored. `npm run bench:duplicates` runs
 * the same with N = 1,000.
 */
import assert from 'node:assert/strict';
import { runDuplicateProof, type KindStats } from './helpers/afterCommit';

const N = Number(process.env.TPP_DUPLICATES_N ?? 200);

describe('duplicate-safe creates under after-commit faults (Local sandbox)', function () {
  this.timeout(300_000);

  it(`${N} registrations, ${N} motor-club registrations and ${N} claims: exactly ${N} stored each, 0 duplicates`, async () => {
    const r = await runDuplicateProof(N);
    const line = (name: string, k: KindStats) => `${name}: ${k.stored} stored, ${k.duplicates} duplicates, ${k.ok}/${k.sent} answered 2xx, ${k.recovered} recovered`;
    console.log(`      ${r.seconds.toFixed(1)} s, ${r.requests} requests, ${r.injected} injected 500s after commit`);
    for (const [name, k] of [['registrations', r.registrations], ['motor club', r.motorClub], ['claims', r.claims]] as const) {
      console.log(`      ${line(name, k)}`);
      assert.deepEqual(k.failures, [], name);
      assert.equal(k.ok, N, name);
      assert.equal(k.stored, N, `${name}: stored`);
      assert.equal(k.duplicates, 0, `${name}: duplicates`);
      assert.equal(k.wrongIds, 0, `${name}: an answer is not the id stored`);
      // The faults hit this kind's creates and were recovered (the proof could fail).
      assert.ok(k.recovered >= N * 0.1, `${name}: only ${k.recovered} recovered`);
    }
    assert.ok(r.injected >= r.requests * 0.2, `only ${r.injected} of ${r.requests} requests faulted`);
  });
});
