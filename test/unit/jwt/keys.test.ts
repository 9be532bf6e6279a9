import * as assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { CURVES } from '../../../src/core/jwt/algorithms';
import { fingerprintOf, generateKeyMaterial, importPrivateKeyPem, KeyError, publicKeyFromPem, publicKeyPem, shortFingerprint } from '../../../src/core/jwt/keys';
import { nodeKey, spkiSha256Hex } from './helpers';

const NAMED = { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1' } as const;

describe('jwt/keys: generate, import, fingerprint', () => {
  for (const curve of CURVES) {
    it(`generates a ${curve} key pair as PKCS#8 with the matching alg and an SPKI fingerprint`, async () => {
      const key = await generateKeyMaterial(curve, new Date('2026-01-02T03:04:05Z'));
      assert.equal(key.curve, curve);
      assert.equal(key.alg, { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[curve]);
      assert.match(key.pkcs8Pem, /^-----BEGIN PRIVATE KEY-----\n/);
      assert.equal(key.createdAt, '2026-01-02T03:04:05.000Z');
      const priv = createPrivateKey(key.pkcs8Pem);
      assert.equal(priv.asymmetricKeyDetails?.namedCurve, NAMED[curve]);
      assert.equal(key.fingerprint, spkiSha256Hex(createPublicKey(priv)));
      assert.match(publicKeyPem(key), /^-----BEGIN PUBLIC KEY-----\n/);
    });

    it(`imports a ${curve} PKCS#8 PEM and detects its curve`, () => {
      const k = nodeKey(curve);
      const imported = importPrivateKeyPem(k.pkcs8Pem);
      assert.equal(imported.curve, curve);
      assert.equal(imported.fingerprint, spkiSha256Hex(k.publicKey));
    });
  }

  it('defaults to P-256', async () => {
    assert.equal((await generateKeyMaterial()).curve, 'P-256');
  });

  it('accepts a SEC1 "EC PRIVATE KEY" and stores it as PKCS#8', () => {
    const k = nodeKey('P-256');
    const sec1 = k.privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    const imported = importPrivateKeyPem(sec1);
    assert.match(imported.pkcs8Pem, /BEGIN PRIVATE KEY/);
    assert.equal(imported.fingerprint, spkiSha256Hex(k.publicKey));
  });

  const rejects: [string, () => string, RegExp][] = [
    ['empty text', () => '  ', /empty/],
    ['text without PEM', () => 'hello', /No PEM block/],
    ['a public key', () => nodeKey('P-256').spkiPem, /public key, not a private key/],
    ['an RSA key', () => generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), /RSA key/],
    ['an Ed25519 key', () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), /ED25519 key/],
    ['a secp256k1 key', () => generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), /secp256k1.*only P-256/],
    ['an encrypted key', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'x' }).toString(), /encrypted/],
    ['a damaged PEM', () => nodeKey('P-256').pkcs8Pem.replace(/\n[A-Za-z0-9+/]{20}/, '\n!!!'), /could not be read/],
  ];
  for (const [what, make, message] of rejects) {
    it(`rejects ${what} with a specific message that does not echo the input`, () => {
      const text = make();
      assert.throws(() => importPrivateKeyPem(text), (err: unknown) => {
        assert.ok(err instanceof KeyError);
        assert.match(err.message, message);
        for (const line of text.split('\n').filter((l) => l.length > 16)) assert.ok(!err.message.includes(line), 'message quotes the key');
        return true;
      });
    });
  }

  it('reads a public key from SPKI or from a private key PEM, and computes the same fingerprint', () => {
    const k = nodeKey('P-384');
    assert.equal(publicKeyFromPem(k.spkiPem).curve, 'P-384');
    assert.equal(fingerprintOf(publicKeyFromPem(k.pkcs8Pem).key), fingerprintOf(k.spkiPem));
    assert.throws(() => publicKeyFromPem('nope'), KeyError);
  });

  it('shortens a fingerprint for display', () => {
    assert.equal(shortFingerprint('0123456789abcdef'.repeat(4)), 'SHA256 01234567…cdef');
  });
});
