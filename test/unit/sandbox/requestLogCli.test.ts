import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSandboxCommand } from '../../../src/cli/commands/sandbox';
import { Client, newKey } from './helpers';
import { eventually } from '../eventually';

/** `tpp sandbox --log json`: the base address, then one JSON object per answered request. */
describe('tpp sandbox --log json', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-sb-log-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints one parsable line per request after the base address, with the diagnosis of failures', async () => {
    const key = newKey();
    const pem = join(dir, 'p.pem');
    writeFileSync(pem, key.spkiPem);
    const out = { stdout: '', stderr: '' };
    const io = { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } };
    const stop = new AbortController();
    const running = runSandboxCommand(['--partner', `P9=${pem}`, '--log', 'json'], io, stop.signal);
    after(() => stop.abort());
    while (!out.stdout.includes('\n')) await new Promise((r) => setTimeout(r, 20));
    const v3 = out.stdout.split('\n')[0] as string;
    const origin = v3.replace('/api/v3', '');
    const c = new Client({ origin, v3BaseUrl: v3, v2BaseUrl: origin } as never, 'P9', key);
    assert.equal((await c.call('GET', '/verify-token')).status, 200);
    const t = Math.floor(Date.now() / 1000);
    assert.equal((await c.call('GET', '/verify-token', undefined, { token: c.token('v3', { iat: t * 1000 }) })).status, 401);
    assert.equal((await c.call('GET', '/verify-token', undefined, { token: c.token('v3', { aud: `${v3}/` }) })).status, 401);
    await eventually(() => out.stdout.trim().split('\n').length >= 4);
    stop.abort();
    assert.equal(await running, 0);

    const [base, ...lines] = out.stdout.trim().split('\n');
    assert.equal(base, v3);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(records.length, 3, out.stdout);
    for (const r of records) {
      for (const field of ['method', 'path', 'status', 'ms', 'partner', 'diagnosis']) assert.ok(field in r, `${field} in ${JSON.stringify(r)}`);
      assert.equal(r.method, 'GET');
      assert.equal(r.path, '/api/v3/verify-token');
      assert.equal(typeof r.ms, 'number');
      assert.equal(r.partner, 'P9');
    }
    assert.deepEqual(records.map((r) => r.status), [200, 401, 401]);
    assert.deepEqual(records[0]?.diagnosis, []);
    assert.deepEqual((records[1]?.diagnosis as { rule: string }[]).map((d) => d.rule), ['iat']);
    assert.deepEqual((records[2]?.diagnosis as { rule: string; message: string }[]).map((d) => d.rule), ['aud']);
    assert.match((records[2]?.diagnosis as { message: string }[])[0]?.message ?? '', /trailing slash/i);
    assert.deepEqual(Object.keys((records[2]?.diagnosis as object[])[0] ?? {}), ['rule', 'message']);
    assert.doesNotMatch(out.stdout, /eyJ/, 'no token on stdout');
  });

  it('refuses another --log value (exit 2 usage)', async () => {
    const io = { stdout: { write: () => true }, stderr: { write: () => true } };
    await assert.rejects(runSandboxCommand(['--log', 'xml'], io), (err: Error) => err.name === 'UsageError');
  });
});
