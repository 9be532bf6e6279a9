import * as assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { maskSecrets } from '../../../src/core/log/mask';

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function realJwt(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const input = `${b64url({ alg: 'ES256', typ: 'JWT' })}.${b64url({ iss: '42', aud: 'http://127.0.0.1/api/v3', iat: 1, exp: 2 })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

describe('maskSecrets', () => {
  it('returns text without any secret-shaped word as it is, and still masks each kind written in any case', () => {
    const plain = JSON.stringify({ invoiceNumber: 'INV-1', customer: { name: 'Ava', email: 'ava@example.com' }, tires: [{ make: 'Michelin' }] });
    assert.equal(maskSecrets(plain), plain);
    assert.equal(maskSecrets('{"ACCESS_TOKEN":"abc"}'), '{"ACCESS_TOKEN":"[masked]"}');
    assert.equal(maskSecrets('{"clientSecret":"abc"}'), '{"clientSecret":"[masked]"}');
    assert.equal(maskSecrets('x-Password=abc'), 'x-Password=[masked]');
    assert.equal(maskSecrets('"PrivateKey": "abc"'), '"PrivateKey": "[masked]"');
    assert.equal(maskSecrets('proxy-Authorization: Basic'), 'proxy-Authorization: [masked]');
    assert.equal(maskSecrets('BEARER abc'), 'BEARER [masked]');
    assert.equal(maskSecrets(`sent ${realJwt()}`).endsWith('…[masked JWT]'), true);
    assert.equal(maskSecrets('-----BEGIN EC PRIVATE KEY-----\nabc\n-----END EC PRIVATE KEY-----'), '[masked private key]');
  });

  it('masks a JWT anywhere in a line, keeping only its first 10 characters', () => {
    const jwt = realJwt();
    const out = maskSecrets(`token was ${jwt} (sent)`);
    assert.ok(!out.includes(jwt.split('.')[1]!), out);
    assert.ok(!out.includes(jwt.split('.')[2]!), out);
    assert.match(out, /^token was eyJhbGciOi…\[masked JWT\] \(sent\)$/);
  });

  it('masks the credential of an Authorization: Bearer header', () => {
    assert.equal(maskSecrets('Authorization: Bearer abc.def-ghi'), 'Authorization: Bearer [masked]');
  });

  it('replaces a PEM private key block whole, even when cut off', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const body = pem.split('\n')[1]!;
    assert.equal(maskSecrets(`key:\n${pem}done`), 'key:\n[masked private key]\ndone');
    assert.ok(!maskSecrets(pem.slice(0, 80)).includes(body.slice(0, 20)));
  });

  it('masks values of secret-named properties in JSON and query strings', () => {
    assert.equal(maskSecrets('{"eligibilityToken":"s3cr3t","name":"x"}'), '{"eligibilityToken":"[masked]","name":"x"}');
    assert.equal(maskSecrets('GET /x?token=abc&vin=1'), 'GET /x?token=[masked]&vin=1');
  });

  it('handles long runs of letters in linear time (a 256 KB body would otherwise never finish)', function () {
    this.timeout(5000);
    const run = 'a'.repeat(256 * 1024);
    assert.equal(maskSecrets(run), run);
    const tokens = 'token'.repeat(50 * 1024);
    assert.equal(maskSecrets(tokens), tokens);
    assert.equal(maskSecrets(`${run} accessToken=abc`), `${run} accessToken=[masked]`);
  });

  it('leaves ordinary text alone', () => {
    const text = 'POST /api/v3/tire-protection/registrations 201 in 12 ms (invoiceNumber INV-1001)';
    assert.equal(maskSecrets(text), text);
  });
});
