/**
 * Checks before sending and resuming after a crash (docs/backfills.md), against an in-process Local sandbox: invalid
 * rows stop the run before anything is sent; a journal left by a crash is resumed through the client's duplicate
 * check; a row that changed is reported; a write without a duplicate check is reported as outcome unknown.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { defaultJournalPath, openJournal } from '../../../src/core/backfill';
import { rowHash } from '../../../src/core/backfill/context';
import { request, type Client } from '../sandbox/helpers';
import { backfill, registrationCsv, registrationsPerInvoice, suiteSandbox } from './helpers';

/** Options that stop a run once its rows are checked: the journal is open, no row is sent. */
function stopAfterChecks(): { signal: AbortSignal; listener: { onChecked: () => void } } {
  const stop = new AbortController();
  return { signal: stop.signal, listener: { onChecked: () => stop.abort() } };
}

describe('backfill against the Local sandbox', function () {
  this.timeout(60_000);
  const suite = suiteSandbox();
  let c: Client;
  before(() => (c = suite.client()));
  const ws = suite.ws;

  it('checks every row first: a dry run and a run with bad rows send nothing; --skip-invalid sends the others', async () => {
    const w = ws(registrationCsv('CHK', 6, (n, cells) => (n === 2 ? [cells[0] as string, cells[1] as string, cells[2] as string, 'not-an-email', '2021'] : n === 5 ? [...cells.slice(0, 4), '19x'] : cells)));
    const dry = await backfill(w, c, { dryRun: true });
    assert.equal(dry.summary.invalid, 2);
    assert.ok(dry.summary.notSent);
    assert.ok(dry.invalid.some((s) => s.startsWith('row 2 column email')), dry.invalid.join('; '));
    assert.ok(dry.invalid.some((s) => s.startsWith('row 5')), dry.invalid.join('; '));
    const refused = await backfill(w, c);
    assert.ok(refused.summary.notSent);
    assert.equal([...(await registrationsPerInvoice(c)).keys()].filter((k) => k.startsWith('CHK-')).length, 0, 'nothing sent');
    const skipping = await backfill(w, c, { skipInvalid: true });
    assert.equal(skipping.summary.created, 4);
    assert.equal(skipping.summary.skipped, 2);
    assert.deepEqual(skipping.rows.filter((r) => r.status === 'skipped').map((r) => r.row).sort(), [2, 5]);
  });

  it('resumes a crashed run: ended rows skipped, started rows found by invoice number, none sent twice', async () => {
    const w = ws(registrationCsv('RES', 8));
    const first = await backfill(w, c, { jobs: 2 });
    assert.equal(first.summary.created, 8);
    // Simulate a crash after rows 3 and 6 were sent (and stored) but before their ended lines were written, with a
    // last line cut short mid-write.
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const kept = lines.filter((l) => !(/"t":"ended"/.test(l) && /"row":(3|6),/.test(l)));
    writeFileSync(path, `${kept.join('\n')}\n{"t":"ended","row":3,"ha`);
    const again = await backfill(w, c, { resume: true });
    assert.equal(again.summary.done, 6, 'rows the journal ended are not sent again');
    assert.deepEqual(again.rows.map((r) => [r.row, r.status]).sort(), [[3, 'recovered'], [6, 'recovered']]);
    const per = await registrationsPerInvoice(c);
    for (let n = 1; n <= 8; n++) assert.equal(per.get(`RES-${n}`), 1, `RES-${n}`);
  });

  it('after a stopped machine, rows of the last flushed lease that no line names are looked up before anything is sent', async () => {
    const w = ws(registrationCsv('LOST', 4));
    assert.equal((await backfill(w, c)).summary.created, 4);
    // The machine stopped: the lines of rows 2-4 had been written but not flushed, and are gone. The run's open line
    // names another boot, and it never closed; its flushed lease covers the rows it may have sent.
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const kept = lines.filter((l) => /"t":"(header|lease)"/.test(l) || /"row":1,/.test(l));
    writeFileSync(path, `${[kept[0], JSON.stringify({ t: 'open', boot: 'a boot before this one' }), ...kept.slice(1)].join('\n')}\n`);
    const again = await backfill(w, c, { resume: true });
    assert.equal(again.summary.done, 1);
    assert.deepEqual(again.rows.map((r) => [r.row, r.status]).sort(), [[2, 'recovered'], [3, 'recovered'], [4, 'recovered']], JSON.stringify(again.rows));
    const per = await registrationsPerInvoice(c);
    for (let n = 1; n <= 4; n++) assert.equal(per.get(`LOST-${n}`), 1, `LOST-${n}`);
  });

  it('sends a started row that had not landed, and reports a stored row whose values changed, by its key', async () => {
    const w = ws(registrationCsv('NEW', 3));
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    // A journal whose run crashed after journalling row 1 as started but before sending it, and that stored row 2
    // with other values than the data file has now.
    const full = await backfill(w, c, { jobs: 1, ...stopAfterChecks() });
    assert.equal(full.summary.created, 0);
    const header = readFileSync(path, 'utf8').split('\n')[0];
    const row1 = { number: 1, line: 2, values: { invoice: 'NEW-1', enrollDate: new Date().toISOString().slice(0, 10), name: 'Person 1', email: 'p1@example.com', year: '2021' } };
    const hash = rowHash(row1, ['invoice', 'enrollDate', 'name', 'email', 'year']);
    const lines = [{ t: 'started', row: 1, key: 'invoiceNumber NEW-1', hash }, { t: 'started', row: 2, key: 'invoiceNumber NEW-2', hash }, { t: 'ended', row: 2, key: 'invoiceNumber NEW-2', hash, status: 'created', id: 'x' }];
    writeFileSync(path, `${header}\n${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const again = await backfill(w, c, { resume: true });
    const by = new Map(again.rows.map((r) => [r.row, r]));
    assert.equal(by.get(1)?.status, 'created');
    assert.ok(by.get(1)?.resumed);
    assert.equal(by.get(2)?.status, 'changed', 'row 2 has other values than the journal stored: not sent');
    assert.match(by.get(2)?.message ?? '', /invoiceNumber NEW-2/);
    assert.equal(by.get(3)?.status, 'created');
    const per = await registrationsPerInvoice(c);
    assert.equal(per.get('NEW-1'), 1);
    assert.equal(per.get('NEW-2'), undefined);
  });

  it('a started write without a duplicate check is outcome unknown on resume, and resent only with retryUnknown', async () => {
    const flow = `# @data ./rows.csv
### Transaction
POST {{baseUrl}}/tire-protection/transactions
Content-Type: application/json

{ "product_id": "tp-road-hazard-36", "make": "Pirelli", "model": "Scorpion", "size": "245/60R18", "treadDepth": 10.5, "date": "{{row.enrollDate}}T10:00:00Z", "unitPrice": 132.4, "quantity": 2, "isTrailer": false, "partNumber": "{{row.invoice}}" }
`;
    const w = ws(registrationCsv('TX', 2), flow);
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    await backfill(w, c, stopAfterChecks());
    const hash = rowHash({ number: 1, line: 2, values: { invoice: 'TX-1', enrollDate: new Date().toISOString().slice(0, 10) } }, ['enrollDate', 'invoice']);
    appendFileSync(path, `${JSON.stringify({ t: 'started', row: 1, hash })}\n`);
    const again = await backfill(w, c, { resume: true });
    const row1 = again.rows.find((r) => r.row === 1);
    assert.equal(row1?.status, 'unknown', JSON.stringify(again.rows));
    assert.match(row1?.message ?? '', /outcome unknown: check .*ask the administrator/i);
    assert.equal(again.rows.find((r) => r.row === 2)?.status, 'created');
    const retried = await backfill(w, c, { resume: true, retryUnknown: true });
    assert.deepEqual(retried.rows.map((r) => [r.row, r.status]), [[1, 'created']]);
  });

  it('a row whose retries ran out on 5xx ends failed, not refused, and --resume sends it', async () => {
    const w = ws(registrationCsv('EXH', 2));
    const fault = { method: 'POST', path: '/api/v3/tire-protection/registrations', fault: 503, times: 3 };
    const scheduled = await request('POST', `${c.sb.origin}/__tpp/faults`, { 'content-type': 'application/json' }, JSON.stringify(fault));
    assert.equal(scheduled.status, 201, scheduled.text);
    const first = await backfill(w, c, { jobs: 1, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    assert.deepEqual(first.rows.map((r) => [r.row, r.status, r.http]), [[1, 'failed', 503], [2, 'created', 201]]);
    const again = await backfill(w, c, { resume: true });
    assert.deepEqual(again.rows.map((r) => [r.row, r.status]), [[1, 'created']]);
    assert.equal(again.summary.done, 1);
    const per = await registrationsPerInvoice(c);
    assert.deepEqual([per.get('EXH-1'), per.get('EXH-2')], [1, 1]);
  });

  it('a journal in use refuses a second run at once', async () => {
    const w = ws(registrationCsv('LCK', 2));
    const held = await openJournal(defaultJournalPath(w.flowPath, w.dataPath), { header: { flow: 'flow.http', flowHash: 'x', data: 'rows.csv' }, resume: false });
    try {
      await assert.rejects(backfill(w, c), /in use by another run/);
    } finally {
      await held.writer.close();
    }
  });
});
