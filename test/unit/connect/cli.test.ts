import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyMaterial } from '../../../src/core/jwt/keys';
import { cli } from '../cli/cli.test';

/** `tpp connect --env local|sandbox|production …`: the same dotenv file as the editor's Connect Your Application…, for CI. */
describe('tpp connect', () => {
  let dir: string;
  let key: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-connect-cli-'));
    key = join(dir, 'app.pem');
    writeFileSync(key, (await generateKeyMaterial('P-256')).pkcs8Pem, { mode: 0o600 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('local: prints the dotenv for the Local sandbox on its port, and how to load it on standard error', async () => {
    const r = await cli('connect', '--env', 'local', '--partner-id', 'local-1a2b3c4d', '--key-file', key);
    assert.equal(r.code, 0, r.stderr);
    const vars = Object.fromEntries(r.stdout.split('\n').filter((l) => /^TPP_/.test(l)).map((l) => l.split('=') as [string, string]));
    assert.deepEqual(vars, { TPP_BASE_URL: 'http://127.0.0.1:28463/api/v3', TPP_V2_BASE_URL: 'http://127.0.0.1:28463', TPP_PARTNER_ID: 'local-1a2b3c4d', TPP_PRIVATE_KEY_FILE: key });
    assert.match(r.stderr, /node --env-file=/);
    assert.doesNotMatch(r.stdout + r.stderr, /PRIVATE KEY-----/, 'the key itself is never printed');
    const other = await cli('connect', '--env', 'local', '--port', '40001', '--partner-id', 'p', '--key-file', key);
    assert.match(other.stdout, /^TPP_BASE_URL=http:\/\/127\.0\.0\.1:40001\/api\/v3$/m);
  });

  it('sandbox: --out writes the file and never overwrites it without --force', async () => {
    const out = join(dir, 'tpp-sandbox.env');
    const args = ['connect', '--env', 'sandbox', '--base-url', 'https://partner.example/api/v3', '--partner-id', 'P-77', '--key-file', key, '--out', out];
    const r = await cli(...args);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Wrote .*tpp-sandbox\.env/);
    assert.match(readFileSync(out, 'utf8'), /^TPP_BASE_URL=https:\/\/partner\.example\/api\/v3$/m);
    writeFileSync(out, 'mine');
    const again = await cli(...args);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already exists: nothing was overwritten\. Choose another --out or add --force/);
    assert.equal(readFileSync(out, 'utf8'), 'mine');
    assert.equal((await cli(...args, '--force')).code, 0);
    assert.match(readFileSync(out, 'utf8'), /TPP_PARTNER_ID=P-77/);
  });

  it('bad input: each a specific message, exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--env', 'staging'], /--env must be local, sandbox, production \(got 'staging'\)/],
      [['--env', 'sandbox', '--partner-id', 'P', '--key-file', key], /--base-url is required \(or set TPP_BASE_URL\)/],
      [['--env', 'production', '--base-url', 'http://partner.example/api/v3', '--partner-id', 'P', '--key-file', key], /plain http is refused/],
      [['--env', 'sandbox', '--base-url', 'https://partner.example/api/v3/', '--partner-id', 'P', '--key-file', key], /ending in \/api\/v3 exactly/],
      [['--env', 'local', '--port', '70000', '--partner-id', 'P', '--key-file', key], /--port must be a port from 1 to 65535/],
      [['--env', 'sandbox', '--port', '1', '--base-url', 'https://p.example/api/v3', '--partner-id', 'P', '--key-file', key], /--port is for --env local only/],
      [['--env', 'local', '--partner-id', 'P', '--key-file', join(dir, 'missing.pem')], /--key-file .*missing\.pem: cannot read it \(ENOENT\)/],
      [['--env', 'local', '--partner-id', 'P', '--key-file', join(dir, 'tpp-sandbox.env')], /--key-file .*tpp-sandbox\.env: /],
    ];
    const saved = { ...process.env };
    for (const name of ['TPP_BASE_URL', 'TPP_V2_BASE_URL', 'TPP_PARTNER_ID', 'TPP_PRIVATE_KEY_FILE']) delete process.env[name];
    try {
      for (const [args, message] of cases) {
        const r = await cli('connect', ...args);
        assert.equal(r.code, 2, args.join(' '));
        assert.match(r.stderr, message, args.join(' '));
      }
    } finally {
      Object.assign(process.env, saved);
    }
  });
});
