import { strict as assert } from 'node:assert';
import { Client, FaultWaits, request, startWith, tpRegistration, type Reply } from './helpers';

/**
 * Scheduled faults that match and vary (docs/testing-your-application.md, Faults): by method, path, partner and body
 * field; a delay before the real answer; a seeded probability; malformed answers.
 */
describe('Local sandbox: scheduled faults that match and vary', function () {
  this.timeout(120_000);

  const ctl = (c: Client, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${c.sb.origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
  const path = '/api/v3/tire-protection/registrations';

  it('matches on partner and on a body field; other requests pass untouched', async () => {
    const { sb, clients } = await startWith({}, ['ES256', 'ES256']);
    const [a, b] = clients as [Client, Client];
    const added = await ctl(a, 'POST', 'faults', [
      { method: 'POST', path, partner: 'P1002', fault: 503, times: 5 },
      { method: 'POST', path, body: { invoiceNumber: 'HIT-1' }, fault: 502 },
    ]);
    assert.equal(added.status, 201, added.text);
    assert.equal((await a.call('POST', '/tire-protection/registrations', tpRegistration('MISS-1'))).status, 201, 'P1001, another invoice');
    assert.equal((await b.call('POST', '/tire-protection/registrations', tpRegistration('B-1'))).status, 503, "P1002's request");
    assert.equal((await a.call('POST', '/tire-protection/registrations', tpRegistration('HIT-1'))).status, 502, 'the body field matched');
    const retry = await a.call('POST', '/tire-protection/registrations', tpRegistration('HIT-1'));
    assert.equal(retry.status, 201, `once; the retry is stored: ${retry.text}`);
    const faults = (await ctl(a, 'GET', 'faults')).json.faults as { partner?: string; remaining: number }[];
    assert.deepEqual(faults.map((f) => [f.partner, f.remaining]), [['P1002', 4]]);
    await sb.close();
  });

  it('delayMs holds the answer back, then the real answer comes', async () => {
    const waits = new FaultWaits();
    const { sb, clients } = await startWith({ sleep: waits.sleep });
    const c = clients[0] as Client;
    await ctl(c, 'POST', 'faults', { method: 'GET', path, delayMs: 300 });
    const answered: string[] = [];
    const held = c.call('GET', '/tire-protection/registrations').then((r) => (answered.push('held'), r));
    const hold = await waits.nth(0);
    assert.equal(hold.ms, 300, 'held back for delayMs');
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 200, 'a request after it (the fault was once) is answered meanwhile');
    assert.deepEqual(answered, [], 'not before its hold ends');
    hold.release();
    assert.equal((await held).status, 200, 'then the real answer');
    const entry = ((await ctl(c, 'GET', 'requests')).json.entries as { fault?: unknown }[]).find((e) => e.fault);
    assert.deepEqual(entry?.fault, { by: 'schedule', id: 1, fault: 'delay', when: 'before', delayMs: 300 });
    assert.equal(waits.asked.length, 1);
    await sb.close();
  });

  it('a seeded probability hits the same requests on every run; without times it stays until cleared', async () => {
    const hitsOf = async () => {
      const { sb, clients } = await startWith();
      const c = clients[0] as Client;
      await ctl(c, 'POST', 'faults', { method: 'GET', path, fault: 500, probability: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await c.call('GET', '/tire-protection/registrations')).status);
      assert.deepEqual((await ctl(c, 'GET', 'faults')).json.faults.map((f: { remaining: unknown }) => f.remaining), [null]);
      await sb.close();
      return statuses;
    };
    const one = await hitsOf();
    assert.deepEqual(await hitsOf(), one, 'the same seed, the same hits');
    assert.ok(one.includes(500) && one.includes(200), one.join(' '));
  });

  it('truncated-json and wrong-content-type garble the real answer; the write is stored', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    await ctl(c, 'POST', 'faults', [{ method: 'POST', path, fault: 'truncated-json' }, { method: 'POST', path, fault: 'wrong-content-type' }]);
    const cut = await c.call('POST', '/tire-protection/registrations', tpRegistration('M-1'));
    assert.equal(cut.status, 201);
    assert.throws(() => JSON.parse(cut.text), 'cut in the middle of its JSON');
    assert.match(cut.headers.get('content-type') ?? '', /application\/json/);
    const typed = await c.call('POST', '/tire-protection/registrations', tpRegistration('M-2'));
    assert.match(typed.headers.get('content-type') ?? '', /text\/html/);
    assert.ok(JSON.parse(typed.text).id, 'the real answer, as text/html');
    assert.equal((await c.call('GET', '/tire-protection/registrations')).json.totalRecordCount, 2, 'both stored');
    await sb.close();
  });

  it('refuses bad matchers, naming the field', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    for (const [body, field] of [
      [{ path, probability: 1.5, fault: 500 }, 'probability'],
      [{ path, seed: 1, fault: 500 }, 'seed'],
      [{ path }, 'fault'],
      [{ path, fault: 'truncated-json', when: 'before' }, 'when'],
      [{ path, fault: 500, body: 'x' }, 'body'],
      [{ path, fault: 500, delayMs: -1 }, 'delayMs'],
      [{ path, fault: 500, partnr: 'P1' }, 'partnr'],
    ] as const) {
      const r = await ctl(c, 'POST', 'faults', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.issues[0].path, field, JSON.stringify(body));
    }
    assert.equal((await ctl(c, 'GET', 'faults')).json.faults.length, 0);
    await sb.close();
  });
});
