import { strict as assert } from 'node:assert';
import { Client, FaultWaits, request, startWith, tpRegistration, type Reply } from './helpers';

/**
 * Injected faults are visible (docs/testing-your-application.md, Faults and Journal): every request that reached the
 * sandbox is in the journal with the fault that answered it, and an injected answer's diagnosis says it was
 * injected and by which schedule, whatever its status.
 */
describe('Local sandbox: injected faults are visible', function () {
  this.timeout(60_000);

  const ctl = (c: Client, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${c.sb.origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
  const path = '/api/v3/tire-protection/registrations';

  it('a timeout or close fault leaves a journal entry (status 0, the fault), a stderr line and a --log json line', async () => {
    const lines: string[] = [];
    const waits = new FaultWaits(true);
    const { sb, clients } = await startWith({ log: (l) => lines.push(l), sleep: waits.sleep });
    const c = clients[0] as Client;
    const printed: Record<string, unknown>[] = [];
    sb.requestLog?.subscribe((e) => printed.push(JSON.parse(JSON.stringify(e.line()))));
    const [close, timeout] = (await ctl(c, 'POST', 'faults', [{ method: 'GET', path, fault: 'close' }, { method: 'GET', path, fault: 'timeout', timeoutMs: 100 }])).json.scheduled as { id: number }[];
    await assert.rejects(c.call('GET', '/tire-protection/registrations'));
    await assert.rejects(c.call('GET', '/tire-protection/registrations'));
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 200, 'the retry succeeds');
    const journal = (await ctl(c, 'GET', 'requests')).json;
    assert.equal(journal.total, 3, 'every request that reached the sandbox is in the journal');
    const [first, second, third] = journal.entries;
    assert.equal(first.status, 0);
    assert.deepEqual(first.fault, { by: 'schedule', id: close?.id, fault: 'close', when: 'before' });
    assert.equal(first.diagnosis[0].rule, 'fault');
    assert.match(first.diagnosis[0].message, new RegExp(`scheduled fault #${close?.id}\\b.*closed the connection`));
    assert.deepEqual(second.fault, { by: 'schedule', id: timeout?.id, fault: 'timeout', when: 'before' });
    assert.deepEqual(waits.asked.map((w) => w.ms), [100], 'held for its timeoutMs');
    assert.equal(third.status, 200);
    assert.equal(third.fault, undefined);
    assert.equal(printed.filter((l) => (l.fault as { fault?: string } | undefined)?.fault === 'close').length, 1, 'the --log json line');
    assert.ok(lines.some((l) => /^GET \S+ no answer [\d.]+ms$/.test(l)), lines.join('\n'));
    assert.ok(lines.includes(`no answer GET ${path} — scheduled fault #${close?.id}: close, before`), lines.join('\n'));
    assert.ok(lines.every((l) => !/^GET /.test(l) || /^GET \S+ (\d{3}|no answer) [\d.]+ms$/.test(l)), 'the request lines keep their shape');
    await sb.close();
  });

  it("a scheduled 5xx or 429 is diagnosed as rule fault naming its schedule, never storage, server or the rate limit", async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const statuses = [429, 500, 502, 503, 504];
    const scheduled = (await ctl(c, 'POST', 'faults', statuses.map((fault) => ({ method: 'POST', path, fault })))).json.scheduled as { id: number }[];
    for (const s of statuses) assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('D-1'))).status, s);
    await ctl(c, 'POST', 'faults', { method: 'POST', path, fault: 503, when: 'after-commit' });
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('D-1'))).status, 503);
    const entries = (await ctl(c, 'GET', 'requests')).json.entries as { status: number; fault?: { id: number; when: string }; diagnosis: { rule: string; message: string }[] }[];
    assert.equal(entries.length, 6);
    for (const [i, e] of entries.entries()) {
      assert.deepEqual(e.diagnosis.map((d) => d.rule), ['fault'], `${e.status}: ${JSON.stringify(e.diagnosis)}`);
      assert.doesNotMatch(e.diagnosis[0]?.message ?? '', /--rate-limit|storage/);
      if (i < 5) assert.match(e.diagnosis[0]?.message ?? '', new RegExp(`scheduled fault #${scheduled[i]?.id}\\b.*nothing was processed`));
    }
    assert.equal(entries[5]?.fault?.when, 'after-commit');
    assert.match(entries[5]?.diagnosis[0]?.message ?? '', /stored/);
    await sb.close();
  });

  it('a --fault-rate answer says it came from --fault-rate', async () => {
    const { sb, clients } = await startWith({ faults: { errorRate: 1 } });
    const c = clients[0] as Client;
    const r = await c.call('GET', '/tire-protection/registrations');
    assert.ok(r.status >= 500);
    const [e] = (await ctl(c, 'GET', 'requests')).json.entries;
    assert.deepEqual(e.fault, { by: 'fault-rate', fault: r.status, when: 'before' });
    assert.equal(e.diagnosis[0].rule, 'fault');
    assert.match(e.diagnosis[0].message, /--fault-rate/);
    await sb.close();
  });
});
