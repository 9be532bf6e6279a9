import { strict as assert } from 'node:assert';
import { generateKeyPairSync } from 'node:crypto';
import { importPartnerKey } from '../../../src/core/jwt/partnerKey';

/** A partner's registered public key (spec: Authentication, items 2 and 4), as the Local sandbox and tpp proxy read it. */
describe('jwt: importPartnerKey', () => {
  const spki = (type: 'ec' | 'rsa', namedCurve?: string) =>
    (type === 'ec' ? generateKeyPairSync('ec', { namedCurve: namedCurve as string }) : generateKeyPairSync('rsa', { modulusLength: 1024 })).publicKey.export({ type: 'spki', format: 'pem' }).toString();

  for (const [curve, alg] of [['prime256v1', 'ES256'], ['secp384r1', 'ES384'], ['secp521r1', 'ES512']] as const) {
    it(`takes the algorithm from the curve: ${curve} is ${alg}`, async () => assert.equal((await importPartnerKey(spki('ec', curve))).alg, alg));
  }

  it('refuses another curve, an RSA key and text that is no key, each saying why', async () => {
    await assert.rejects(importPartnerKey(spki('ec', 'secp256k1')), /^Error: Unsupported curve secp256k1: use P-256, P-384 or P-521$/);
    await assert.rejects(importPartnerKey(spki('rsa')), /Not an ECDSA public key in SPKI PEM form \(a rsa key\)/);
    await assert.rejects(importPartnerKey('not a key'), /Not an ECDSA public key in SPKI PEM form/);
  });
});
