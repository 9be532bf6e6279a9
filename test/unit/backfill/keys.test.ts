/**
 * Rows are known by their key, not their position (docs/backfills.md, Rows are known by their key): rows inserted,
 * removed or reordered in the data file after a run stopped resume as the rows they are, against an in-process Local
 * sandbox: each row stored once, none reported changed, no 409.
 */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { Client } from '../sandbox/helpers';
import { backfill, registrationCsv, registrationsPerInvoice, suiteSandbox } from './helpers';

describe('backfill rows known by their key', function () {
  this.timeout(60_000);
  const suite = suiteSandbox();
  let c: Client;
  before(() => (c = suite.client()));

  /** The CSV of `prefix` with its body rows in the order of `numbers`. */
  const csvOf = (prefix: string, numbers: readonly number[]) => {
    const [head, ...rows] = registrationCsv(prefix, Math.max(...numbers)).trim().split('\n');
    return `${[head, ...numbers.map((n) => rows[n - 1])].join('\n')}\n`;
  };

  for (const [i, name, edit] of [
    [1, 'a row inserted before the rows sent', (ns: number[]) => [ns[0], 99, ...ns.slice(1)]],
    [2, 'a row removed before the rows sent', (ns: number[]) => ns.filter((n) => n !== 2)],
    [3, 'the rows reordered', (ns: number[]) => [...ns].reverse()],
  ] as const) {
    it(`${name}: --resume sends each row not sent yet, once, and nothing else`, async () => {
      const prefix = `KEY${i}`;
      const first = [1, 2, 3, 4, 5, 6, 7, 8];
      const w = suite.ws(csvOf(prefix, first.slice(0, 5)));
      assert.equal((await backfill(w, c)).summary.created, 5);
      const later = edit(first) as number[];
      writeFileSync(w.dataPath, csvOf(prefix, later));
      const again = await backfill(w, c, { resume: true });
      const expected = later.filter((n) => n > 5); // 99 is the row inserted
      assert.deepEqual(again.rows.map((r) => r.status).filter((s) => s !== 'created'), [], JSON.stringify(again.rows));
      assert.equal(again.summary.created, expected.length, JSON.stringify(again.rows));
      assert.equal(again.summary.done, later.length - expected.length);
      const per = await registrationsPerInvoice(c);
      for (const n of later) assert.equal(per.get(`${prefix}-${n}`), 1, `${prefix}-${n}`);
    });
  }

  it('two rows with one invoice number: the second is a conflict, and both resume as what they are', async () => {
    const w = suite.ws(registrationCsv('TWICE', 3, (n, cells) => (n === 3 ? ['TWICE-1', ...cells.slice(1)] : cells)));
    const r = await backfill(w, c, { jobs: 1 });
    assert.deepEqual(r.rows.map((x) => [x.row, x.status]), [[1, 'created'], [2, 'created'], [3, 'conflict']], JSON.stringify(r.rows));
    const again = await backfill(w, c, { resume: true });
    assert.deepEqual(again.rows.map((x) => [x.row, x.status]), [[3, 'conflict']], JSON.stringify(again.rows));
    assert.equal(again.summary.done, 2);
  });
});
