/** The journal of a backfill (docs/backfills.md, The journal): a cut-off last line, the lock, refusals. */
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal, readJournal, JournalError } from '../../../src/core/backfill';

const header = { flow: 'f.http', flowHash: 'abc', data: 'd.csv' };
const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);

describe('backfill journal', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-journal-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a header, then started and ended lines, each on the disk when acknowledged', async () => {
    const path = join(dir, 'runs', 'j.jsonl');
    const { writer } = await openJournal(path, { header, resume: false });
    await Promise.all([writer.append({ t: 'started', row: 1, hash: H1 }), writer.append({ t: 'started', row: 2, hash: H2 })]);
    await writer.append({ t: 'ended', row: 1, hash: H1, status: 'created', id: 'r1' });
    // acknowledged lines are in the file before close
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: string });
    assert.deepEqual(lines.map((l) => l.t), ['header', 'started', 'started', 'ended']);
    await writer.close();
    const c = await readJournal(path);
    assert.equal(c.header?.flow, 'f.http');
    assert.equal(c.marks.state(1), 'created');
    assert.equal(c.marks.state(2), 'started');
    assert.equal(c.marks.state(3), undefined);
    assert.ok(c.marks.sameHash(2, H2));
    assert.ok(!c.marks.sameHash(2, H1));
  });

  it('tolerates a last line cut short by a crash and cuts it off before appending', async () => {
    const path = join(dir, 'j.jsonl');
    const { writer } = await openJournal(path, { header, resume: false });
    await writer.append({ t: 'started', row: 1, hash: H1 });
    await writer.close();
    appendFileSync(path, '{"t":"ended","row":1,"ha');
    const c = await readJournal(path);
    assert.equal(c.marks.state(1), 'started', 'the cut line is not read');
    const again = await openJournal(path, { header, resume: true });
    await again.writer.append({ t: 'ended', row: 1, hash: H1, status: 'recovered' });
    await again.writer.close();
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes('"ha{'), text);
    assert.equal((await readJournal(path)).marks.state(1), 'recovered');
  });

  it('refuses a broken line that is not the last', async () => {
    const path = join(dir, 'j.jsonl');
    writeFileSync(path, `${JSON.stringify({ t: 'header', v: 1, ...header, created: '' })}\nnot json\n${JSON.stringify({ t: 'started', row: 1, hash: H1 })}\n`);
    await assert.rejects(readJournal(path), (e: unknown) => e instanceof JournalError && e.code === 'broken' && /line 2/.test(e.message));
    // a row number no data file reached would make the marks grow without end: refused
    writeFileSync(path, `${JSON.stringify({ t: 'header', v: 1, ...header, created: '' })}\n${JSON.stringify({ t: 'started', row: 1e12, hash: H1 })}\n${JSON.stringify({ t: 'started', row: 1, hash: H1 })}\n`);
    await assert.rejects(readJournal(path), (e: unknown) => e instanceof JournalError && e.code === 'broken' && /line 2 names no row/.test(e.message));
  });

  it('a second run of one journal refuses while the first holds it; the lock goes with the first', async () => {
    const path = join(dir, 'j.jsonl');
    const first = await openJournal(path, { header, resume: false });
    await assert.rejects(openJournal(path, { header, resume: true }), (e: unknown) => e instanceof JournalError && e.code === 'busy' && /in use by another run/.test(e.message));
    await first.writer.close();
    const second = await openJournal(path, { header, resume: true });
    await second.writer.close();
  });

  it('refuses the journal of another flow, data file or a changed flow, and an earlier run without resume', async () => {
    const path = join(dir, 'j.jsonl');
    const { writer } = await openJournal(path, { header, resume: false });
    await writer.append({ t: 'started', row: 1, hash: H1 });
    await writer.close();
    const code = (c: string) => (e: unknown) => e instanceof JournalError && e.code === c;
    await assert.rejects(openJournal(path, { header: { ...header, flow: 'other.http' }, resume: true }), code('mismatch'));
    await assert.rejects(openJournal(path, { header: { ...header, data: 'other.csv' }, resume: true }), code('mismatch'));
    await assert.rejects(openJournal(path, { header: { ...header, flowHash: 'changed' }, resume: true }), (e: unknown) => code('mismatch')(e) && /changed since/.test((e as Error).message));
    await assert.rejects(openJournal(path, { header, resume: false }), (e: unknown) => code('exists')(e) && /--resume/.test((e as Error).message));
  });
});
