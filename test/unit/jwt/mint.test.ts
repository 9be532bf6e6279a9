import * as assert from 'node:assert/strict';
import { CURVES } from '../../../src/core/jwt/algorithms';
import { generateKeyMaterial, importPrivateKeyPem } from '../../../src/core/jwt/keys';
import { effectiveLifetime, MintError, TokenMinter } from '../../../src/core/jwt/mint';
import { decodePart, nodeKey, nodeVerify } from './helpers';

const AUD = 'https://sandbox.example.test/api/v3';

describe('jwt/mint: tokens verify with an independent implementation', () => {
  for (const curve of CURVES) {
    it(`${curve}: header exactly {alg, typ}, claims iat/iss/aud/exp in seconds, verified by Node crypto.verify`, async () => {
      const k = nodeKey(curve);
      const key = importPrivateKeyPem(k.pkcs8Pem);
      const before = Math.floor(Date.now() / 1000);
      const token = await new TokenMinter().mint(key, { iss: 'P-42', aud: AUD });
      const after = Math.floor(Date.now() / 1000);
      assert.ok(nodeVerify(token, k.publicKey), 'Node crypto.verify accepts the signature');
      assert.deepEqual(decodePart(token, 0), { alg: k.alg, typ: 'JWT' });
      const claims = decodePart(token, 1);
      assert.deepEqual(Object.keys(claims).sort(), ['aud', 'exp', 'iat', 'iss']);
      assert.equal(claims.iss, 'P-42');
      assert.equal(claims.aud, AUD);
      const iat = claims.iat as number;
      assert.ok(Number.isInteger(iat) && iat >= before && iat <= after, `iat ${iat} is now in seconds`);
      assert.equal(claims.exp, iat + 300);
    });
  }

  it('a tampered token no longer verifies (the independent check can fail)', async () => {
    const k = nodeKey('P-256');
    const token = await new TokenMinter().mint(importPrivateKeyPem(k.pkcs8Pem), { iss: 'P-42', aud: AUD });
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ iss: 'P-43', aud: AUD, iat: 1, exp: 2 })).toString('base64url')}.${s}`;
    assert.equal(nodeVerify(forged, k.publicKey), false);
  });

  it('uses a fixed now and the lifetime; caps the lifetime at 7200 s', async () => {
    const key = await generateKeyMaterial('P-256');
    const m = new TokenMinter();
    const t1 = decodePart(await m.mint(key, { iss: 'x', aud: AUD, now: 1_800_000_000, lifetimeSeconds: 60 }), 1);
    assert.deepEqual([t1.iat, t1.exp], [1_800_000_000, 1_800_000_060]);
    const t2 = decodePart(await m.mint(key, { iss: 'x', aud: AUD, now: 1_800_000_000, lifetimeSeconds: 99_999 }), 1);
    assert.equal(t2.exp, 1_800_000_000 + 7200);
    assert.equal(effectiveLifetime(undefined), 300);
    assert.throws(() => effectiveLifetime(0), MintError);
    assert.throws(() => effectiveLifetime(Number.NaN), MintError);
  });

  it('mints a fresh token per call and imports the key only once', async () => {
    const key = await generateKeyMaterial('P-256');
    const m = new TokenMinter();
    const a = await m.mint(key, { iss: 'x', aud: AUD });
    const b = await m.mint(key, { iss: 'x', aud: AUD });
    assert.notEqual(a, b, 'ECDSA signatures are randomised: every token differs');
    assert.equal(m.cachedKeyCount, 1);
    m.forget(key.pkcs8Pem);
    assert.equal(m.cachedKeyCount, 0);
  });

  it('refuses an empty iss, a non-URL aud, and a key that does not fit its alg', async () => {
    const key = await generateKeyMaterial('P-256');
    const m = new TokenMinter();
    await assert.rejects(m.mint(key, { iss: ' ', aud: AUD }), /Partner ID/);
    await assert.rejects(m.mint(key, { iss: 'x', aud: 'sandbox/api/v3' }), /absolute http\(s\) address/);
    await assert.rejects(m.mint({ ...key, alg: 'ES384' }, { iss: 'x', aud: AUD }), (err: Error) => {
      assert.match(err.message, /could not be imported for ES384/);
      assert.ok(!err.message.includes('PRIVATE KEY'));
      return true;
    });
  });
});
