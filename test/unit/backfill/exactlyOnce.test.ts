/**
 * Exactly once (docs/backfills.md, What resume guarantees): a backfill against an in-process Local sandbox with
 * scheduled faults (503 before the write, 500 and a dropped connection after it was committed, a timeout), stopped
 * at random moments and resumed until every row has ended; crashes between a send and its journal line are
 * simulated by cutting the journal's last lines. Then every invoice has exactly one registration.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { defaultJournalPath } from '../../../src/core/backfill';
import { seededRandom } from '../../../src/core/sandbox/realism';
import { request } from '../sandbox/helpers';
import { backfill, registrationCsv, registrationsPerInvoice, suiteSandbox } from './helpers';

describe('backfill exactly once under faults and crashes', function () {
  this.timeout(180_000);
  const suite = suiteSandbox();

  it('one registration per invoice, none missing, after random stops and resumes', async () => {
    const seed = Number(process.env.TPP_BACKFILL_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const c = suite.client();
    const rows = 60;
    const w = suite.ws(registrationCsv(`EX${seed}`, rows));
    const path = '/api/v3/tire-protection/registrations';
    const faults = [
      { method: 'POST', path, fault: 503, times: 4 },
      { method: 'POST', path, fault: 500, when: 'after-commit', times: 4 },
      { method: 'POST', path, fault: 'close', when: 'after-commit', times: 3 },
      { method: 'POST', path, fault: 'timeout', timeoutMs: 800, times: 2 },
      { method: 'POST', path, fault: 429, retryAfter: 0, times: 2 },
    ];
    const scheduled = await request('POST', `${c.sb.origin}/__tpp/faults`, { 'content-type': 'application/json' }, JSON.stringify(faults));
    assert.equal(scheduled.status, 201, scheduled.text);
    const journal = defaultJournalPath(w.flowPath, w.dataPath);
    let ended = false;
    let runs = 0;
    while (!ended && runs < 40) {
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), 20 + random() * 400);
      const r = await backfill(w, c, { resume: runs > 0, jobs: 4, signal: stop.signal, timeoutMs: 500, retry: { baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 4000 } });
      clearTimeout(timer);
      runs++;
      const s = r.summary;
      ended = s.done + s.created + s.recovered === rows;
      if (!ended && random() < 0.6) {
        // a kill between a send and its ended line: drop up to 3 trailing ended lines
        const lines = readFileSync(journal, 'utf8').trimEnd().split('\n');
        let cut = Math.ceil(random() * 3);
        for (let i = lines.length - 1; i > 0 && cut > 0; i--) {
          if (!lines[i]?.includes('"t":"ended"')) continue;
          lines.splice(i, 1);
          cut--;
        }
        writeFileSync(journal, `${lines.join('\n')}\n`);
      }
      assert.equal(s.refused + s.changed, 0, `seed ${seed}, run ${runs}: ${JSON.stringify(s)} ${JSON.stringify(r.rows.filter((x) => x.status !== 'created' && x.status !== 'recovered'))}`);
    }
    assert.ok(ended, `seed ${seed}: not done after ${runs} runs`);
    const per = await registrationsPerInvoice(c);
    const mine = [...per].filter(([k]) => k.startsWith(`EX${seed}-`));
    assert.equal(mine.filter(([, n]) => n > 1).length, 0, `seed ${seed}: duplicates ${JSON.stringify(mine.filter(([, n]) => n > 1))}`);
    assert.equal(mine.length, rows, `seed ${seed}: missing ${rows - mine.length}`);
  });
});
