import { strict as assert } from 'node:assert';
import { createServer } from 'node:net';
import { callableOrigin } from '../../../src/core/sandbox/addresses';
import { Client, newKey, request, startWith, tpRegistration, v2Registration, type Reply } from './helpers';

/**
 * The control API refuses what it does not understand, stores only what it was asked to, and goes back to the state
 * the sandbox started in (docs/testing-your-application.md, Control API reference; Reset; Seed; Security).
 */
describe('Local sandbox: control API input, fixtures and reset', function () {
  this.timeout(90_000);

  const ctl = (c: Client, method: string, path: string, body?: unknown): Promise<Reply> =>
    request(method, `${c.sb.origin}/__tpp/${path}`, method === 'POST' ? { 'content-type': 'application/json' } : {}, body === undefined ? undefined : JSON.stringify(body));
  const count = async (c: Client) => (await c.call('GET', '/tire-protection/registrations')).json.totalRecordCount as number;
  const refused = (r: Reply, field: string, what: string) => {
    assert.equal(r.status, 400, `${what}: ${r.text}`);
    assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), [field], what);
  };

  it('unknown properties and query parameters, and malformed values, are 400 naming the field; nothing changes', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const path = '/api/v3/tire-protection/registrations';
    refused(await ctl(c, 'POST', 'faults', { path, fault: 503, tiems: 5 }), 'tiems', 'a misspelt times');
    refused(await ctl(c, 'POST', 'faults', [{ path, fault: 503 }, { path, fault: 503, retry_after: 2 }]), '[1].retry_after', 'in an array');
    assert.deepEqual((await ctl(c, 'GET', 'faults')).json.faults, [], 'no single-hit fault was scheduled');
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('I-1'))).status, 201);
    refused(await ctl(c, 'POST', 'reset?keepPartners=maybe'), 'query.keepPartners', 'a flag that is not true/false');
    refused(await ctl(c, 'POST', 'reset', { keepPartner: false }), 'keepPartner', 'a misspelt reset option');
    refused(await ctl(c, 'POST', 'reset?force=1'), 'query.force', 'an unknown reset parameter');
    assert.equal(await count(c), 1, 'no reset happened');
    refused(await ctl(c, 'GET', 'requests?method=FETCH'), 'query.method', 'an unknown method');
    refused(await ctl(c, 'GET', 'requests?stauts=500'), 'query.stauts', 'an unknown filter');
    refused(await ctl(c, 'GET', 'requests?method=GET&method=POST'), 'query.method', 'a filter given twice');
    refused(await ctl(c, 'POST', 'clock', { offsetSecond: 60 }), 'offsetSecond', 'a misspelt clock field');
    refused(await ctl(c, 'POST', 'seed', { count: 5, partner: 'P1001' }), 'partner', 'the partner belongs in the query');
    refused(await ctl(c, 'POST', 'partners', { id: 'X', spki_pem: newKey().spkiPem, name: 'x' }), 'name', 'company_name misspelt');
    refused(await ctl(c, 'GET', 'health?verbose=1'), 'query.verbose', 'health takes no parameter');
    refused(await ctl(c, 'DELETE', 'requests?all=true'), 'query.all', 'DELETE requests takes no parameter');
    assert.equal((await ctl(c, 'GET', 'requests?method=post')).status, 200, 'a method in any case');
    await sb.close();
  });

  it('a trailing slash is no control endpoint: 404, never a 405 naming the method that was used', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    for (const [method, path] of [['GET', 'health/'], ['POST', 'reset/'], ['GET', 'requests/']]) {
      const r = await ctl(c, method as string, path as string);
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.ok(r.json.endpoints.includes(`${method} /__tpp/${(path as string).slice(0, -1)}`), 'the 404 lists the endpoint meant');
    }
    assert.equal((await ctl(c, 'DELETE', 'health')).status, 405, 'another method on the exact path is still 405');
    await sb.close();
  });

  it('seed stores version 2 fixtures as version 2 records, and refuses a kind it cannot seed with its index and kind', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const v2 = { $schema: 'tpp://schemas/v2-registrations.json', Registrations: [v2Registration('SHOP-9', 'V2-1', 3)] };
    const r = await ctl(c, 'POST', 'seed', [tpRegistration('T-1'), v2]);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.records.map((x: { kind: string }) => x.kind), ['tire-protection-registration', 'v2-registrations']);
    const read = (await c.call('GET', '/v2/partners/partner1?rec=registrationstatus&invoicenumber=V2-1')).json;
    assert.equal(read.length, 1, JSON.stringify(read));
    assert.equal(Number(read[0].TiresLeft), 3, 'stored with its fields, not an empty registration');
    assert.equal(await count(c), 2);
    const claimFixture = { $schema: 'tpp://schemas/tire-protection-claim.json', serviceInvoiceNumber: 'S-1' };
    const bad = await ctl(c, 'POST', 'seed', [tpRegistration('T-2'), claimFixture]);
    refused(bad, '[1].$schema', 'a claim needs its registration in the path');
    assert.match(bad.json.message, /tire-protection-claim/);
    refused(await ctl(c, 'POST', 'seed', [{ $schema: 'tpp://schemas/nope.json', invoiceNumber: 'N-1' }]), '[0].$schema', 'an unknown kind');
    const badV2 = await ctl(c, 'POST', 'seed', [{ ...v2, Registrations: [{ ShopID: 'S' }] }]);
    assert.equal(badV2.status, 400);
    assert.ok(badV2.json.issues.every((i: { path: string }) => i.path.startsWith('[0].Registrations')), badV2.text);
    assert.equal(await count(c), 2, 'nothing more was stored');
    await sb.close();
  });

  it('reset goes back to the state the sandbox started in: startup partners (with their keys) and seed; dropping them is explicit', async () => {
    const { sb, clients } = await startWith({ seedCount: 5 });
    const c = clients[0] as Client;
    const started = await count(c);
    assert.ok(started >= 5);
    const runtime = newKey();
    assert.equal((await ctl(c, 'POST', 'partners', { id: 'RUNTIME-1', spki_pem: runtime.spkiPem })).status, 201);
    // A test replaces the startup partner's key: the reset brings back the key it was started with.
    assert.equal((await ctl(c, 'POST', 'partners', { id: 'P1001', spki_pem: newKey().spkiPem })).status, 201);
    assert.equal((await c.call('GET', '/verify-token')).status, 401);
    await c.call('POST', '/tire-protection/registrations', tpRegistration('R-9'));
    const r = await ctl(c, 'POST', 'reset');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([...r.json.keptPartners].sort(), ['P1001', 'RUNTIME-1']);
    assert.equal((await c.call('GET', '/verify-token')).status, 200, 'the startup key is back');
    assert.equal(await count(c), started, 'the startup seed is back');
    const dropRuntime = await ctl(c, 'POST', 'reset', { keepPartners: false });
    assert.deepEqual(dropRuntime.json.keptPartners, ['P1001'], 'keepPartners false drops the partners registered since, not the startup ones');
    assert.equal((await new Client(sb, 'RUNTIME-1', runtime).call('GET', '/verify-token')).status, 401);
    assert.equal((await c.call('GET', '/verify-token')).status, 200);
    assert.equal((await ctl(c, 'POST', 'reset?reloadSeed=false')).status, 200);
    assert.equal(await count(c), 0, 'the seed is not reloaded when asked not to');
    assert.equal((await ctl(c, 'POST', 'reset', { keepStartupPartners: false })).json.keptPartners.length, 0);
    assert.equal((await c.call('GET', '/verify-token')).status, 401, 'dropping the startup partners is an explicit choice');
    await sb.close();
  });

  it('health says starting (503, Retry-After) until ready', async () => {
    const { sb, clients } = await startWith({ admin: { starting: true } });
    const c = clients[0] as Client;
    const h = await ctl(c, 'GET', 'health');
    assert.equal(h.status, 503);
    assert.equal(h.json.status, 'starting');
    assert.equal(h.headers.get('retry-after'), '1');
    sb.setReady();
    assert.deepEqual([(await ctl(c, 'GET', 'health')).status, (await ctl(c, 'GET', 'health')).json.status], [200, 'ready']);
    await sb.close();
  });

  it('a wildcard bind gives loopback addresses, whose tokens are accepted', async function () {
    assert.equal(callableOrigin('0.0.0.0', 8080), 'http://127.0.0.1:8080');
    assert.equal(callableOrigin('::', 8080), 'http://[::1]:8080');
    assert.equal(callableOrigin('::1', 8080), 'http://[::1]:8080');
    assert.equal(callableOrigin('192.168.1.5', 8080), 'http://192.168.1.5:8080');
    const probe = createServer();
    const canBind = await new Promise<boolean>((resolve) => probe.once('error', () => resolve(false)).listen(0, '0.0.0.0', () => probe.close(() => resolve(true))));
    if (!canBind) this.skip();
    const { sb, clients } = await startWith({ host: '0.0.0.0' });
    assert.match(sb.v3BaseUrl, /^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    assert.equal((await (clients[0] as Client).call('GET', '/verify-token')).status, 200, 'a token minted for the printed aud works');
    await sb.close();
  });
});
