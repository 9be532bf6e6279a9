import { strict as assert } from 'node:assert';
import { createServer } from 'node:net';
import { runSandboxCommand } from '../../../src/cli/commands/sandbox';
import { MAX_CLOCK_OFFSET_MS } from '../../../src/core/sandbox/control/clock';
import { MAX_SCHEDULED_HITS } from '../../../src/core/sandbox/control/faults';
import { REQUEST_BODY_CAP, RESPONSE_BODY_CAP, RequestLogEntry } from '../../../src/core/requestLog/requestLog';
import { controlOpenApi } from '../../../src/core/sandbox/control/openapi';
import { CONTROL_ENDPOINTS } from '../../../src/core/sandbox/control/routes';
import { controlEnabled } from '../../../src/core/sandbox/control/security';
import { claim, Client, FaultWaits, newKey, request, startWith, tpRegistration, type Reply } from './helpers';

/** The control API under /__tpp/ (docs/testing-your-application.md): health, reset, seed, journal, faults, clock, partners, security. */
describe('Local sandbox: control API', function () {
  this.timeout(60_000);

  const ctl = (c: Client, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
    request(method, `${c.sb.origin}/__tpp/${path}`, { ...(method === 'POST' ? { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json' } : {}), ...headers }, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  const count = async (c: Client) => (await c.call('GET', '/tire-protection/registrations')).json.totalRecordCount as number;

  it('health answers without a token: ready, version, storage kind', async () => {
    const { sb, clients } = await startWith({ version: '9.9.9' });
    const r = await ctl(clients[0] as Client, 'GET', 'health');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { status: 'ready', version: '9.9.9', storage: 'memory' });
    await sb.close();
  });

  it('reset empties the records, keeps partners (or not), the journal, faults and clock', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('R-1'))).status, 201);
    await ctl(c, 'POST', 'faults', { path: '/api/v3/**', fault: 503, times: 3 });
    await ctl(c, 'POST', 'clock', { advanceSeconds: 3600 });
    const r = await ctl(c, 'POST', 'reset');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.keptPartners, ['P1001']);
    assert.equal((await ctl(c, 'GET', 'faults')).json.faults.length, 0);
    assert.equal((await ctl(c, 'GET', 'clock')).json.offsetSeconds, 0);
    assert.equal(await count(c), 0, 'records gone; the partner still authenticates');
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('R-1'))).status, 201, 'the same invoice number is free again');
    assert.equal((await ctl(c, 'GET', 'requests')).json.total, 2, 'the journal starts again at the reset');
    assert.equal((await ctl(c, 'POST', 'reset', { keepPartners: false })).status, 200);
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 200, 'keepPartners drops runtime partners only: P1001 was started with');
    assert.equal((await ctl(c, 'POST', 'reset', { keepStartupPartners: false })).status, 200);
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 401, 'the startup partner is gone, as asked');
    assert.equal((await ctl(c, 'POST', 'reset', { keepPartners: 'no' })).status, 400);
    await sb.close();
  });

  it('a reset during a running write waits for it: the seed is either wholly there or wholly gone', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const seeding = ctl(c, 'POST', 'seed', { count: 20_000 });
    await new Promise((r) => setTimeout(r, 30));
    const reset = await ctl(c, 'POST', 'reset');
    assert.equal((await seeding).status, 201);
    assert.equal(reset.status, 200);
    assert.equal(await count(c), 0, 'the reset came after the whole seed');
    await sb.close();
  });

  it('seed: a count, or fixtures as JSON or NDJSON in one transaction, answering what was created', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const s = await ctl(c, 'POST', 'seed', { count: 50 });
    assert.equal(s.status, 201);
    assert.ok(s.json.sample.registrations >= 50, JSON.stringify(s.json));
    assert.equal((await ctl(c, 'POST', 'reset')).status, 200, 'small tables with foreign keys between them (parts, shops, claims) are emptied children first');
    assert.equal((await c.call('GET', '/motor-club/registrations')).json.totalRecordCount, 0);
    const f = await ctl(c, 'POST', 'seed', [{ $schema: 'tpp://schemas/tire-protection-registration.json', ...tpRegistration('F-1') }, tpRegistration('F-2')]);
    assert.equal(f.status, 201, f.text);
    assert.deepEqual(f.json.registrations.map((x: { invoiceNumber: string }) => x.invoiceNumber), ['F-1', 'F-2']);
    assert.equal((await c.call('GET', `/tire-protection/registrations/${f.json.registrations[0].id}`)).status, 200);
    const nd = await ctl(c, 'POST', 'seed', `${JSON.stringify(tpRegistration('F-3'))}\n${JSON.stringify(tpRegistration('F-1'))}\n`);
    assert.equal(nd.status, 409, 'F-1 exists: the whole seed is refused');
    assert.match(nd.json.message, /Fixture \[1\]/);
    assert.equal(await count(c), 2, 'F-3 was not stored either (one transaction)');
    const badFixture = await ctl(c, 'POST', 'seed', [{ invoiceNumber: 5, tires: 'four' }]);
    assert.equal(badFixture.status, 400);
    assert.ok(badFixture.json.issues.every((i: { path: string }) => i.path.startsWith('[0].')));
    const tooMany = await ctl(c, 'POST', 'seed', { count: 1_000_001 });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.json.message, /1000000/);
    assert.equal((await ctl(c, 'POST', 'seed?partner=nobody', { count: 1 })).status, 400);
    await sb.close();
  });

  it('requests: the journal, masked like --log json, filtered; control calls never in it', async () => {
    const { sb, clients } = await startWith({}, ['ES256', 'ES256']);
    const [a, b] = clients as [Client, Client];
    await a.call('POST', '/tire-protection/registrations', tpRegistration('J-1'));
    await b.call('POST', '/tire-protection/registrations', tpRegistration('J-2'));
    await a.call('GET', '/tire-protection/registrations', undefined, { token: a.token('v3', { aud: 'http://wrong' }) });
    await ctl(a, 'GET', 'health');
    const all = (await ctl(a, 'GET', 'requests')).json;
    assert.equal(all.total, 3, 'the control calls are not partner traffic');
    const posts = (await ctl(a, 'GET', 'requests?method=post&path=/api/v3/tire-protection/*&partner=P1001')).json;
    assert.equal(posts.total, 1);
    assert.match(posts.entries[0].request.body, /"invoiceNumber":"J-1"/);
    assert.equal(posts.entries[0].request.headers.authorization, 'Bearer [masked]');
    assert.ok(!JSON.stringify(all).includes('eyJ'), 'no token in the journal');
    const refused = (await ctl(a, 'GET', 'requests?status=4xx')).json.entries[0];
    assert.equal(refused.status, 401);
    assert.ok(refused.diagnosis.some((d: { rule: string }) => d.rule === 'aud'), JSON.stringify(refused.diagnosis));
    assert.equal((await ctl(a, 'GET', `requests?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).json.total, 0);
    for (const q of ['status=abc', 'since=yesterday', 'limit=10001', 'path=nope']) {
      const r = await ctl(a, 'GET', `requests?${q}`);
      assert.equal(r.status, 400, q);
      assert.match(r.json.issues[0].path, new RegExp(`^query\\.${q.split('=')[0]}$`));
    }
    assert.deepEqual((await ctl(a, 'DELETE', 'requests')).json, { cleared: 3 });
    assert.equal((await ctl(a, 'GET', 'requests')).json.total, 0);
    await sb.close();
  });

  it('faults: consumed in order for method + path; 429 with Retry-After; after-commit stores the write', async () => {
    const waits = new FaultWaits();
    const { sb, clients } = await startWith({ sleep: waits.sleep });
    const c = clients[0] as Client;
    const path = '/api/v3/tire-protection/registrations';
    const s = await ctl(c, 'POST', 'faults', [{ method: 'POST', path, fault: 429, retryAfter: 2 }, { method: 'POST', path, fault: 503, times: 2 }]);
    assert.equal(s.status, 201);
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 200, 'a GET does not match');
    const first = await c.call('POST', '/tire-protection/registrations', tpRegistration('F-1'));
    assert.equal(first.status, 429);
    assert.equal(first.headers.get('retry-after'), '2');
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('F-1'))).status, 503);
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('F-1'))).status, 503);
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('F-1'))).status, 201);
    assert.equal(await count(c), 1, 'faults before processing stored nothing');
    await ctl(c, 'POST', 'faults', { method: 'POST', path: '/api/v3/**', fault: 500, when: 'after-commit' });
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('F-2'))).status, 500);
    assert.equal(await count(c), 2, 'after-commit: stored, answer lost');
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('F-2'))).status, 409, 'the duplicate case');
    await ctl(c, 'POST', 'faults', { path, fault: 'close' });
    await assert.rejects(c.call('GET', '/tire-protection/registrations'), 'a closed connection');
    await ctl(c, 'POST', 'faults', { path, fault: 'timeout', timeoutMs: 200 });
    let ended = false;
    const cut = assert.rejects(c.call('GET', '/tire-protection/registrations')).then(() => (ended = true));
    const hold = await waits.nth(0);
    assert.equal(hold.ms, 200, 'held for timeoutMs');
    assert.equal((await ctl(c, 'GET', 'faults')).status, 200);
    assert.equal(ended, false, 'the connection stays open while held');
    hold.release();
    await cut;
    await ctl(c, 'POST', 'faults', { path, fault: 502, times: 5 });
    assert.equal((await ctl(c, 'GET', 'faults')).json.faults[0].remaining, 5);
    assert.deepEqual((await ctl(c, 'DELETE', 'faults')).json, { cleared: 1 });
    await sb.close();
  });

  it('faults: exactly N hits with 8 concurrent clients', async () => {
    const { sb, clients } = await startWith({}, Array.from({ length: 8 }, () => 'ES256' as const));
    await ctl(clients[0] as Client, 'POST', 'faults', { method: 'GET', path: '/api/v3/tire-protection/registrations', fault: 503, times: 13 });
    const statuses = (await Promise.all(clients.flatMap((c) => Array.from({ length: 5 }, () => c.call('GET', '/tire-protection/registrations'))))).map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 503).length, 13);
    assert.equal(statuses.filter((s) => s === 200).length, 40 - 13);
    await sb.close();
  });

  it('faults: a malformed body names the field, a schedule over the limit names it', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const cases: [unknown, string][] = [
      [{ path: '/x', fault: 418 }, 'fault'],
      [{ fault: 503 }, 'path'],
      [{ path: 'x', fault: 503 }, 'path'],
      [{ path: '/x', fault: 503, times: 0 }, 'times'],
      [{ path: '/x', fault: 503, when: 'later' }, 'when'],
      [{ path: '/x', fault: 503, method: 'FETCH' }, 'method'],
      [[{ path: '/x', fault: 503 }, { path: '/x', fault: 'nope' }], '[1].fault'],
    ];
    for (const [body, field] of cases) {
      const r = await ctl(c, 'POST', 'faults', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.issues[0].path, field);
    }
    await ctl(c, 'POST', 'faults', { path: '/x', fault: 503, times: MAX_SCHEDULED_HITS });
    const over = await ctl(c, 'POST', 'faults', { path: '/x', fault: 503 });
    assert.equal(over.status, 400);
    assert.match(over.json.message, /10000/);
    assert.equal((await ctl(c, 'GET', 'faults')).json.faults.length, 1, 'nothing added');
    await sb.close();
  });

  it('clock: expiry, JWT windows and timestamps all read it; ±10 years; back to real time', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const id = (await c.call('POST', '/tire-protection/registrations', tpRegistration('C-1'))).json.id as string;
    const moved = await ctl(c, 'POST', 'clock', { advanceSeconds: 37 * 31 * 86_400 });
    assert.equal(moved.status, 200);
    const sandboxNow = Date.parse(moved.json.now);
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 401, 'a token of real time is now too old (iat)');
    c.now = () => Date.now() + moved.json.offsetSeconds * 1000;
    const late = await c.call('POST', `/tire-protection/registrations/${id}/claims`, claim(1));
    assert.equal(late.status, 409, late.text);
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('C-2', 4, new Date(sandboxNow).toISOString().slice(0, 10)))).status, 201);
    const read = (await c.call('GET', '/v2/partners/partner1?rec=registrationstatus&invoicenumber=C-2')).json[0];
    assert.ok(Math.abs(Date.parse(read.StatusDate) - sandboxNow) < 60_000, `StatusDate ${read.StatusDate} (written at creation) is sandbox time`);
    for (const body of [{ offsetSeconds: MAX_CLOCK_OFFSET_MS / 1000 + 1 }, { advanceSeconds: -(MAX_CLOCK_OFFSET_MS / 1000) * 2 }, { offsetSeconds: 'soon' }, {}, { offsetSeconds: 1, advanceSeconds: 1 }]) {
      const r = await ctl(c, 'POST', 'clock', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.json.issues[0].path, 'names the field');
    }
    assert.equal((await ctl(c, 'POST', 'clock', { offsetSeconds: 0 })).status, 409, 'back to real time would go back past C-2');
    assert.equal((await ctl(c, 'POST', 'reset')).status, 200);
    assert.equal((await ctl(c, 'GET', 'clock')).json.offsetSeconds, 0, 'a reset goes back to real time');
    c.now = Date.now;
    assert.equal((await c.call('GET', '/tire-protection/registrations')).status, 200);
    await sb.close();
  });

  it('partners: registers a partner at runtime; a bad key names spki_pem', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const key = newKey('ES384');
    const r = await ctl(c, 'POST', 'partners', { id: 'SUITE-7', company_name: 'suite7', spki_pem: key.spkiPem });
    assert.equal(r.status, 201);
    assert.deepEqual(r.json, { id: 'SUITE-7', company_name: 'suite7' });
    assert.equal((await new Client(sb, 'SUITE-7', key).call('GET', '/verify-token')).status, 200);
    for (const [body, field] of [[{ id: 'X', spki_pem: 'nope' }, 'spki_pem'], [{ spki_pem: key.spkiPem }, 'id'], [{ id: 'a b', spki_pem: key.spkiPem }, 'id']] as const) {
      const bad = await ctl(c, 'POST', 'partners', body);
      assert.equal(bad.status, 400);
      assert.equal(bad.json.issues[0].path, field);
    }
    await sb.close();
  });

  it('unknown control paths answer 404 listing the endpoints; another method 405', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const r = await ctl(c, 'GET', 'nope');
    assert.equal(r.status, 404);
    assert.ok(r.json.endpoints.includes('POST /__tpp/reset'));
    assert.equal((await ctl(c, 'GET', 'reset')).status, 405);
    assert.equal((await ctl(c, 'GET', 'requests')).json.total, 0, 'not journalled');
    await sb.close();
  });

  it('security: loopback by default; elsewhere only with the admin token (401 and nothing changed); off with enabled false', async () => {
    assert.equal(controlEnabled('127.0.0.1', undefined), true);
    assert.equal(controlEnabled('::1', undefined), true);
    assert.equal(controlEnabled('0.0.0.0', undefined), false);
    assert.equal(controlEnabled('0.0.0.0', { token: 't' }), true);
    assert.equal(controlEnabled('127.0.0.1', { enabled: false }), false);
    const token = 'a-long-admin-token-123';
    const { sb, clients } = await startWith({ admin: { token } });
    assert.equal(sb.requestLog?.limit, 10_000, 'the journal keeps 10,000 entries');
    const c = clients[0] as Client;
    await c.call('POST', '/tire-protection/registrations', tpRegistration('S-1'));
    assert.equal((await ctl(c, 'GET', 'health')).status, 200, 'health needs no token');
    for (const auth of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${token}x` }, { authorization: token }]) {
      assert.equal((await ctl(c, 'POST', 'reset', undefined, auth)).status, 401);
    }
    assert.equal(await count(c), 1, 'nothing changed');
    assert.equal((await ctl(c, 'POST', 'reset', undefined, { authorization: `Bearer ${token}` })).status, 200);
    assert.equal(await count(c), 0);
    await sb.close();
    const off = await startWith({ admin: { enabled: false }, requestLog: {} });
    assert.equal(off.sb.requestLog?.limit, 1000, 'without the control API the log keeps its own default');
    const h = await ctl(off.clients[0] as Client, 'GET', 'health');
    assert.equal(h.status, 404);
    assert.equal(h.json.endpoints, undefined, 'an ordinary 404 of the partner interface');
    await off.sb.close();
  });

  it("the 401 of a call without the admin token says whose token it is and both ways on, never the token", async () => {
    const token = 'a-long-admin-token-123';
    const { sb, clients } = await startWith({ admin: { token } });
    const r = await ctl(clients[0] as Client, 'GET', 'records?kind=registrations');
    assert.equal(r.status, 401);
    assert.match(r.json.message, /none was sent/);
    assert.match(r.json.message, /--admin-token or TPP_ADMIN_TOKEN/);
    assert.match(r.json.message, /tpp sandbox --port 0 needs no token on a loopback --host \(tpp docs testing\)/);
    assert.ok(!r.text.includes(token));
    await sb.close();
  });

  it('a journal entry holds only what its exchange shows: 10,000 entries never hold whole 1 MiB bodies', () => {
    const body = 'é'.repeat(1024 * 1024);
    const answer = `"${'x'.repeat(3 * 1024 * 1024)}"`;
    const raw = { method: 'POST', url: 'http://127.0.0.1/api/v3/x', path: '/api/v3/x', headers: {}, body, status: 400, responseHeaders: {}, responseBody: answer, ms: 1 };
    const entry = new RequestLogEntry(raw, [], Date.now());
    const held = (entry as unknown as { raw: { body: string; responseBody: string } }).raw;
    assert.ok(held.body.length <= REQUEST_BODY_CAP && held.responseBody.length <= RESPONSE_BODY_CAP, 'the texts held are cut');
    const x = entry.exchange();
    assert.equal(x.request.body?.length, REQUEST_BODY_CAP);
    assert.equal(x.response?.body?.length, RESPONSE_BODY_CAP);
    assert.equal(x.response?.truncated, true);
    assert.equal(x.response?.size, Buffer.byteLength(answer), 'the size is the whole answer');
    const small = new RequestLogEntry({ ...raw, body: '{}', responseBody: '{"a":1}' }, [], Date.now()).exchange();
    assert.deepEqual([small.request.body, small.response?.body, small.response?.size, small.response?.truncated], ['{}', '{"a":1}', 7, undefined]);
  });

  it('controlOpenApi describes every control endpoint under the tag "Sandbox control"', () => {
    const doc = controlOpenApi();
    const paths = doc.paths as Record<string, Record<string, { tags: string[] }>>;
    for (const [method, name] of CONTROL_ENDPOINTS) assert.deepEqual(paths[`/__tpp/${name}`]?.[method.toLowerCase()]?.tags, ['Sandbox control'], `${method} ${name}`);
    assert.equal(Object.values(paths).reduce((n, ops) => n + Object.keys(ops).filter((k) => k !== 'servers').length, 0), CONTROL_ENDPOINTS.length);
  });

  it('tpp sandbox refuses a short admin token and --no-admin with a token (usage errors)', async () => {
    const io = { stdout: { write: () => true }, stderr: { write: () => true } } as unknown as Parameters<typeof runSandboxCommand>[1];
    await assert.rejects(runSandboxCommand(['--admin-token', 'short'], io), /at least 16 characters/);
    await assert.rejects(runSandboxCommand(['--no-admin', '--admin-token', 'a-long-admin-token-123'], io), /not both/);
  });

  it('is off on a non-loopback bind without a token, but for health', async function () {
    const probe = createServer();
    const canBind = await new Promise<boolean>((resolve) => probe.once('error', () => resolve(false)).listen(0, '0.0.0.0', () => probe.close(() => resolve(true))));
    if (!canBind) {
      console.log('      skipped: cannot listen on 0.0.0.0 here');
      this.skip();
    }
    const { sb } = await startWith({ host: '0.0.0.0' });
    const port = new URL(sb.origin).port;
    assert.equal((await request('GET', `http://127.0.0.1:${port}/__tpp/health`, {})).status, 200, 'health (only health) answers: a readiness probe');
    assert.equal((await request('POST', `http://127.0.0.1:${port}/__tpp/reset`, {})).status, 404);
    assert.equal((await request('GET', `http://127.0.0.1:${port}/__tpp/requests`, {})).status, 404);
    await sb.close();
  });
});
