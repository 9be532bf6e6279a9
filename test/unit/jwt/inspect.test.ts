import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { CURVES } from '../../../src/core/jwt/algorithms';
import { CHECK_IDS, CheckId, inspectJwt, InspectOptions, JwtInspection, normalizeTokenInput } from '../../../src/core/jwt/inspect';
import { importPrivateKeyPem } from '../../../src/core/jwt/keys';
import { TokenMinter } from '../../../src/core/jwt/mint';
import { renderInspectionMarkdown, renderInspectionText } from '../../../src/core/jwt/report';
import { nodeKey, nodeToken, TestKey } from './helpers';

const NOW = 1_800_000_000;
const ISS = 'P-1234';
const AUD = 'https://sandbox.example.test/api/v3';
const P256 = nodeKey('P-256');
const good = (over: Record<string, unknown> = {}) => ({ iat: NOW - 5, iss: ISS, aud: AUD, exp: NOW + 295, ...over });
const header = (over: Record<string, unknown> = {}) => ({ alg: 'ES256', typ: 'JWT', ...over });
const opts = (key: TestKey = P256, over: Partial<InspectOptions> = {}): InspectOptions => ({ now: NOW, iss: ISS, aud: AUD, publicKey: key.spkiPem, ...over });

const failed = (r: JwtInspection) => r.checks.filter((c) => c.status === 'fail').map((c) => c.id);
const check = (r: JwtInspection, id: CheckId) => r.checks.find((c) => c.id === id)!;

/** Asserts that exactly one check failed: `id`, and that its explanation matches `detail`. */
function onlyFails(r: JwtInspection, id: CheckId, detail?: RegExp) {
  assert.deepEqual(failed(r), [id], JSON.stringify(r.checks, null, 1));
  assert.equal(r.ok, false);
  if (detail) assert.match(check(r, id).detail, detail);
}

describe('jwt/inspect: the checklist of spec section Authentication', () => {
  for (const curve of CURVES) {
    it(`accepts a ${curve} token made by Node crypto.sign: every check passes`, async () => {
      const k = nodeKey(curve);
      const r = await inspectJwt(nodeToken(k, header({ alg: k.alg }), good()), opts(k));
      assert.deepEqual(r.checks.map((c) => c.id), [...CHECK_IDS]);
      assert.deepEqual(r.checks.filter((c) => c.status !== 'pass'), []);
      assert.equal(r.ok, true);
      assert.equal(r.key?.curve, curve);
    });

    it(`accepts a ${curve} token minted by the toolkit at the real clock`, async () => {
      const k = nodeKey(curve);
      const token = await new TokenMinter().mint(importPrivateKeyPem(k.pkcs8Pem), { iss: ISS, aud: AUD });
      const r = await inspectJwt(token, { iss: ISS, aud: AUD, publicKey: k.spkiPem });
      assert.deepEqual(failed(r), []);
      assert.ok(r.checks.every((c) => c.status === 'pass'));
    });
  }

  it('skips (never fails) what it has nothing to compare with, and says why', async () => {
    const r = await inspectJwt(nodeToken(P256, header(), good()), { now: NOW, whyNoIss: 'pass --iss to check' });
    assert.equal(r.ok, true);
    assert.deepEqual(r.checks.filter((c) => c.status === 'skip').map((c) => c.id), ['algMatchesKey', 'iss', 'aud', 'signature']);
    assert.match(check(r, 'iss').detail, /pass --iss to check/);
  });

  describe('each broken rule fails exactly its own check', () => {
    it('format: two parts', async () => onlyFails(await inspectJwt('eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0', opts()), 'format', /2 parts/));
    it('format: standard base64 padding', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good()) + '==', opts()), 'format', /base64url/));
    it('format: header is not JSON', async () => {
      const t = nodeToken(P256, header(), good()).split('.');
      onlyFails(await inspectJwt(`${Buffer.from('not json').toString('base64url')}.${t[1]}.${t[2]}`, opts()), 'format', /header part does not decode/);
    });
    it('typ: missing', async () => onlyFails(await inspectJwt(nodeToken(P256, { alg: 'ES256' }, good()), opts()), 'typ', /no typ/));
    it('typ: lower case', async () => onlyFails(await inspectJwt(nodeToken(P256, header({ typ: 'jwt' }), good()), opts()), 'typ', /capitals/));
    it('alg: HS256', async () => {
      const input = `${Buffer.from(JSON.stringify(header({ alg: 'HS256' }))).toString('base64url')}.${Buffer.from(JSON.stringify(good())).toString('base64url')}`;
      const t = `${input}.${createHmac('sha256', 'k').update(input).digest('base64url')}`;
      onlyFails(await inspectJwt(t, opts()), 'alg', /only ECDSA/);
    });
    it('alg: none', async () => onlyFails(await inspectJwt(nodeToken(P256, header({ alg: 'none' }), good(), { hashAlg: 'ES256' }), opts()), 'alg', /unsigned/));
    it("alg does not match the key's curve", async () => {
      const p384 = nodeKey('P-384');
      onlyFails(await inspectJwt(nodeToken(p384, header({ alg: 'ES384' }), good()), opts(P256)), 'algMatchesKey', /needs a P-384 key.*P-256 \(use ES256\)/);
    });
    for (const claim of ['iat', 'iss', 'aud', 'exp']) {
      it(`claims: ${claim} missing`, async () => {
        const claims: Record<string, unknown> = good();
        delete claims[claim];
        onlyFails(await inspectJwt(nodeToken(P256, header(), claims), opts()), 'claimsPresent', new RegExp(`Missing ${claim}`));
      });
    }
    it('iat in the future beyond the 60 s skew', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ iat: NOW + 120 })), opts()), 'iatNotFuture', /2 min in the future/));
    it('iat 30 s in the future is within the skew', async () => assert.deepEqual(failed(await inspectJwt(nodeToken(P256, header(), good({ iat: NOW + 30 })), opts())), []));
    it('iat older than 2 hours', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ iat: NOW - 7201 })), opts()), 'iatRecent', /2 h ago \(7201 s/));
    it('exp in the past', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ exp: NOW - 180 })), opts()), 'expFuture', /Expired 3 min ago/));
    it('exp more than 2 hours ahead', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ exp: NOW + 7201 })), opts()), 'expWithinLimit', /7201 s.*at most 2 hours/));
    it('exp exactly 2 hours ahead passes', async () => assert.deepEqual(failed(await inspectJwt(nodeToken(P256, header(), good({ exp: NOW + 7200 })), opts())), []));
    it('iat in milliseconds', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ iat: (NOW - 5) * 1000 })), opts()), 'seconds', /iat .* milliseconds/));
    it('exp in milliseconds', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ exp: (NOW + 300) * 1000 })), opts()), 'seconds', /exp .* milliseconds/));
    it('iat as a string', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ iat: String(NOW) })), opts()), 'seconds', /iat is a string/));
    it('iss is not the Partner ID', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ iss: 'P-9999' })), opts()), 'iss', /"P-9999".*"P-1234"/));
    it('iss as a number', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ iss: 1234 })), opts(P256, { iss: '1234' })), 'iss', /as a string/));
    it('aud with a trailing slash', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ aud: `${AUD}/` })), opts()), 'aud', /trailing slash/));
    it('aud compared with an expected address that has a trailing slash', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good()), opts(P256, { aud: `${AUD}/` })), 'aud', /expected address has a trailing slash/));
    it('aud without /api/v3', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ aud: 'https://sandbox.example.test' })), opts()), 'aud', /add \/api\/v3/));
    it('aud of another environment', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ aud: 'https://api.example.test/api/v3' })), opts()), 'aud', /different host/));
    it('aud as an array', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good({ aud: [AUD] })), opts()), 'aud', /array/));
    it('signature made with another key', async () => onlyFails(await inspectJwt(nodeToken(nodeKey('P-256'), header(), good()), opts()), 'signature', /Does not verify/));
    it('signature DER-encoded instead of raw r||s', async () => onlyFails(await inspectJwt(nodeToken(P256, header(), good(), { der: true }), opts()), 'signature', /DER-encoded/));
    it('claims changed after signing', async () => {
      const [h, , s] = nodeToken(P256, header(), good()).split('.');
      const p = Buffer.from(JSON.stringify(good({ iss: ISS, extra: 1 }))).toString('base64url');
      onlyFails(await inspectJwt(`${h}.${p}.${s}`, opts()), 'signature', /Does not verify/);
    });
  });

  it('reads a token pasted with a Bearer prefix or quotes', async () => {
    const t = nodeToken(P256, header(), good());
    assert.equal(normalizeTokenInput(`  Authorization: Bearer ${t}\n`), t);
    assert.equal(normalizeTokenInput(`"${t}"`), t);
    assert.equal((await inspectJwt(`Bearer ${t}`, opts())).ok, true);
  });

  it('reports an unusable public key on the signature check instead of throwing', async () => {
    const r = await inspectJwt(nodeToken(P256, header(), good()), opts(P256, { publicKey: 'garbage' }));
    assert.equal(check(r, 'signature').status, 'skip');
    assert.match(check(r, 'signature').detail, /could not be used/);
  });
});

describe('jwt/report: preview rendering is text, never markup', () => {
  const evil = '<img src=x onerror=alert(1)>';
  it('shows a claim holding HTML as those characters, inside a code fence that the value cannot close', async () => {
    const r = await inspectJwt(nodeToken(P256, header(), good({ iss: evil, note: '```\n# not a heading' })), opts());
    const md = renderInspectionMarkdown(r, { source: 'a test', token: 'eyJabc.def.ghi', environment: 'Sandbox', iss: ISS, aud: AUD });
    assert.ok(md.includes(evil), 'the characters appear verbatim');
    // CommonMark fences: a block opened by N backticks closes only at a line of at least N backticks
    let open = 0;
    for (const line of md.split('\n')) {
      const fence = /^(`{3,})\s*$|^(`{3,})\w+$/.exec(line);
      const len = fence ? (fence[1] ?? fence[2])!.length : 0;
      if (!open && len) open = len;
      else if (open && fence?.[1] && len >= open) open = 0;
      else if (line.includes('<img') || line.includes('# not a heading')) assert.ok(open > 0, `outside a code block: ${line}`);
    }
    assert.equal(open, 0, 'every block is closed');
    assert.ok(!md.includes('eyJabc.def.ghi'), 'the token itself is not shown');
  });

  it('prints header, claims, dates and the checklist as plain text for the CLI', async () => {
    const r = await inspectJwt(nodeToken(P256, header(), good({ exp: NOW + 240 })), opts());
    const text = renderInspectionText(r);
    assert.match(text, /exp +1800000240 +2027-01-15T08:04:00Z \(expires in 4 min\)/);
    assert.match(text, /✔ pass {2}typ is JWT/);
    assert.match(text, /All 13 checks pass/);
  });
});
