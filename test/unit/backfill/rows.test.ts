/** Rows of a data-driven flow (docs/backfills.md, Data files): CSV, JSON and NDJSON edge cases, each error with its row and column. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { columnsUsed, dataDirectiveOf, readRows, RowsError, type DataRow } from '../../../src/core/backfill';

let dir: string;
const file = (name: string, text: string | Buffer): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
async function all(path: string, columns: string[] = []): Promise<DataRow[]> {
  const out: DataRow[] = [];
  for await (const r of readRows(path, columns)) out.push(r);
  return out;
}
async function refused(path: string, columns: string[] = []): Promise<RowsError> {
  try {
    await all(path, columns);
  } catch (err) {
    assert.ok(err instanceof RowsError, String(err));
    return err;
  }
  assert.fail('no error');
}

describe('backfill rows', () => {
  before(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-rows-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the @data directive and the row columns a flow uses', () => {
    assert.equal(dataDirectiveOf('# a flow\n# @data ./sales 2025.csv \n### x\nGET {{baseUrl}}/x'), './sales 2025.csv');
    assert.equal(dataDirectiveOf('### x\nGET {{baseUrl}}/x'), undefined);
    assert.deepEqual(columnsUsed(['{"a":"{{row.invoice}}","b":{{row.unit price}}}', '{{row.invoice}} {{other}} {{reg.response.body.$.id}}']), ['invoice', 'unit price']);
  });

  it('CSV: header, BOM skipped, quoted commas and newlines, row and line numbers', async () => {
    const rows = await all(file('a.csv', '\uFEFFinvoice,note\nINV-1,"a, b"\nINV-2,"two\nlines"\nINV-3,plain\n'), ['invoice']);
    assert.deepEqual(rows.map((r) => [r.number, r.values.invoice, r.values.note]), [[1, 'INV-1', 'a, b'], [2, 'INV-2', 'two\nlines'], [3, 'INV-3', 'plain']]);
    assert.equal(rows[2]?.line, 5);
    assert.equal(Object.keys(rows[0]?.values ?? {})[0], 'invoice', 'the BOM is not part of the first column name');
  });

  it('CSV: a ragged row names its row, line and column', async () => {
    const e = await refused(file('ragged.csv', 'invoice,store,email\nINV-1,0142,a@example.com\nINV-2,0142\n'));
    assert.equal(e.where.row, 2);
    assert.equal(e.where.line, 3);
    assert.equal(e.where.column, 'email');
    assert.match(e.message, /\(row 2, line 3, column email\): the row has 2 fields, the header 3/);
  });

  it('CSV: a column the flow reads missing from the header is refused before any row', async () => {
    const e = await refused(file('missing.csv', 'invoice,store\nINV-1,0142\n'), ['invoice', 'email']);
    assert.equal(e.where.column, 'email');
    assert.match(e.message, /the header has no column email, which the flow reads as \{\{row\.email\}\}/);
  });

  it('an empty file is refused in each format', async () => {
    assert.match((await refused(file('empty.csv', ''))).message, /empty/);
    assert.match((await refused(file('empty.json', '  \n'))).message, /empty/);
    assert.match((await refused(file('empty.ndjson', ''))).message, /empty/);
  });

  it('CSV: a quote never closed is an error with a row number', async () => {
    const e = await refused(file('quote.csv', 'invoice,note\nINV-1,"open\nINV-2,x\n'));
    assert.equal(e.where.row, 1);
  });

  it('JSON arrays: streamed elements, nested values as JSON, strings with brackets', async () => {
    const rows = await all(file('a.json', '\uFEFF[\n {"invoice": "INV-[1]", "n": 4, "tires": [1, {"a": "}"}]},\n {"invoice": "INV-2,\\"x\\"", "n": null}\n]\n'), ['invoice']);
    assert.deepEqual(rows.map((r) => r.values), [{ invoice: 'INV-[1]', n: '4', tires: '[1,{"a":"}"}]' }, { invoice: 'INV-2,"x"', n: '' }]);
    assert.equal(rows[1]?.line, 3);
  });

  it('JSON: not an array, an element that is not an object, a row missing a column, an unclosed array', async () => {
    assert.match((await refused(file('obj.json', '{"a": 1}'))).message, /must be an array/);
    assert.match((await refused(file('num.json', '[{"a":1}, 5]'))).message, /row 2.*must be a JSON object/);
    const e = await refused(file('col.json', '[{"invoice":"x"},\n{"store":"y"}]'), ['invoice']);
    assert.deepEqual([e.where.row, e.where.line, e.where.column], [2, 2, 'invoice']);
    assert.match((await refused(file('open.json', '[{"a":1},'))).message, /not closed/);
  });

  it('NDJSON: blank lines skipped, a broken line named', async () => {
    const rows = await all(file('a.ndjson', '{"invoice":"A"}\n\n{"invoice":"B"}\n'), ['invoice']);
    assert.deepEqual(rows.map((r) => [r.number, r.line, r.values.invoice]), [[1, 1, 'A'], [2, 3, 'B']]);
    const e = await refused(file('bad.ndjson', '{"invoice":"A"}\n{"invoice":\n'));
    assert.deepEqual([e.where.row, e.where.line], [2, 2]);
  });

  it('refuses other extensions', async () => {
    assert.throws(() => readRows(join(dir, 'x.xlsx'), []), RowsError);
  });

  it('streams a large CSV with flat memory', async function () {
    this.timeout(120_000);
    const path = join(dir, 'big.csv');
    const out = createWriteStream(path);
    out.write('invoice,store,email,note\n');
    const line = (i: number) => `INV-${i},0142,person${i}@example.com,"${'x'.repeat(150)}"\n`;
    const count = 300_000; // ~55 MB
    for (let i = 0; i < count; i++) if (!out.write(line(i))) await new Promise<void>((r) => out.once('drain', () => r()));
    await new Promise<void>((r) => out.end(r));
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    let n = 0;
    let peak = 0;
    for await (const r of readRows(path, ['invoice'])) {
      n++;
      if (n % 50_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      }
      assert.ok(r.values.invoice);
    }
    assert.equal(n, count);
    assert.ok(peak < 8 * 1024 * 1024, `heap grew by ${Math.round(peak / 1048576)} MiB while reading a ${count}-row file`);
  });
});
