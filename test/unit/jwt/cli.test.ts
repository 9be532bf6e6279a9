import * as assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { decodePart, nodeKey, nodeToken, nodeVerify } from './helpers';

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: { write: (c: string) => (stdout += c) }, stderr: { write: (c: string) => (stderr += c) } });
  return { code, stdout, stderr };
}

const AUD = 'https://sandbox.example.test/api/v3';

describe('CLI: tpp keygen and tpp jwt', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-jwt-cli-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const curve of ['P-256', 'P-384', 'P-521']) {
    it(`keygen --curve ${curve} writes a 0600 PKCS#8 private key and an SPKI public key, and never prints the private key`, async () => {
      const prefix = join(dir, 'partner');
      const r = await run('keygen', '--curve', curve, '--out', prefix);
      assert.equal(r.code, 0, r.stderr);
      const priv = readFileSync(`${prefix}.pem`, 'utf8');
      assert.match(priv, /^-----BEGIN PRIVATE KEY-----/);
      assert.equal(statSync(`${prefix}.pem`).mode & 0o777, 0o600);
      const pub = readFileSync(`${prefix}.pub.pem`, 'utf8');
      assert.match(pub, /^-----BEGIN PUBLIC KEY-----/);
      assert.equal(createPublicKey(createPrivateKey(priv)).export({ type: 'spki', format: 'pem' }), pub);
      assert.ok(!r.stdout.includes(priv.split('\n')[1]!), 'private key bytes not printed');
      assert.match(r.stdout, new RegExp(`Curve ${curve}`));
    });
  }

  it('keygen refuses to overwrite, and reports usage errors with exit 2', async () => {
    const prefix = join(dir, 'k');
    assert.equal((await run('keygen', '--out', prefix)).code, 0);
    const again = await run('keygen', '--out', prefix);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already exists/);
    assert.equal((await run('keygen', '--out', prefix, '--force')).code, 0);
    assert.equal((await run('keygen', '--curve', 'secp256k1', '--out', prefix)).code, 2);
    assert.equal((await run('keygen')).code, 2);
    assert.equal((await run('keygen', '--bogus')).code, 2);
  });

  it('jwt mint prints one token that Node crypto.verify accepts, with the given lifetime', async () => {
    const k = nodeKey('P-384');
    writeFileSync(join(dir, 'k.pem'), k.pkcs8Pem);
    const r = await run('jwt', 'mint', '--key', join(dir, 'k.pem'), '--iss', 'P-7', '--aud', AUD, '--lifetime', '120');
    assert.equal(r.code, 0, r.stderr);
    const token = r.stdout.trim();
    assert.equal(r.stdout.split('\n').length, 2, 'one line');
    assert.ok(nodeVerify(token, k.publicKey));
    const claims = decodePart(token, 1);
    assert.equal((claims.exp as number) - (claims.iat as number), 120);
    assert.deepEqual(decodePart(token, 0), { alg: 'ES384', typ: 'JWT' });
  });

  it('jwt mint --iat sets the issued-at instant in seconds (exp follows it); milliseconds or a word are refused', async () => {
    const k = nodeKey('P-256');
    writeFileSync(join(dir, 'k.pem'), k.pkcs8Pem);
    const r = await run('jwt', 'mint', '--key', join(dir, 'k.pem'), '--iss', 'P-7', '--aud', AUD, '--iat', '1700000000', '--lifetime', '60');
    assert.equal(r.code, 0, r.stderr);
    const claims = decodePart(r.stdout.trim(), 1);
    assert.deepEqual([claims.iat, claims.exp], [1_700_000_000, 1_700_000_060]);
    for (const bad of ['1700000000000000', '12e3', 'now', '1.5']) {
      const refused = await run('jwt', 'mint', '--key', join(dir, 'k.pem'), '--iss', 'P-7', '--aud', AUD, '--iat', bad);
      assert.equal(refused.code, 2, bad);
      assert.match(refused.stderr, /--iat must be a whole number of seconds/, bad);
    }
  });

  it('jwt mint: usage and key errors exit 2 without echoing the key', async () => {
    writeFileSync(join(dir, 'pub.pem'), nodeKey('P-256').spkiPem);
    assert.equal((await run('jwt', 'mint', '--iss', 'x', '--aud', AUD)).code, 2);
    assert.equal((await run('jwt', 'mint', '--key', join(dir, 'missing.pem'), '--iss', 'x', '--aud', AUD)).code, 2);
    const pub = await run('jwt', 'mint', '--key', join(dir, 'pub.pem'), '--iss', 'x', '--aud', AUD);
    assert.equal(pub.code, 2);
    assert.match(pub.stderr, /not a private key/);
    const long = await run('jwt', 'mint', '--key', join(dir, 'pub.pem'), '--iss', 'x', '--aud', AUD, '--lifetime', '7201');
    assert.equal(long.code, 2);
    assert.match(long.stderr, /at most 2 hours/);
    assert.equal((await run('jwt')).code, 2);
    assert.equal((await run('jwt', 'sign')).code, 2);
  });

  it('jwt inspect exits 0 when all checks pass, 1 when one fails, 2 on usage errors; --format json', async () => {
    const k = nodeKey('P-256');
    writeFileSync(join(dir, 'k.pub.pem'), k.spkiPem);
    const now = Math.floor(Date.now() / 1000);
    const token = nodeToken(k, { alg: 'ES256', typ: 'JWT' }, { iat: now, iss: 'P-7', aud: AUD, exp: now + 300 });
    const ok = await run('jwt', 'inspect', token, '--iss', 'P-7', '--aud', AUD, '--key', join(dir, 'k.pub.pem'));
    assert.equal(ok.code, 0, ok.stdout);
    assert.match(ok.stdout, /All 13 checks pass/);
    const bad = await run('jwt', 'inspect', token, '--iss', 'P-7', '--aud', `${AUD}/`, '--format', 'json');
    assert.equal(bad.code, 1);
    const json = JSON.parse(bad.stdout) as { ok: boolean; checks: { id: string; status: string; detail: string }[] };
    assert.equal(json.ok, false);
    assert.deepEqual(json.checks.filter((c) => c.status === 'fail').map((c) => c.id), ['aud']);
    assert.equal((await run('jwt', 'inspect')).code, 2);
    assert.equal((await run('jwt', 'inspect', token, '--format', 'xml')).code, 2);
    assert.equal((await run('jwt', 'inspect', token, '--key', join(dir, 'nope.pem'))).code, 2);
    assert.equal((await run('jwt', 'inspect', 'not-a-token')).code, 1);
  });
});
