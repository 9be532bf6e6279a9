/** The journal of a backfill (docs/backfills.md, The journal): a cut-off last line, the lock, refusals. */
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal, readJournal, JournalError } from '../../../src/core/backfill';
import { bootId, journalIoError, LEASE_ROWS } from '../../../src/core/backfill/journal';

const header = { flow: 'f.http', flowHash: 'abc', data: 'd.csv' };
const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);

describe('backfill journal', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-journal-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a header, then started and ended lines, each in the file (with the kernel) when write returns', async () => {
    const path = join(dir, 'runs', 'j.jsonl');
    const { writer } = await openJournal(path, { header, resume: false });
    await writer.lease(2);
    writer.write({ t: 'started', row: 1, key: 'k1', hash: H1 });
    writer.write({ t: 'started', row: 2, key: 'k2', hash: H2 });
    writer.write({ t: 'ended', row: 1, key: 'k1', hash: H1, status: 'created', id: 'r1' });
    // written lines are in the file before any flush or close: a killed process cannot lose them
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: string });
    assert.deepEqual(lines.map((l) => l.t), ['header', 'open', 'lease', 'started', 'started', 'ended']);
    await writer.close();
    const c = await readJournal(path);
    assert.equal(c.header?.flow, 'f.http');
    assert.equal(c.marks.lookup('k1', 1, H1).state, 'created');
    assert.equal(c.marks.lookup('k2', 2, H2).state, 'started');
    assert.equal(c.marks.lookup('k3', 3, H1).state, undefined);
    assert.deepEqual(c.marks.lookup('k2', 2, H1), { other: { stored: false, state: 'started' } }, 'the key with other values');
    assert.deepEqual(c.marks.lookup('k1', 7, H2), { other: { stored: true, state: 'created' } });
  });

  it('tolerates a last line cut short by a crash and cuts it off before appending', async () => {
    const path = join(dir, 'j.jsonl');
    const { writer } = await openJournal(path, { header, resume: false });
    writer.write({ t: 'started', row: 1, key: 'k1', hash: H1 });
    await writer.close();
    appendFileSync(path, '{"t":"ended","row":1,"ha');
    const c = await readJournal(path);
    assert.equal(c.marks.lookup('k1', 1, H1).state, 'started', 'the cut line is not read');
    assert.equal(c.marks.lookup('k9', 9, H1).state, 'unsure', 'lines after a cut may be lost: a row no line names is looked up first');
    const again = await openJournal(path, { header, resume: true });
    again.writer.write({ t: 'ended', row: 1, key: 'k1', hash: H1, status: 'recovered' });
    await again.writer.close();
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes('"ha{'), text);
    assert.equal((await readJournal(path)).marks.lookup('k1', 1, H1).state, 'recovered');
  });

  it('skips a line that is not a journal line and looks up the rows of its run; a row number out of range is such a line', async () => {
    const path = join(dir, 'j.jsonl');
    const lines = (...l: string[]) => `${[JSON.stringify({ t: 'header', v: 2, ...header, created: '' }), ...l].join('\n')}\n`;
    writeFileSync(path, lines(JSON.stringify({ t: 'open', boot: bootId() }), JSON.stringify({ t: 'lease', to: 256 }), 'not json', JSON.stringify({ t: 'started', row: 1e12, key: 'k', hash: H1 }), JSON.stringify({ t: 'started', row: 1, key: 'k1', hash: H1 })));
    const c = await readJournal(path);
    assert.deepEqual(c.damage.map((d) => d.line), [4, 5]);
    assert.equal(c.marks.lookup('k1', 1, H1).state, 'started');
    assert.equal(c.marks.lookup('k2', 2, H1).state, 'unsure', 'a row of that run no line names may have been named by the lost line');
    assert.equal(c.marks.lookup('k2', 600, H1).state, undefined, 'beyond its lease and one more: never sent');
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
    writer.write({ t: 'started', row: 1, key: 'k1', hash: H1 });
    await writer.close();
    const code = (c: string) => (e: unknown) => e instanceof JournalError && e.code === c;
    await assert.rejects(openJournal(path, { header: { ...header, flow: 'other.http' }, resume: true }), code('mismatch'));
    await assert.rejects(openJournal(path, { header: { ...header, data: 'other.csv' }, resume: true }), code('mismatch'));
    await assert.rejects(openJournal(path, { header: { ...header, flowHash: 'changed' }, resume: true }), (e: unknown) => code('mismatch')(e) && /changed since/.test((e as Error).message));
    await assert.rejects(openJournal(path, { header, resume: false }), (e: unknown) => code('exists')(e) && /--resume/.test((e as Error).message));
  });

  it('a run that neither closed nor ran on this boot (the machine stopped) leaves the rows of its leases unsure, and only then', async () => {
    const path = join(dir, 'j.jsonl');
    const run = (boot: string, lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    const head = run('', [{ t: 'header', v: 2, ...header, created: '' }]);
    // run on boot A: leased rows 1-256, started 1 and 2, ended 1; its lines after that were lost with the machine
    const a = run('A', [{ t: 'open', boot: 'A' }, { t: 'lease', to: 256 }, { t: 'started', row: 1, key: 'k1', hash: H1 }, { t: 'ended', row: 1, key: 'k1', hash: H1, status: 'created' }, { t: 'started', row: 2, key: 'k2', hash: H2 }]);
    const state = (c: Awaited<ReturnType<typeof readJournal>>, n: number, hash = H1) => c.marks.lookup(`k${n}`, n, hash).state;
    writeFileSync(path, head + a);
    const later = await readJournal(path, 'B');
    assert.equal(state(later, 1), 'created');
    assert.equal(state(later, 2, H2), 'started');
    assert.equal(state(later, 3), 'unsure', 'a row of the lease that no line names may have been sent');
    assert.equal(state(later, 256), 'unsure');
    assert.equal(state(later, 257), undefined, 'nothing beyond the last flushed lease was sent');
    // the same boot: the process died, the kernel kept every line it was handed
    assert.equal(state(await readJournal(path, 'A'), 3), undefined);
    // a run that closed flushed all its lines
    writeFileSync(path, head + a + run('A', [{ t: 'closed' }]));
    assert.equal(state(await readJournal(path, 'B'), 3), undefined);
    // a later run on boot B that was killed does not settle run A's rows it never reached
    writeFileSync(path, head + a + run('B', [{ t: 'open', boot: 'B' }, { t: 'lease', to: 10 }, { t: 'started', row: 3, key: 'k3', hash: H1 }]));
    const c = await readJournal(path, 'B');
    assert.equal(state(c, 3), 'started');
    assert.equal(state(c, 200), 'unsure');
    await assert.rejects(openJournal(path, { header, resume: false }), (e: unknown) => e instanceof JournalError && e.code === 'exists');
  });

  it('flushes a lease before the rows it covers are sent, and the next one ahead of need', async () => {
    const path = join(dir, 'j.jsonl');
    const { writer } = await openJournal(path, { header, resume: false });
    await writer.lease(1);
    const leases = () => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: string; to?: number }).filter((l) => l.t === 'lease').map((l) => l.to);
    assert.deepEqual(leases(), [LEASE_ROWS]);
    await writer.lease(LEASE_ROWS / 2 + 1);
    await writer.lease(LEASE_ROWS / 2 + 2);
    await writer.close();
    assert.deepEqual(leases(), [LEASE_ROWS, 2 * LEASE_ROWS]);
    assert.equal(JSON.parse(readFileSync(path, 'utf8').trim().split('\n').at(-1) as string).t, 'closed');
  });

  it('a journal that cannot be written is named, with why (a full disk)', () => {
    const e = journalIoError('/data/.tpp/runs/f-d.csv.jsonl', Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    assert.equal(e.code, 'io');
    assert.match(e.message, /^cannot write the journal \/data\/\.tpp\/runs\/f-d\.csv\.jsonl: no space is left on its disk \(ENOSPC\)\. .*--resume/);
    assert.match(journalIoError('/j.jsonl', Object.assign(new Error('x'), { code: 'ENOSPC' }), true).message, /^cannot open the journal \/j\.jsonl: no space is left on its disk \(ENOSPC\)\. Nothing was sent\.$/);
  });
});
