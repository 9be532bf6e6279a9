import { strict as assert } from 'node:assert';
import { generateKeyPairSync } from 'node:crypto';
import * as http from 'node:http';
import { Client, mint, newKey, request, startWith, BACKENDS } from './helpers';
import type { SandboxHandle } from '../../../src/core/sandbox/server';

/** GET `url` with a bearer token and an explicit Host header (fetch does not let a caller set Host). */
function hostRequest(url: string, host: string, token: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject).end();
  });
}

/** Spec: Authentication. Tokens are minted with node:crypto, independently of the server's jose. */
for (const backend of BACKENDS)
  describe(`Local sandbox: authentication (${backend.name})`, () => {
  let sb: SandboxHandle;
  let es256: Client;
  let es384: Client;
  let es512: Client;
  const EXACT_401 = '{"error":"unauthorized","statusCode":401}';
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    {
      const started = await startWith({ ...(await backend.options()) }, ['ES256', 'ES384', 'ES512']);
      sb = started.sb;
      [es256, es384, es512] = started.clients as [Client, Client, Client];
    }
  });
  after(async () => {
    await sb.close();
  });

  async function expect401(c: Client, token: string | null, path = '/verify-token'): Promise<void> {
    const r = await c.call('GET', path, undefined, { token });
    assert.equal(r.status, 401, `expected 401 for ${path}`);
    assert.equal(r.text, EXACT_401);
  }

  it('accepts ES256, ES384 and ES512 tokens of registered partners', async () => {
    for (const c of [es256, es384, es512]) {
      const r = await c.call('GET', '/verify-token');
      assert.equal(r.status, 200, c.key.alg);
      assert.equal(r.json.partner_id, c.partnerId);
    }
  });

  it('refuses a token signed with another key (wrong key)', async () => {
    const other = newKey('ES256');
    await expect401(es256, mint(other, { iss: es256.partnerId, aud: sb.v3BaseUrl }));
  });

  it('refuses an unknown or missing iss, and a non-string iss', async () => {
    await expect401(es256, es256.token('v3', { iss: 'P9999' }));
    await expect401(es256, es256.token('v3', { omit: ['iss'] }));
    await expect401(es256, es256.token('v3', { iss: 1001 }));
    await expect401(es256, es256.token('v3', { iss: es384.partnerId }), '/verify-token'); // es256 key under es384's id
  });

  it('refuses expired tokens, and tokens without exp', async () => {
    await expect401(es256, es256.token('v3', { iat: now() - 600, exp: now() - 120 }));
    await expect401(es256, es256.token('v3', { omit: ['exp'] }));
  });

  it('refuses iat older than 2 hours, iat in the future, and a missing iat; tolerates a small skew', async () => {
    await expect401(es256, es256.token('v3', { iat: now() - 7200 - 120, exp: now() + 60 }));
    await expect401(es256, es256.token('v3', { iat: now() + 300, exp: now() + 600 }));
    await expect401(es256, es256.token('v3', { omit: ['iat'] }));
    assert.equal((await es256.call('GET', '/verify-token', undefined, { token: es256.token('v3', { iat: now() - 7200 + 30, exp: now() + 60 }) })).status, 200);
    assert.equal((await es256.call('GET', '/verify-token', undefined, { token: es256.token('v3', { iat: now() + 20, exp: now() + 60 }) })).status, 200);
  });

  it('refuses exp more than 2 hours ahead', async () => {
    await expect401(es256, es256.token('v3', { exp: now() + 7200 + 300 }));
    assert.equal((await es256.call('GET', '/verify-token', undefined, { token: es256.token('v3', { exp: now() + 7200 }) })).status, 200);
  });

  it('requires aud to equal the base address that was called', async () => {
    await expect401(es256, es256.token('v3', { aud: sb.v3BaseUrl + '/' }));
    await expect401(es256, es256.token('v3', { aud: sb.origin }));
    await expect401(es256, es256.token('v3', { aud: 'https://api.example.com/api/v3' }));
    await expect401(es256, es256.token('v3', { aud: [sb.v3BaseUrl, 'x'] }));
    await expect401(es256, es256.token('v3', { omit: ['aud'] }));
    // v2: the audience is the origin ({legacy_base_url}); a v3 audience is refused there
    await expect401(es256, es256.token('v3'), '/v2/partners/partner1?rec=registrations');
    const ok = await es256.call('GET', '/v2/partners/partner1?rec=registrations', undefined, { token: es256.token('v2') });
    assert.equal(ok.status, 200);
  });

  it('takes aud from the address the client called (its Host), so localhost and 127.0.0.1 are different audiences', async () => {
    // Spec: Authentication, item 5 — aud is the base address of the environment, i.e. the one the client called.
    // The request goes to 127.0.0.1 with the Host header a client of http://localhost:<port> sends: no name lookup,
    // so the check runs on every machine (localhost may resolve to ::1, where the sandbox does not listen).
    const port = new URL(sb.origin).port;
    const viaLocalhost = (aud: string) => hostRequest(`${sb.v3BaseUrl}/verify-token`, `localhost:${port}`, es256.token('v3', { aud }));
    const accepted = await viaLocalhost(`http://localhost:${port}/api/v3`);
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal((JSON.parse(accepted.text) as { partner_id: string }).partner_id, es256.partnerId);
    const refused = await viaLocalhost(sb.v3BaseUrl);
    assert.equal(refused.status, 401, 'a 127.0.0.1 audience is not the localhost address that was called');
    assert.equal(refused.text, EXACT_401);
  });

  it('refuses an alg that does not match the key curve, alg none, and a wrong typ', async () => {
    await expect401(es256, mint(es256.key, { iss: es256.partnerId, aud: sb.v3BaseUrl, header: { alg: 'ES384' }, signAlg: 'ES384' }));
    await expect401(es384, mint(es384.key, { iss: es384.partnerId, aud: sb.v3BaseUrl, header: { alg: 'ES256' }, signAlg: 'ES256' }));
    await expect401(es256, mint(es256.key, { iss: es256.partnerId, aud: sb.v3BaseUrl, header: { alg: 'HS256' } }));
    const t = es256.token('v3').split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${t[1]}.`;
    await expect401(es256, none);
    await expect401(es256, mint(es256.key, { iss: es256.partnerId, aud: sb.v3BaseUrl, header: { typ: 'JOSE+JSON' } }));
  });

  it('refuses malformed tokens and headers, and a missing Authorization header', async () => {
    const good = es256.token('v3');
    const [h, p, s] = good.split('.') as [string, string, string];
    for (const bad of ['abc', 'a.b.c', `${h}.${p}`, `${h}.${p}.${s}x`, `${h}.${p}.${s.slice(0, -4)}`, `${h}.e30.${s}`, `${p}.${h}.${s}`, `!!!.${p}.${s}`]) await expect401(es256, bad);
    await expect401(es256, null);
    for (const header of [`Basic ${good}`, good, 'Bearer', `Bearer ${good} extra`, `bearer${good}`]) {
      const r = await request('GET', `${sb.v3BaseUrl}/verify-token`, { authorization: header });
      assert.equal(r.status, 401, header.slice(0, 12));
      assert.equal(r.text, EXACT_401);
    }
  });

  it('checks auth before anything else: 401 on a write with a bad token stores nothing', async () => {
    const bad = es256.token('v3', { exp: now() - 100, iat: now() - 200 });
    const r = await es256.call('POST', '/tire-protection/registrations', { invoiceNumber: 'NOAUTH' }, { token: bad });
    assert.equal(r.status, 401);
    const list = await es256.call('GET', '/tire-protection/registrations?invoiceNumber=NOAUTH');
    assert.equal(list.json.totalRecordCount, 0);
    await expect401(es256, bad, '/tire-protection/registrations?pageSize=oops');
  });

  it('a token reused for several requests is re-checked each time (expiry, key replacement)', async () => {
    let clock = Date.now();
    const started = await startWith({ ...(await backend.options()), now: () => clock });
    const [c] = started.clients as [Client];
    const t = Math.floor(clock / 1000);
    const token = c.token('v3', { iat: t, exp: t + 120 });
    for (let i = 0; i < 3; i++) assert.equal((await c.call('GET', '/verify-token', undefined, { token })).status, 200);
    assert.equal((await c.call('GET', '/v2/partners/partner1?rec=sales', undefined, { token })).status, 401, 'a cached v3 token is still refused on v2');
    try {
      clock += 200_000;
      await expect401(c, token);
      clock -= 200_000;
      const token2 = c.token('v3', { iat: t, exp: t + 120 });
      assert.equal((await c.call('GET', '/verify-token', undefined, { token: token2 })).status, 200);
      await started.sb.registerPartner(c.partnerId, newKey().spkiPem, 'partner1');
      await expect401(c, token2);
    } finally {
      await started.sb.close();
    }
  });

  it('registerPartner rejects keys that are not P-256/P-384/P-521 SPKI public keys', async () => {
    await assert.rejects(sb.registerPartner('X1', 'not a pem'), /SPKI PEM/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await assert.rejects(sb.registerPartner('X2', rsa), /ECDSA|rsa/);
    const k = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await assert.rejects(sb.registerPartner('X3', k), /curve/);
    await assert.rejects(sb.registerPartner('bad id', newKey().spkiPem), /Partner ID/);
  });

  it('a key registered later works at once; replacing a key revokes the old one', async () => {
    const k1 = newKey('ES256');
    await sb.registerPartner('LATE', k1.spkiPem);
    const c1 = new Client(sb, 'LATE', k1);
    assert.equal((await c1.call('GET', '/verify-token')).json.name, 'LATE');
    const k2 = newKey('ES512');
    await sb.registerPartner('LATE', k2.spkiPem);
    await expect401(c1, c1.token('v3'));
    assert.equal((await new Client(sb, 'LATE', k2).call('GET', '/verify-token')).status, 200);
  });
});
