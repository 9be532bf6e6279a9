/**
 * A damaged journal has a way forward (docs/backfills.md, A damaged journal), against an in-process Local sandbox: a
 * line that is not a journal line, a journal cut in the middle of a line, one emptied; `--resume` repairs what it can
 * prove and says what it did, every row ends stored once; `checkJournal` (`tpp run --journal-check`) names what no
 * resume can settle.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { checkJournal, defaultJournalPath, journalOf, JournalError } from '../../../src/core/backfill';
import { parseFlow } from '../../../src/core/flows/parse';
import type { Client } from '../sandbox/helpers';
import { backfill, registrationCsv, registrationsPerInvoice, suiteSandbox } from './helpers';

describe('backfill: a damaged journal', function () {
  this.timeout(60_000);
  const suite = suiteSandbox();
  let c: Client;
  before(() => (c = suite.client()));

  /** Each registration of `prefix` stored once, `count` of them. */
  const storedOnce = async (prefix: string, count: number) => {
    const mine = [...(await registrationsPerInvoice(c))].filter(([k]) => k.startsWith(`${prefix}-`));
    assert.equal(mine.length, count);
    assert.deepEqual(mine.filter(([, n]) => n !== 1), []);
  };

  it('a line that is not a journal line is skipped, said, and the rows it may have named are looked up', async () => {
    const w = suite.ws(registrationCsv('GARB', 6));
    assert.equal((await backfill(w, c, { jobs: 1 })).summary.created, 6);
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const i = lines.findIndex((l) => l.includes('"t":"ended"') && l.includes('GARB-3'));
    lines[i] = 'garbage typed by hand';
    writeFileSync(path, `${lines.join('\n')}\n`);
    const notes: string[] = [];
    const again = await backfill(w, c, { resume: true, listener: { onJournalRepair: (n) => notes.push(...n) } });
    assert.match(notes.join(' '), new RegExp(`line ${i + 1}: not JSON`));
    assert.deepEqual(again.rows.map((r) => [r.row, r.status]), [[3, 'recovered']], JSON.stringify(again.rows));
    await storedOnce('GARB', 6);
  });

  for (const [name, cut] of [
    ['cut in the middle of a line', (size: number) => Math.floor(size / 2) + 3],
    ['emptied', () => 0],
    ['cut inside its header', () => 10],
  ] as const) {
    it(`a journal ${name} needs --resume, and resumes with every row stored once`, async () => {
      const prefix = `CUT${name.length}`;
      const w = suite.ws(registrationCsv(prefix, 8));
      assert.equal((await backfill(w, c, { jobs: 2 })).summary.created, 8);
      const path = defaultJournalPath(w.flowPath, w.dataPath);
      const text = readFileSync(path, 'utf8');
      truncateSync(path, cut(Buffer.byteLength(text)));
      if (cut(Buffer.byteLength(text)) < 100) await assert.rejects(backfill(w, c), (e: unknown) => e instanceof JournalError && e.code === 'exists');
      const notes: string[] = [];
      const again = await backfill(w, c, { resume: true, listener: { onJournalRepair: (n) => notes.push(...n) } });
      assert.ok(notes.length > 0, 'the repair is said');
      assert.deepEqual(again.rows.filter((r) => r.status !== 'recovered'), [], JSON.stringify(again.rows));
      assert.equal(again.summary.recovered + again.summary.done, 8);
      await storedOnce(prefix, 8);
    });
  }

  it('--journal-check names rows started but not ended, of unknown outcome, and in conflict, and a damaged line', async () => {
    const w = suite.ws(registrationCsv('JCHK', 3));
    assert.equal((await backfill(w, c)).summary.created, 3);
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    const text = readFileSync(w.flowPath, 'utf8');
    const { header } = await journalOf({ flow: parseFlow(text, w.flowPath), flowText: text, flowPath: w.flowPath, dataPath: w.dataPath }, async () => '');
    const sound = await checkJournal(path, header);
    assert.equal(sound.code, 0, sound.lines.join('\n'));
    const h = 'f'.repeat(64);
    const extra = [{ t: 'open', boot: 'x' }, { t: 'started', row: 4, key: 'invoiceNumber JCHK-4', hash: h }, { t: 'ended', row: 5, key: 'invoiceNumber JCHK-5', hash: h, status: 'unknown', message: 'outcome unknown: check the record' }, { t: 'ended', row: 6, key: 'invoiceNumber JCHK-6', hash: h, status: 'conflict', message: 'stored already with other values' }];
    writeFileSync(path, `${readFileSync(path, 'utf8')}${extra.map((l) => JSON.stringify(l)).join('\n')}\nnot a line\n`);
    const found = await checkJournal(path, header);
    const all = found.lines.join('\n');
    assert.equal(found.code, 1);
    assert.match(all, /Started, not ended[^\n]*: 1\n {2}row 4 \(invoiceNumber JCHK-4\)/);
    assert.match(all, /Outcome unknown[^\n]*: 1\n {2}row 5 \(invoiceNumber JCHK-5\): outcome unknown: check the record/);
    assert.match(all, /Conflict[^\n]*: 1\n {2}row 6/);
    assert.match(all, /line \d+: not JSON/);
    assert.equal((await checkJournal(path, { ...header, data: 'other.csv' })).code, 2);
  });
});
