import { strict as assert } from 'node:assert';
import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startSandbox } from '../../../src/core/sandbox/server';
import { EmbeddedSandbox } from '../../../src/core/sandbox/embedded';
import { DurableLog } from '../../../src/core/sandbox/persistence';
import { childOptions } from './childOptions';
import { Client, claim, newKey, startWith, tpRegistration, track } from './helpers';

/** Persistence: every acknowledged write survives kill -9 and a restart; a torn journal line is ignored. */
describe('Local sandbox: durability', function () {
  this.timeout(60_000);
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

  it('keeps every acknowledged write across a real kill -9 of the process, and exits cleanly on SIGTERM', async () => {
    const key = newKey('ES256');
    const pem = join(dir, 'p.pem');
    writeFileSync(pem, key.spkiPem);
    const data = join(dir, 'data');
    const args = ['--data-dir', data, '--partner', `P1=${pem}`, '--snapshot-every', '40'];
    const first = await startChild(args);
    const origin = first.v3.replace(/\/api\/v3$/, '');
    const sb = { origin, v3BaseUrl: first.v3, v2BaseUrl: origin } as never;
    const c = new Client(sb, 'P1', key);
    const acked: { id: string; inv: string }[] = [];
    let claimed: string | undefined;
    let sent = 0;
    let killed = false;
    // 6 concurrent writers; kill -9 once 100 writes were acknowledged, with more in flight.
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
          if (acked.length >= 100 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        }
      }),
    );
    await new Promise((r) => (first.child.exitCode !== null || first.child.signalCode !== null ? r(undefined) : first.child.once('exit', r)));
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.ok(readdirSync(data).some((f) => f === 'snapshot.json'), 'a snapshot was written (snapshot-every 40)');

    const second = await startChild(args);
    const origin2 = second.v3.replace(/\/api\/v3$/, '');
    const c2 = new Client({ origin: origin2, v3BaseUrl: second.v3, v2BaseUrl: origin2 } as never, 'P1', key);
    const list = await c2.call('GET', '/tire-protection/registrations?pageSize=1000');
    assert.equal(list.status, 200);
    const ids = new Set((list.json.results as { _id: string }[]).map((r) => r._id));
    for (const a of acked) assert.ok(ids.has(a.id), `acknowledged ${a.inv} survived`);
    assert.ok(list.json.totalRecordCount >= acked.length);
    assert.ok(claimed);
    const m = await c2.call('GET', `/tire-protection/registrations/${claimed}/metadata`);
    assert.deepEqual([m.json.claimedTiresCount, m.json.availableTiresCount], [1, 1]);
    // writes after the restart work and new ids do not collide
    const after = await c2.call('POST', '/tire-protection/registrations', tpRegistration('AFTER-RESTART'));
    assert.equal(after.status, 201);
    assert.ok(!ids.has(after.json.id));
    const exit = new Promise<number | null>((r) => second.child.once('exit', (code) => r(code)));
    second.child.kill('SIGTERM');
    assert.equal(await exit, 0, 'clean exit on SIGTERM');
  });

  it('ignores a torn last journal line and never reads a torn snapshot', async () => {
    const { sb, clients } = await startWith({ dataDir: dir });
    const c = clients[0] as Client;
    const id = (await c.call('POST', '/tire-protection/registrations', tpRegistration('TORN-1'))).json.id as string;
    await sb.close(); // compacts into snapshot.json
    const journal = readdirSync(dir).find((f) => f.startsWith('journal-')) as string;
    // a write that was never acknowledged: half a line, no newline
    appendFileSync(join(dir, journal), '{"t":"reg","p":"P1001","r":{"_id":"zz');
    // an interrupted snapshot write leaves only a temporary file
    writeFileSync(join(dir, 'snapshot.json.tmp'), '{"format":1,"gen');
    const sb2 = track(await startSandbox({ dataDir: dir, partners: [{ id: 'P1001', spkiPem: c.key.spkiPem, name: 'partner1' }] }));
    const c2 = new Client(sb2, 'P1001', c.key);
    assert.equal((await c2.call('GET', `/tire-protection/registrations/${id}`)).status, 200);
    assert.equal((await c2.call('GET', '/tire-protection/registrations')).json.totalRecordCount, 1);
    assert.equal((await c2.call('POST', '/tire-protection/registrations', tpRegistration('TORN-2'))).status, 201);
    await sb2.close();
    assert.ok(!readdirSync(dir).includes('snapshot.json.tmp'));
    const { events, log } = DurableLog.open(dir);
    log.close();
    assert.equal(events.length, 0, 'close() compacted everything into the snapshot');
    assert.match(readFileSync(join(dir, 'snapshot.json'), 'utf8'), /TORN-2/);
  });

  it('refuses a data directory in use by a running sandbox; a second embedded Local falls back to memory', async () => {
    const { sb, clients } = await startWith({ dataDir: dir });
    await assert.rejects(startSandbox({ dataDir: dir }), (err: Error) => err.name === 'DataDirInUse' && /in use by process \d+/.test(err.message));
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

  it('reports a corrupt line in the middle of the journal instead of silently dropping data', () => {
    writeFileSync(join(dir, 'journal-0.jsonl'), '{"t":"partner","r":{"id":"A","name":"A","num":1,"spkiPem":"x"}}\nGARBAGE\n{"t":"partner","r":{"id":"B","name":"B","num":2,"spkiPem":"x"}}\n');
    assert.throws(() => DurableLog.open(dir), /corrupt at line 2/);
  });

  it('replays journal events on top of the snapshot (restart without compaction)', async () => {
    const { sb, clients } = await startWith({ dataDir: dir, snapshotEvery: 3 });
    const c = clients[0] as Client;
    for (let i = 0; i < 7; i++) assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration(`R-${i}`))).status, 201);
    const id = (await c.call('GET', '/tire-protection/registrations?invoiceNumber=R-6')).json.results[0]._id as string;
    assert.equal((await c.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() })).status, 204);
    // simulate a crash: no compaction on close
    (sb.operations.store as unknown as { log?: DurableLog }).log?.close();
    (sb.operations.store as unknown as { log?: DurableLog }).log = undefined;
    await sb.close();
    const sb2 = track(await startSandbox({ dataDir: dir }));
    const c2 = new Client(sb2, 'P1001', c.key); // the partner key was persisted too
    assert.equal((await c2.call('GET', '/tire-protection/registrations')).json.totalRecordCount, 7);
    assert.equal((await c2.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() })).status, 409);
    await sb2.close();
  });
});
