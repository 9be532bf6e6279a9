import { strict as assert } from 'node:assert';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { SandboxHandle } from '../../../src/core/sandbox/server';
import { startProxy, type ProxyHandle } from '../../../src/core/proxy/proxyServer';
import { request, startWith, tpRegistration, v2Registration } from '../sandbox/helpers';
import { through } from './helpers';
import { eventually } from '../eventually';

/**
 * `tpp proxy` in front of the "administrator's Sandbox": a second Local sandbox that answers bare
 * 401s like the real one. The proxy must forward each exchange unchanged and explain each broken token the Local
 * log explains (spec: Authentication), a 400 body (spec: Endpoints), and an answer the spec does not describe.
 * Tokens are minted here with node:crypto, independently of the toolkit's minting and of its checklist.
 */

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
function token(key: KeyObject, header: Record<string, unknown>, claims: Record<string, unknown>, opts: { hash?: string; der?: boolean } = {}): string {
  const input = `${b64(header)}.${b64(claims)}`;
  const sig = sign(opts.hash ?? 'sha256', Buffer.from(input), { key, dsaEncoding: opts.der ? 'der' : 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}
const now = () => Math.floor(Date.now() / 1000);

describe('tpp proxy in front of the administrator\'s Sandbox', () => {
  let sb: SandboxHandle;
  let proxy: ProxyHandle;
  let key: KeyObject;
  let spkiPem: string;

  before(async () => {
    const started = await startWith({});
    sb = started.sb;
    const k = (started.clients[0] as unknown as { key: { privateKey: KeyObject; spkiPem: string } }).key;
    key = k.privateKey;
    spkiPem = k.spkiPem;
    proxy = await startProxy({ target: sb.v3BaseUrl, v2Target: sb.v2BaseUrl, partners: [{ id: 'P1001', spkiPem }] });
  });
  after(async () => {
    await proxy?.close();
    await sb?.close();
  });

  const claims = (over: Record<string, unknown> = {}) => ({ iss: 'P1001', aud: sb.v3BaseUrl, iat: now(), exp: now() + 300, ...over });
  const header = (over: Record<string, unknown> = {}) => ({ alg: 'ES256', typ: 'JWT', ...over });
  const verify = (jwt: string) => through(proxy, 'GET', `${proxy.v3BaseUrl}/verify-token`, { authorization: `Bearer ${jwt}` });

  it('forwards a success unchanged (the token untouched: the upstream verified it) and logs it with its environment', async () => {
    const { reply, entry } = await verify(token(key, header(), claims()));
    assert.equal(reply.status, 200);
    assert.equal(reply.json.partner_id, 'P1001');
    assert.equal(entry.environment, 'sandbox');
    assert.equal(entry.kind, 'request');
    assert.deepEqual(entry.diagnosis, []);
    const line = entry.line();
    assert.equal(line.environment, 'sandbox');
    assert.equal(line.path, '/api/v3/verify-token');
    const x = entry.exchange();
    assert.equal(x.source, 'proxy-log');
    assert.equal(x.env, 'sandbox');
    assert.equal(x.request.headers?.authorization, 'Bearer [masked]');
    assert.ok(x.request.url.startsWith(sb.v3BaseUrl), x.request.url);
  });

  it('the bare 401 comes back as the upstream sent it', async () => {
    const direct = await request('GET', `${sb.v3BaseUrl}/verify-token`, { authorization: 'Bearer x.y.z' });
    const { reply } = await verify('x.y.z');
    assert.equal(reply.status, 401);
    assert.equal(reply.text, direct.text);
    assert.equal(reply.headers.get('content-type'), direct.headers.get('content-type'));
  });

  const cases: { rule: string; what: string; make: () => string; says: RegExp }[] = [
    { rule: 'iat', what: 'iat in milliseconds', make: () => token(key, header(), claims({ iat: Date.now() })), says: /milliseconds/ },
    { rule: 'aud', what: 'aud with a trailing slash', make: () => token(key, header(), claims({ aud: `${sb.v3BaseUrl}/` })), says: /^Remove the trailing slash/ },
    { rule: 'alg', what: 'ES384 with the P-256 key', make: () => token(key, header({ alg: 'ES384' }), claims(), { hash: 'sha384' }), says: /P-256.*use ES256/ },
    { rule: 'exp', what: 'exp 3 hours ahead', make: () => token(key, header(), claims({ exp: now() + 3 * 3600 })), says: /at most 2 hours ahead/ },
    { rule: 'iss', what: 'unknown iss', make: () => token(key, header(), claims({ iss: 'NOBODY' })), says: /"NOBODY" is not a Partner ID given to this proxy.*"P1001"/ },
    { rule: 'signature', what: 'DER signature', make: () => token(key, header(), claims(), { der: true }), says: /DER/ },
    { rule: 'signature', what: 'signed by another key', make: () => token(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, header(), claims()), says: /another key/ },
  ];
  for (const c of cases) {
    it(`401 ${c.what}: the entry names ${c.rule} and the fix`, async () => {
      const { reply, entry } = await verify(c.make());
      assert.equal(reply.status, 401);
      assert.deepEqual(reply.json, { error: 'unauthorized', statusCode: 401 });
      assert.deepEqual(entry.diagnosis.map((d) => d.rule), [c.rule], JSON.stringify(entry.diagnosis));
      assert.match(entry.diagnosis[0]?.message ?? '', c.says);
      assert.equal(entry.kind, 'request');
    });
  }

  it("401 with aud = the proxy's own address: says so, and how to fix it (TPP_AUDIENCE)", async () => {
    const { entry } = await verify(token(key, header(), claims({ aud: proxy.v3BaseUrl })));
    assert.deepEqual(entry.diagnosis.map((d) => d.rule), ['aud'], JSON.stringify(entry.diagnosis));
    assert.match(entry.diagnosis[0]?.message ?? '', /proxy's own address/);
    assert.ok(entry.diagnosis[0]?.message.includes(`TPP_AUDIENCE=${sb.v3BaseUrl}`));
  });

  it('400: the payload diagnostics of the body sent (v3 and v2)', async () => {
    const good = `Bearer ${token(key, header(), claims())}`;
    const body = JSON.stringify({ ...tpRegistration(`INV-${Date.now()}`), enrollDate: 'yesterday' });
    const { reply, entry } = await through(proxy, 'POST', `${proxy.v3BaseUrl}/tire-protection/registrations`, { authorization: good, 'content-type': 'application/json' }, body);
    assert.equal(reply.status, 400);
    assert.ok(entry.diagnosis.some((d) => d.rule === 'enrollDate'), JSON.stringify(entry.diagnosis));
    assert.equal(entry.kind, 'request');
    assert.equal(entry.exchange().request.body, body);

    const v2 = JSON.stringify({ Registrations: [{ ...v2Registration('S1', `INV-${Date.now()}`), TirePrice: 189.999 }] });
    const jwtV2 = `Bearer ${token(key, header(), claims({ aud: sb.v2BaseUrl }))}`;
    const r2 = await through(proxy, 'POST', `${proxy.origin}/v2/partners/partner1`, { authorization: jwtV2, 'content-type': 'application/json' }, v2);
    assert.equal(r2.reply.status, 400);
    assert.ok(r2.entry.diagnosis.some((d) => d.rule === 'Registrations[0].TirePrice' && d.code === 'money'), JSON.stringify(r2.entry.diagnosis));
  });

  it('a 201 create and a list read are not drift', async () => {
    const good = () => `Bearer ${token(key, header(), claims())}`;
    const created = await through(proxy, 'POST', `${proxy.v3BaseUrl}/tire-protection/registrations`, { authorization: good(), 'content-type': 'application/json' }, JSON.stringify(tpRegistration(`INV-OK-${Date.now()}`)));
    assert.equal(created.reply.status, 201);
    assert.equal(created.entry.kind, 'request', JSON.stringify(created.entry.diagnosis));
    const list = await through(proxy, 'GET', `${proxy.v3BaseUrl}/tire-protection/registrations?pageSize=5`, { authorization: good() });
    assert.equal(list.reply.status, 200);
    assert.equal(list.entry.kind, 'request', JSON.stringify(list.entry.diagnosis));
  });

  it('log lines come in the order the answers were sent, whatever order the diagnoses finish in', async () => {
    const seen: string[] = [];
    const off = proxy.log.subscribe((e) => seen.push(e.path));
    const tags = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const [i, t] of tags.entries()) {
      const jwt = i % 2 === 0 ? token(key, header(), claims({ iat: Date.now() })) : token(key, header(), claims());
      await request('GET', `${proxy.v3BaseUrl}/verify-token?tag=${t}`, { authorization: `Bearer ${jwt}` });
    }
    await eventually(() => seen.length >= tags.length);
    off();
    assert.deepEqual(seen, tags.map((t) => `/api/v3/verify-token?tag=${t}`));
  });

  it('an answer the spec does not describe is its own entry kind, naming the endpoint and the difference', async () => {
    const drifted = await startWith({ driftStatusForTests: 418 });
    const p2 = await startProxy({ target: drifted.sb.v3BaseUrl, partners: [{ id: 'P1001', spkiPem: drifted.clients[0]?.key.spkiPem as string }] });
    try {
      const jwt = (drifted.clients[0] as { token(): string }).token();
      const { reply, entry } = await through(p2, 'GET', `${p2.v3BaseUrl}/verify-token`, { authorization: `Bearer ${jwt}` });
      assert.equal(reply.status, 418);
      assert.equal(entry.kind, 'contract-drift');
      assert.equal(entry.line().kind, 'contract-drift');
      assert.equal(entry.diagnosis[0]?.rule, 'contract-drift');
      assert.match(entry.diagnosis[0]?.message ?? '', /verifyToken.*418.*not in|verifyToken.*answered 418/);
    } finally {
      await p2.close();
      await drifted.sb.close();
    }
  });
});
