import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedSandbox, type EmbeddedSandboxOptions, type SandboxStatus } from '../../../src/core/sandbox/embedded';
import { childOptions } from './childOptions';
import { Client, newKey, TestKey, tpRegistration } from './helpers';

/**
 * The Local sandbox as the editor runs it: its own child process (src/core/sandbox/child.ts), started lazily and
 * once, with the Local key registered under the Local Partner ID, data kept in the data directory, a 'crashed'
 * state with the reason when the process dies, a restart on the next use, and no request that can hang.
 */
describe('Local sandbox: child process (Local environment)', function () {
  this.timeout(60_000);
  let dir: string;
  const made: EmbeddedSandbox[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-embedded-'));
  });
  afterEach(async () => {
    for (const e of made.splice(0)) await e.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function make(key: () => TestKey | undefined, extra: Partial<EmbeddedSandboxOptions> = {}, states: SandboxStatus[] = []): EmbeddedSandbox {
    const e = new EmbeddedSandbox({
      ...childOptions(),
      partnerId: 'local-test1',
      dataDir: dir,
      publicKey: async () => key()?.spkiPem,
      onStateChange: (s) => states.push(s),
      ...extra,
    });
    made.push(e);
    return e;
  }
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  async function until(what: () => boolean, ms = 10_000): Promise<void> {
    const end = Date.now() + ms;
    while (!what()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it("gives its control token to the editor alone: with it /__tpp/ answers; without, a 401 naming this sandbox and both ways on", async () => {
    const e = make(() => newKey('ES256'), { dataDir: undefined });
    const info = await e.ensureStarted();
    assert.match(info.controlToken, /^[\w-]{32,}$/);
    const without = await fetch(`${info.origin}/__tpp/records?kind=registrations`);
    assert.equal(without.status, 401);
    const message = ((await without.json()) as { message: string }).message;
    assert.match(message, /Local sandbox of the Tire Protection Partner Toolkit in VS Code/);
    assert.match(message, /Copy Local Control Token/);
    assert.match(message, /tpp sandbox --port 0/);
    assert.ok(!message.includes(info.controlToken), 'the 401 never tells the token');
    const wrong = await fetch(`${info.origin}/__tpp/records?kind=registrations`, { headers: { authorization: 'Bearer not-the-token-but-long-enough' } });
    assert.match(((await wrong.json()) as { message: string }).message, /the one sent is not it/);
    const withToken = await fetch(`${info.origin}/__tpp/records?kind=registrations`, { headers: { authorization: `Bearer ${info.controlToken}` } });
    assert.equal(withToken.status, 200, await withToken.text());
  });

  it('starts lazily and once, in another process, on 127.0.0.1 at a free port, with the Local key registered', async () => {
    const k = newKey('ES256');
    const states: SandboxStatus[] = [];
    const e = make(() => k, {}, states);
    assert.deepEqual(e.status, { state: 'stopped' }, 'nothing started before first use');
    assert.equal(e.info, undefined);
    const [i1, i2] = await Promise.all([e.ensureStarted(), e.ensureStarted()]);
    assert.deepEqual(i1, i2);
    assert.deepEqual(states.map((s) => s.state), ['starting', 'running'], 'one process for both calls');
    const pid = e.status.pid as number;
    assert.ok(pid > 0 && pid !== process.pid && alive(pid), 'the server runs in a child process');
    assert.match(i1.v3BaseUrl, /^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    assert.equal(i1.partnerId, 'local-test1');
    const c = new Client(i1 as never, 'local-test1', k);
    assert.deepEqual((await c.call('GET', '/verify-token')).json, { partner_id: 'local-test1', name: 'local' });
    assert.equal((await c.call('GET', `/v2/partners/${i1.companyName}?rec=registrations`)).status, 200);
    await e.stop();
    assert.equal(e.status.state, 'stopped');
    assert.ok(!alive(pid), 'stop ends the process');
    await assert.rejects(e.ensureStarted(), /stopped/);
  });

  it('follows key changes (syncKey) and keeps data in the data directory across restarts', async () => {
    const ref: { k?: TestKey } = {};
    const e = make(() => ref.k);
    const info = await e.ensureStarted();
    await assert.rejects(e.loadSampleData(), /no key pair/);
    const k = newKey('ES384');
    ref.k = k;
    await e.syncKey();
    const c = new Client(info as never, 'local-test1', k);
    assert.equal((await c.call('GET', '/verify-token')).status, 200);
    const s = await e.loadSampleData(20);
    assert.ok(s.registrations >= 20);
    const k2 = newKey('ES256');
    await e.registerPublicKey(k2.spkiPem);
    assert.equal((await c.call('GET', '/verify-token')).status, 401, 'the old key no longer works');
    await assert.rejects(e.registerPublicKey('not a key'), (err: Error) => !/stopped|did not answer/.test(err.message), 'a bad key is the server\'s error');
    await e.stop();

    const again = make(() => k2);
    const info2 = await again.ensureStarted();
    const c2 = new Client(info2 as never, 'local-test1', k2);
    const list = await c2.call('GET', '/tire-protection/registrations?pageSize=1');
    assert.equal(list.json.totalRecordCount, s.registrations, 'data survived the restart');
  });

  it('after SIGKILL: crashed with the reason, then restarted on the next use (same port, same data)', async () => {
    const k = newKey('ES256');
    const states: SandboxStatus[] = [];
    const e = make(() => k, {}, states);
    const info = await e.ensureStarted();
    const c = new Client(info as never, 'local-test1', k);
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('KILL-1'))).status, 201);
    const pid = e.status.pid as number;
    process.kill(pid, 'SIGKILL');
    await until(() => e.status.state === 'crashed');
    assert.match(e.status.reason ?? '', /killed by SIGKILL/);
    assert.equal(e.info, undefined);
    const info2 = await e.ensureStarted();
    assert.equal(e.status.state, 'running');
    assert.notEqual(e.status.pid, pid, 'a new process');
    assert.equal(info2.origin, info.origin, 'the previous port, so the Local JWT aud does not change');
    assert.equal((await c.call('GET', '/verify-token')).status, 200, 'the key is registered again');
    assert.equal((await c.call('GET', '/tire-protection/registrations?invoiceNumber=KILL-1')).json.totalRecordCount, 1, 'the acknowledged create survived');
    assert.deepEqual(states.map((s) => s.state), ['starting', 'running', 'crashed', 'starting', 'running']);
  });

  it('a failed start is crashed with its error, and retried on the next use', async () => {
    let fail = true;
    const good = childOptions().serverModule;
    const e = new EmbeddedSandbox({
      ...childOptions(),
      get serverModule() {
        return fail ? join(dir, 'missing-server.js') : good;
      },
      partnerId: 'local-x',
      publicKey: async () => undefined,
    });
    made.push(e);
    await assert.rejects(e.ensureStarted(), /could not start: exited with code 1: .*Cannot find module/);
    assert.equal(e.status.state, 'crashed');
    fail = false;
    assert.match((await e.ensureStarted()).origin, /^http:\/\/127\.0\.0\.1:/);
  });

  it('a chosen port (tpp.local.port) is kept; taken by another program, the start fails naming it and never moves', async () => {
    const { createServer } = await import('node:net');
    const free = () => new Promise<number>((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
    let port = await free();
    const k = newKey('ES256');
    const e = make(() => k, { port: () => port });
    assert.equal((await e.ensureStarted()).origin, `http://127.0.0.1:${port}`, 'listens on the chosen port');

    const other = await free();
    port = other;
    assert.equal((await e.restart())?.origin, `http://127.0.0.1:${other}`, 'restart follows the new setting');
    await e.stop();

    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(other, '127.0.0.1', resolve));
    try {
      const states: SandboxStatus[] = [];
      const f = make(() => k, { port: () => other }, states);
      await assert.rejects(f.ensureStarted(), new RegExp(`could not start: port ${other} on 127\\.0\\.0\\.1 is in use by another program`));
      assert.equal(f.status.state, 'crashed');
      assert.equal(f.status.portInUse, other, 'the status names the taken port');
      assert.equal(f.info, undefined, 'no other port was taken instead');
    } finally {
      squatter.close();
    }
  });

  describe('no hang', () => {
    const fake = (mode: string) => ({ childModule: join(__dirname, 'fixtures/fake-child.ts'), serverModule: mode });

    it('a request the process never answers rejects after the time limit', async () => {
      const e = make(() => undefined, { ...fake('silent'), requestTimeoutMs: 300 });
      await e.ensureStarted();
      // The message names the limit its timer was set with: only that timer ends the call (the process never answers).
      await assert.rejects(e.registerPublicKey(newKey().spkiPem), /did not answer registerPartner within 0.3 s/);
    });

    it('a pending request rejects at once when the process dies, with the last error line as the reason', async () => {
      const e = make(() => undefined, { ...fake('silent'), requestTimeoutMs: 60_000 });
      await e.ensureStarted();
      const pending = e.registerPublicKey(newKey().spkiPem);
      process.kill(e.status.pid as number, 'SIGKILL');
      // Rejected because the process died (its reason), not by the minute's time limit, which would say "did not answer".
      await assert.rejects(pending, /stopped: killed by SIGKILL/);

      const d = make(() => undefined, fake('dies'));
      await d.ensureStarted();
      await assert.rejects(d.registerPublicKey(newKey().spkiPem), /exited with code 1: Error: ENOSPC: no space left on device/);
      assert.equal(d.status.state, 'crashed');
      assert.match(d.status.reason ?? '', /^exited with code 1: Error: ENOSPC/);
    });

    it('a process that never reports ready is killed after the start limit', async () => {
      const e = make(() => undefined, { ...fake('mute'), startTimeoutMs: 500 });
      await assert.rejects(e.ensureStarted(), /could not start: .*did not report ready within 0.5 s/);
      assert.equal(e.status.state, 'crashed');
    });
  });
});
