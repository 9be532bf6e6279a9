/**
 * Rows are known by their key, not their position (docs/backfills.md, Rows are known by their key): rows inserted,
 * removed or reordered in the data file after a run stopped resume as the rows they are, against an in-process Local
 * sandbox: each row stored once, none reported changed, no 409.
 */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { Client } from '../sandbox/helpers';
import { rowHash } from '../../../src/core/backfill/context';
import { valuesKey } from '../../../src/core/backfill/rowKey';
import { backfill, registrationCsv, registrationsPerInvoice, suiteSandbox } from './helpers';

/** A flow whose only write is a transaction: a kind with no key of its own (no field names one record). */
const TRANSACTION_FLOW = `# @data ./rows.csv
### Transaction
POST {{baseUrl}}/tire-protection/transactions
Content-Type: application/json

{ "product_id": "tp-road-hazard-36", "make": "Pirelli", "model": "Scorpion", "size": "245/60R18", "quantity": {{row.quantity}}, "partNumber": "{{row.part}}" }

?? status == 204
`;

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

  it('rows of a kind with no key of their own are known by the hash of their values, wherever they move', async () => {
    const cells = (n: number) => ({ part: `PART-${n}`, quantity: String(n * 2) });
    const csvOf = (numbers: readonly number[]) => `part,quantity\n${numbers.map((n) => `${cells(n).part},${cells(n).quantity}`).join('\n')}\n`;
    const w = suite.ws(csvOf([1, 2, 3]), TRANSACTION_FLOW);
    const first = await backfill(w, c, { jobs: 1 });
    assert.equal(first.summary.created, 3, JSON.stringify(first.rows));
    // the columns in the order the flow reads them, the values of the row: not its position
    for (const r of first.rows) assert.equal(r.key, valuesKey(rowHash({ number: r.row, line: r.line, values: cells(r.row) }, ['quantity', 'part'])), JSON.stringify(r));
    assert.equal(new Set(first.rows.map((r) => r.key)).size, 3);
    writeFileSync(w.dataPath, csvOf([4, 3, 1, 2]));
    const again = await backfill(w, c, { resume: true, jobs: 1 });
    assert.deepEqual(again.rows.map((r) => [r.row, r.status]), [[1, 'created']], JSON.stringify(again.rows));
    assert.equal(again.rows[0]?.key, valuesKey(rowHash({ number: 1, line: 2, values: cells(4) }, ['quantity', 'part'])));
    assert.equal(again.summary.done, 3);
  });
});
