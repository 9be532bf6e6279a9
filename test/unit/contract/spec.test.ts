import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPEC_PATH, requireSpec } from '../specPath';
import * as T from './specTables';
const DOCS = join(__dirname, '..', '..', '..', 'docs', 'contract.md');

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('contract: docs/contract.md answers every "not shown" of the spec', () => {
  const lines = readFileSync(DOCS, 'utf8').split('\n');
  for (const sentence of T.NOT_SHOWN_SENTENCES) {
    it(sentence, () => {
      // A row of the gaps table: | spec sentence | chosen behaviour |
      const quoted = sentence.replace(/\.$/, '');
      const row = lines.find((l) => l.startsWith('|') && l.includes(quoted));
      assert.ok(row, `docs/contract.md should quote in a table row: ${quoted}`);
      const cells = row.slice(1, -1).split(' | ');
      assert.ok(cells[0]?.includes(quoted), 'the sentence is in the first cell');
      assert.ok((cells[cells.length - 1]?.trim().length ?? 0) > 10, 'followed by the chosen behaviour');
    });
  }
});

describe('contract: the test tables are the spec verbatim', function () {
  before(function () {
    requireSpec(this);
  });

  it('every verbatim field table occurs in the spec', () => {
    const spec = readFileSync(SPEC_PATH, 'utf8');
    const tables = Object.entries(T).filter(([name, v]) => name.endsWith('_TABLE') && typeof v === 'string') as [string, string][];
    assert.ok(tables.length >= 12);
    for (const [name, md] of tables) assert.ok(spec.includes(md.trim()), `${name} is not verbatim`);
  });

  it('the list of "not shown" sentences is complete', () => {
    const spec = readFileSync(SPEC_PATH, 'utf8');
    assert.equal((spec.match(/not shown/g) ?? []).length, T.NOT_SHOWN_SENTENCES.length);
    for (const s of T.NOT_SHOWN_SENTENCES) assert.ok(spec.includes(s), s);
  });

  it('every prose source sentence occurs in the spec', () => {
    const spec = squash(readFileSync(SPEC_PATH, 'utf8'));
    const prose = Object.values(T).filter((v): v is T.ProseTable => typeof v === 'object' && v !== null && 'source' in v);
    for (const p of prose) for (const part of p.source.split(' ... ')) assert.ok(spec.includes(squash(part)), part);
  });
});
