import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProxyCommand } from '../../../src/cli/commands/proxy';
import { startWith } from '../sandbox/helpers';
import { eventually } from '../eventually';

/** `tpp proxy`: the base address, one JSON object per exchange, and a specific message per bad input. */
describe('tpp proxy (command line)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-proxy-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const capture = () => {
    const out = { stdout: '', stderr: '' };
    const io = { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } };
    return { out, io };
  };

  it('--log json: the proxy address first, then one line per exchange with environment, kind and diagnosis', async () => {
    const { sb, clients } = await startWith({});
    const c = clients[0] as (typeof clients)[0];
    const pem = join(dir, 'p.pem');
    writeFileSync(pem, c.key.spkiPem);
    const { out, io } = capture();
    const stop = new AbortController();
    const running = runProxyCommand(['--target', sb.v3BaseUrl, '--partner', `P1001=${pem}`, '--env', 'production', '--log', 'json'], io, stop.signal);
    try {
      while (!out.stdout.includes('\n')) await new Promise((r) => setTimeout(r, 20));
      const base = out.stdout.split('\n')[0] as string;
      const t = Math.floor(Date.now() / 1000);
      const ok = await fetch(`${base}/verify-token`, { headers: { authorization: `Bearer ${c.token('v3')}` } });
      assert.equal(ok.status, 200);
      const bad = await fetch(`${base}/verify-token`, { headers: { authorization: `Bearer ${c.token('v3', { iat: t * 1000 })}` } });
      assert.equal(bad.status, 401);
      await eventually(() => out.stdout.trim().split('\n').length >= 3);
    } finally {
      stop.abort();
      assert.equal(await running, 0);
      await sb.close();
    }
    const [, ...lines] = out.stdout.trim().split('\n');
    const records = lines.map((l) => JSON.parse(l) as { environment: string; kind: string; status: number; diagnosis: { rule: string }[] });
    assert.deepEqual(records.map((r) => [r.environment, r.kind, r.status]), [['production', 'request', 200], ['production', 'request', 401]]);
    assert.deepEqual(records[1]?.diagnosis.map((d) => d.rule), ['iat']);
    assert.match(out.stderr, /PRODUCTION/);
    assert.match(out.stderr, /\[PRODUCTION\] GET \/api\/v3\/verify-token 401 .*\(iat\) iat is in milliseconds/);
    assert.doesNotMatch(out.stdout + out.stderr, /eyJ/, 'no token printed');
  });

  it('bad input: each gets its own message', async () => {
    const { out, io } = capture();
    await assert.rejects(runProxyCommand([], io), /--target is required/);
    await assert.rejects(runProxyCommand(['--target', 'https://x/api/v3', '--env', 'staging'], io), /--env must be sandbox or production/);
    assert.equal(await runProxyCommand(['--target', 'http://sandbox.example.com/api/v3'], io), 2);
    assert.match(out.stderr, /cannot start: --target must be an https:\/\/ address/);
    assert.equal(await runProxyCommand(['--target', 'https://x/api/v3', '--host', '0.0.0.0'], io), 2);
    assert.match(out.stderr, /loopback only/);
  });
});
