import { strict as assert } from 'node:assert';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startSandbox } from '../../../src/core/sandbox/server';
import { EmbeddedSandbox } from '../../../src/core/sandbox/embedded';
import { childOptions } from './childOptions';
import { Client, claim, newKey, startWith, tpRegistration, track } from './helpers';

/**
 * Storage of the Local sandbox (docs/sandbox.md, Storage): every acknowledged write survives kill -9; the data
 * directory is locked, migrated, refused (untouched) when its schema version is unknown; a directory of the earlier
 * journal format is imported once and kept aside.
 */
describe('Local sandbox: storage and durability', function () {
  this.timeout(120_000);
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-sandbox-'));
  });
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts `tpp sandbox` as a child process (via tsx) and resolves with it and its v3 base address. */
  function startChild(args: string[]): Promise<{ child: ChildProcess; v3: string }> {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'test/unit/sandbox/fixtures/run-sandbox.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve, reject) => {
      const rl = createInterface({ input: child.stdout! });
      rl.once('line', (line) => resolve({ child, v3: line.trim() }));
      child.once('exit', (code) => reject(new Error(`sandbox exited early (${code}): ${stderr}`)));
    });
  }
  const clientOf = (v3: string, id: string, key: ReturnType<typeof newKey>) => {
    const origin = v3.replace(/\/api\/v3$/, '');
    return new Client({ origin, v3BaseUrl: v3, v2BaseUrl: origin } as never, id, key);
  };
  const exited = (c: ChildProcess) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(undefined) : c.once('exit', r)));

  it('keeps every acknowledged write across repeated real kill -9 of the process, and exits cleanly on SIGTERM', async () => {
    const key = newKey('ES256');
    const pem = join(dir, 'p.pem');
    writeFileSync(pem, key.spkiPem);
    const args = ['--data-dir', join(dir, 'data'), '--partner', `P1=${pem}`];
    const acked: { id: string; inv: string }[] = [];
    let claimed: string | undefined;
    let sent = 0;
    for (let run = 0; run < 3; run++) {
      const proc = await startChild(args);
      const c = clientOf(proc.v3, 'P1', key);
      const target = acked.length + 60;
      let killed = false;
      // 6 concurrent writers; kill -9 once 60 more writes were acknowledged, with more in flight.
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          while (!killed) {
            const inv = `K-${sent++}`;
            try {
              const r = await c.call('POST', '/tire-protection/registrations', tpRegistration(inv, 2));
              if (r.status === 201) acked.push({ id: r.json.id, inv });
              if (!claimed && r.status === 201) {
                const cl = await c.call('POST', `/tire-protection/registrations/${r.json.id}/claims`, claim(1));
                if (cl.status === 201) claimed = r.json.id;
              }
            } catch {
              // connection reset by the kill: not acknowledged
            }
            if (acked.length >= target && !killed) {
              killed = true;
              proc.child.kill('SIGKILL');
            }
          }
        }),
      );
      await exited(proc.child);
      assert.equal(proc.child.signalCode, 'SIGKILL');
    }
    const last = await startChild(args);
    const c2 = clientOf(last.v3, 'P1', key);
    const list = await c2.call('GET', '/tire-protection/registrations?pageSize=1000');
    assert.equal(list.status, 200);
    const ids = new Set((list.json.results as { _id: string }[]).map((r) => r._id));
    const lost = acked.filter((a) => !ids.has(a.id));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged writes were lost`);
    assert.ok(claimed);
    const m = await c2.call('GET', `/tire-protection/registrations/${claimed}/metadata`);
    assert.deepEqual([m.json.claimedTiresCount, m.json.availableTiresCount], [1, 1]);
    const after = await c2.call('POST', '/tire-protection/registrations', tpRegistration('AFTER-RESTART'));
    assert.equal(after.status, 201);
    assert.ok(!ids.has(after.json.id));
    const exit = new Promise<number | null>((r) => last.child.once('exit', (code) => r(code)));
    last.child.kill('SIGTERM');
    assert.equal(await exit, 0, 'clean exit on SIGTERM');
  });

  it('keeps records, partners and keys across a clean restart', async () => {
    const { sb, clients } = await startWith({ dataDir: dir });
    const c = clients[0] as Client;
    for (let i = 0; i < 7; i++) assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration(`R-${i}`))).status, 201);
    const id = (await c.call('GET', '/tire-protection/registrations?invoiceNumber=R-6')).json.results[0]._id as string;
    assert.equal((await c.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() })).status, 204);
    await sb.close();
    const sb2 = track(await startSandbox({ dataDir: dir }));
    const c2 = new Client(sb2, 'P1001', c.key); // the partner key was stored too
    assert.equal((await c2.call('GET', '/tire-protection/registrations')).json.totalRecordCount, 7);
    assert.equal((await c2.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() })).status, 409);
    await sb2.close();
  });

  it('refuses a data directory in use by a running sandbox; a second embedded Local falls back to memory', async () => {
    const { sb, clients } = await startWith({ dataDir: dir });
    await assert.rejects(startSandbox({ dataDir: dir }), (err: Error) => err.name === 'DataDirInUse' && err.message.includes(dir));
    const lines: string[] = [];
    const e = new EmbeddedSandbox({ ...childOptions(), partnerId: 'P1001', dataDir: dir, publicKey: async () => (clients[0] as Client).key.spkiPem, log: (l) => lines.push(l) });
    try {
      const info = await e.ensureStarted();
      assert.ok(lines.some((l) => /keeps its data in memory/.test(l)));
      const c = new Client(info as never, 'P1001', (clients[0] as Client).key);
      assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('MEM-1'))).status, 201);
    } finally {
      await e.stop();
    }
    await sb.close();
    // released on close: it opens again
    await track(await startSandbox({ dataDir: dir })).close();
  });

  it('refuses, without changing it, a data directory of a newer schema version, naming the directory and the version', async () => {
    await track(await startSandbox({ dataDir: dir })).close();
    // what a newer toolkit leaves behind: its schema version, recorded beside the database
    writeFileSync(join(dir, 'schema-version'), '99\n');
    const before = snapshotOf(dir);
    await assert.rejects(startSandbox({ dataDir: dir }), (err: Error) => err.name === 'SandboxDataError' && err.message.includes(dir) && /schema version 99/.test(err.message));
    assert.deepEqual(snapshotOf(dir), before, 'the data directory is unchanged');
  });

  it('answers a corrupt data directory at start with a message that names it and says what to do', async () => {
    await track(await startSandbox({ dataDir: dir })).close();
    writeFileSync(join(dir, 'pgdata', 'global', 'pg_control'), Buffer.alloc(8192, 0x5a));
    await assert.rejects(startSandbox({ dataDir: dir }), (err: Error) => err.name === 'SandboxDataError' && err.message.includes(dir) && /move it aside/.test(err.message));
    assert.ok(readdirSync(join(dir, 'pgdata')).length > 0, 'nothing was deleted');
  });
});

/** Names and sizes of every file under `dir` (to prove a directory was left unchanged). */
function snapshotOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const bytes = readFileSync(p);
        out.push(`${p} ${bytes.length} ${bytes.toString('base64').slice(0, 64)}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}
