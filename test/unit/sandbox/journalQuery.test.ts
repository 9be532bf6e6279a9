import { strict as assert } from 'node:assert';
import { MAX_BODY_MATCHES } from '../../../src/core/sandbox/control/limits';
import { Client, request, startWith, tpRegistration, type Reply } from './helpers';

/**
 * Journal queries (docs/testing-your-application.md, Control API reference: `GET requests`): by a field of the request
 * body and by the fault that answered; any other query parameter is still a 400 naming it.
 */
describe('Local sandbox: journal queries by body field and by fault', function () {
  this.timeout(60_000);

  const ctl = (c: Client, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${c.sb.origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
  const journal = async (c: Client, query: string) => {
    const r = await ctl(c, 'GET', `requests?${query}`);
    assert.equal(r.status, 200, `${query}: ${r.text}`);
    return r.json as { total: number; entries: { status: number; method: string; fault?: { id?: number }; request: { body?: string } }[] };
  };
  const path = '/api/v3/tire-protection/registrations';

  it('body.<field path>=<value>: exact match on the JSON body as sent, nested and numeric fields too, all filters together', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    for (const [n, tires] of [['Q-1', 4], ['Q-2', 2], ['Q-3', 2]] as const) assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration(n, tires))).status, 201);
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 200);
    const one = await journal(c, 'body.invoiceNumber=Q-2');
    assert.equal(one.total, 1);
    assert.equal(JSON.parse(one.entries[0]?.request.body ?? '{}').invoiceNumber, 'Q-2');
    assert.equal((await journal(c, 'body.invoiceNumber=Q')).total, 0, 'exact, not a prefix');
    assert.equal((await journal(c, 'body.invoiceNumber=q-2')).total, 0, 'exact, case included');
    assert.equal((await journal(c, 'body.customer.name=Ava%20Garcia')).total, 3, 'a nested field');
    assert.equal((await journal(c, 'body.vehicle.year=2021')).total, 3, 'a number compares as its JSON text');
    assert.equal((await journal(c, 'body.tires.1.make=Michelin&body.invoiceNumber=Q-3')).total, 1, 'array items by index; every filter must match');
    assert.equal((await journal(c, 'body.invoiceNumber=Q-1&method=GET')).total, 0, 'with the named filters');
    assert.equal((await journal(c, 'body.nothing=x')).total, 0, 'a field no body has');
    await sb.close();
  });

  it('fault=true|false|fault-rate|<id>: the entries an injected fault answered, or not, or by which schedule; status=0: no answer', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const scheduled = (await ctl(c, 'POST', 'faults', [{ method: 'POST', path, fault: 503 }, { method: 'GET', path, fault: 'close' }])).json.scheduled as { id: number }[];
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('F-1'))).status, 503);
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('F-1'))).status, 201, 'the retry');
    await assert.rejects(c.call('GET', '/tire-protection/registrations'));
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 200);
    const faulted = await journal(c, 'fault=true');
    assert.deepEqual(faulted.entries.map((e) => e.status), [503, 0]);
    assert.deepEqual((await journal(c, 'fault=false')).entries.map((e) => e.status), [201, 200]);
    const byId = await journal(c, `fault=${scheduled[1]?.id}`);
    assert.deepEqual(byId.entries.map((e) => [e.method, e.status]), [['GET', 0]]);
    assert.equal((await journal(c, 'fault=999')).total, 0, 'no such schedule');
    assert.equal((await journal(c, 'fault=fault-rate')).total, 0, 'no --fault-rate here');
    assert.equal((await journal(c, 'status=0')).total, 1, 'the request no answer was sent to');
    const retried = await journal(c, 'fault=false&body.invoiceNumber=F-1');
    assert.deepEqual(retried.entries.map((e) => e.status), [201], 'the retry that was not answered by a fault');
    await sb.close();
  });

  it('a bad fault value, a malformed or repeated body filter, too many, or any other parameter is a 400 naming it', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const tooMany = Array.from({ length: MAX_BODY_MATCHES + 1 }, (_, i) => `body.f${i}=1`).join('&');
    for (const [query, field] of [
      ['fault=maybe', 'query.fault'],
      ['fault=0', 'query.fault'],
      ['bodyinvoiceNumber=X', 'query.bodyinvoiceNumber'],
      ['body.=X', 'query.body.'],
      ['body..x=X', 'query.body..x'],
      ['body=X', 'query.body'],
      ['body.a=1&body.a=2', 'query.body.a'],
      [tooMany, `query.body.f${MAX_BODY_MATCHES}`],
      ['stauts=500', 'query.stauts'],
    ] as const) {
      const r = await ctl(c, 'GET', `requests?${query}`);
      assert.equal(r.status, 400, `${query}: ${r.text}`);
      assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), [field], query);
    }
    await sb.close();
  });
});
