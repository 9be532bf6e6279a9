/**
 * Answers that do not say how a create ended are settled by the duplicate check (docs/backfills.md, Answers that are
 * checked), against an in-process Local sandbox: a 409 to a row whose outcome the journal does not know, a 2xx whose
 * body cannot be read, and no answer within the call's whole time limit. A record stored with the same values makes
 * the row `recovered`, one with other values a `conflict` shown with both; rows a first-version journal ended
 * "refused 409" are checked again on --resume.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultJournalPath } from '../../../src/core/backfill';
import { rowHash } from '../../../src/core/backfill/context';
import { roundTimes } from '../../../src/core/backfill/sendRow';
import { request, type Client } from '../sandbox/helpers';
import { backfill, registrationCsv, registrationsPerInvoice, suiteSandbox } from './helpers';

describe('backfill: answers settled by the duplicate check', function () {
  this.timeout(60_000);
  const suite = suiteSandbox();
  let c: Client;
  before(() => (c = suite.client()));
  const faults = async (f: object) => {
    const r = await request('POST', `${c.sb.origin}/__tpp/faults`, { 'content-type': 'application/json' }, JSON.stringify(f));
    assert.equal(r.status, 201, r.text);
  };

  it('rows stored already with the same values are recovered, not refused, when the journal is gone', async () => {
    const w = suite.ws(registrationCsv('GONE', 4));
    assert.equal((await backfill(w, c)).summary.created, 4);
    rmSync(defaultJournalPath(w.flowPath, w.dataPath));
    const again = await backfill(w, c);
    assert.deepEqual(again.rows.map((r) => r.status), ['recovered', 'recovered', 'recovered', 'recovered'], JSON.stringify(again.rows));
    assert.equal(again.summary.refused, 0);
    for (const [k, n] of await registrationsPerInvoice(c)) if (k.startsWith('GONE-')) assert.equal(n, 1, k);
  });

  it('a row stored with other values is a conflict that shows both', async () => {
    const w = suite.ws(registrationCsv('CONF', 2));
    assert.equal((await backfill(w, c)).summary.created, 2);
    rmSync(defaultJournalPath(w.flowPath, w.dataPath));
    writeFileSync(w.dataPath, registrationCsv('CONF', 2, (n, cells) => (n === 2 ? [cells[0] as string, cells[1] as string, 'Someone Else', cells[3] as string, cells[4] as string] : cells)));
    const again = await backfill(w, c);
    const row2 = again.rows.find((r) => r.row === 2);
    assert.equal(row2?.status, 'conflict', JSON.stringify(again.rows));
    assert.match(row2?.message ?? '', /customer\.name: "Someone Else", stored "Person 2"/);
    assert.equal(again.summary.conflict, 1);
    assert.equal(again.rows.find((r) => r.row === 1)?.status, 'recovered');
  });

  it('rows a first-version journal ended "refused 409" are checked again on --resume', async () => {
    const w = suite.ws(registrationCsv('OLD', 2));
    const elsewhere = join(w.dir, 'first.jsonl');
    assert.equal((await backfill(w, c, { journal: elsewhere })).summary.created, 2);
    const path = defaultJournalPath(w.flowPath, w.dataPath);
    await backfill(w, c, { dryRun: true });
    // the journal an earlier version wrote: rows by position, both refused with 409
    const header = { t: 'header', v: 1, flow: '../../flow.http', flowHash: JSON.parse(readFileSync(elsewhere, 'utf8').split('\n')[0] as string).flowHash, data: '../../rows.csv', created: '' };
    const today = new Date().toISOString().slice(0, 10);
    const hashOf = (n: number) => rowHash({ number: n, line: n + 1, values: { invoice: `OLD-${n}`, enrollDate: today, name: `Person ${n}`, email: `p${n}@example.com`, year: '2021' } }, ['invoice', 'enrollDate', 'name', 'email', 'year']);
    const lines = [header, { t: 'open', boot: 'x' }, ...[1, 2].map((n) => ({ t: 'ended', row: n, hash: hashOf(n), status: 'refused', http: 409, message: 'A registration with invoiceNumber … already exists' })), { t: 'closed' }];
    require('node:fs').mkdirSync(join(w.dir, '.tpp', 'runs'), { recursive: true });
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const again = await backfill(w, c, { resume: true });
    assert.deepEqual(again.rows.map((r) => [r.row, r.status]), [[1, 'recovered'], [2, 'recovered']], JSON.stringify(again.rows));
  });

  it('a 2xx whose body is cut off after the commit is recovered, not refused', async () => {
    const w = suite.ws(registrationCsv('CUT', 3));
    await faults({ method: 'POST', path: '/api/v3/tire-protection/registrations', fault: 'truncated-json', times: 2 });
    const r = await backfill(w, c, { jobs: 1 });
    assert.deepEqual(r.rows.map((x) => x.status), ['recovered', 'recovered', 'created'], JSON.stringify(r.rows));
    for (const [k, n] of await registrationsPerInvoice(c)) if (k.startsWith('CUT-')) assert.equal(n, 1, k);
  });

  it('no answer within the whole time limit: the duplicate check has time of its own, and times are said rounded', async () => {
    const w = suite.ws(registrationCsv('SLOW', 1));
    await faults({ method: 'POST', path: '/api/v3/tire-protection/registrations', fault: 'timeout', when: 'after-commit', timeoutMs: 1500, times: 1 });
    // The attempt's limit is the whole call's, so the client has no time left to check: the backfill's own check settles it.
    const r = await backfill(w, c, { jobs: 1, timeoutMs: 500, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10, maxTotalMs: 400 } });
    assert.equal(r.rows[0]?.status, 'recovered', JSON.stringify(r.rows));
    assert.equal(roundTimes('no complete answer within 29999.98345 ms (the call'), 'no complete answer within 30000 ms (the call');
  });

  it('an unreadable answer whose duplicate check failed too: the reason is kept whole past 300 characters, with what to check', async () => {
    const w = suite.ws(registrationCsv('WHOLE', 1));
    // The create is stored but its answer cut off; every read of the check answers 503 until its retries run out.
    await faults([
      { method: 'POST', path: '/api/v3/tire-protection/registrations', fault: 'truncated-json', times: 1 },
      { method: 'GET', path: '/api/v3/tire-protection/registrations', fault: 503, times: 20 },
    ]);
    const r = await backfill(w, c, { jobs: 1, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 } });
    await request('DELETE', `${c.sb.origin}/__tpp/faults`, {});
    const m = r.rows[0]?.message ?? '';
    assert.equal(r.rows[0]?.status, 'unknown', JSON.stringify(r.rows));
    assert.ok(m.length > 300, `${m.length} characters: ${m}`);
    assert.match(m, /^outcome unknown: .*so the write may have landed; the duplicate check failed too \(.*503.*\)\. Check: List the registrations with invoice number WHOLE-1 \(GET \/tire-protection\/registrations\?invoiceNumber=…\) before sending it again\.$/s);
    assert.equal(m.split('…').length, 2, `nothing is cut (the one … is the check's own): ${m}`);
    // Resumed, the row is looked up before anything is resent, and that check fails the same way.
    await faults({ method: 'GET', path: '/api/v3/tire-protection/registrations', fault: 503, times: 20 });
    const again = await backfill(w, c, { jobs: 1, resume: true, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 } });
    await request('DELETE', `${c.sb.origin}/__tpp/faults`, {});
    const m2 = again.rows[0]?.message ?? '';
    assert.equal(again.rows[0]?.status, 'unknown', JSON.stringify(again.rows));
    assert.ok(m2.length > 300, `${m2.length} characters: ${m2}`);
    assert.match(m2, /^outcome unknown: the duplicate check failed \(.*503.*retries exhausted\)\); check: List the registrations with invoice number WHOLE-1 .* before sending it again\.$/s);
  });
});
