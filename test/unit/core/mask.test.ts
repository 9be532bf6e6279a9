import * as assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { maskAuthorization, maskHeaderValue, maskSecrets } from '../../../src/core/log/mask';

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

describe('secret masking, table of cases from the security review', () => {
  const jwt = realJwt();
  // A JWT whose header JSON starts with a space: its base64url starts `eyAi`, not `eyJ`.
  const spacedJwt = `${Buffer.from('{ "alg": "ES256", "typ": "JWT" }').toString('base64url')}.${b64url({ iss: '42' })}.c2lnbmF0dXJl`;
  const cases: [string, string, string][] = [
    ['a quoted password with a space', '{"password":"hunter two","n":1}', '{"password":"[masked]","n":1}'],
    ['a quoted secret with an escaped quote', '{"clientSecret":"a \\"b\\" c"}', '{"clientSecret":"[masked]"}'],
    ['Authorization: Basic in free text', 'Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic [masked]'],
    ['Authorization: Token in free text', 'authorization=Token abc123', 'authorization=Token [masked]'],
    ['Authorization with a token and no scheme', `Authorization: ${jwt}`, 'Authorization: [masked]'],
    ['a JWT whose header does not start with eyJ', `got ${spacedJwt} back`, `got ${spacedJwt.slice(0, 10)}…[masked JWT] back`],
    ['an x-api-key in free text', 'x-api-key: k-123-456', 'x-api-key: [masked]'],
    ['an api_key in a query', '/v?api_key=k-1&vin=2', '/v?api_key=[masked]&vin=2'],
    ['a host name that looks like a token start', 'https://eyeglass.example.com/a.b', 'https://eyeglass.example.com/a.b'],
    ['an already masked value', '{"password":"[masked]"}', '{"password":"[masked]"}'],
  ];
  for (const [what, input, expected] of cases) {
    it(`masks ${what}`, () => assert.equal(maskSecrets(input), expected));
  }

  it('masks a whole Authorization value unless its first word is a known scheme', () => {
    assert.equal(maskAuthorization(`Bearer ${jwt}`), 'Bearer [masked]');
    assert.equal(maskAuthorization('basic dXNlcjpwYXNz'), 'basic [masked]');
    assert.equal(maskAuthorization('Token abc'), 'Token [masked]');
    // The mistake the Integration Log explains: the token sent without "Bearer" is the first word itself.
    assert.equal(maskAuthorization(jwt), '[masked]');
    assert.equal(maskAuthorization(`${jwt} [masked]`), '[masked]');
    assert.equal(maskAuthorization('opaque-eligibility-token-123'), '[masked]');
    assert.equal(maskAuthorization('Custom abc'), '[masked]');
    assert.equal(maskAuthorization('Bearer'), 'Bearer');
    assert.equal(maskAuthorization(''), '');
    // Idempotent: what it produced is recognised as masked.
    for (const v of ['Bearer [masked]', '[masked]', 'Basic [masked]']) assert.equal(maskAuthorization(v), v);
  });

  it('masks credential headers by name and leaves a 401 challenge readable', () => {
    assert.equal(maskHeaderValue('x-api-key', 'k-1'), '[masked]');
    assert.equal(maskHeaderValue('X-Auth-Token', 'abc'), '[masked]');
    assert.equal(maskHeaderValue('x-amz-security-token', 'abc'), '[masked]');
    assert.equal(maskHeaderValue('cookie', 'a=b'), '[masked]');
    assert.equal(maskHeaderValue('authorization', jwt), '[masked]');
    assert.equal(maskHeaderValue('www-authenticate', 'Bearer error="invalid_token"'), 'Bearer error="invalid_token"');
    assert.equal(maskHeaderValue('content-type', 'application/json'), 'application/json');
  });
});
