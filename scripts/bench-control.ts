// Benchmark of the sandbox's control API (docs/testing-your-application.md, Figures), against its targets, each figure
// with its floor (the physical limit on this machine) and the ratio to it:
//   - health ready after process start on a new data directory (target 2 s), floor: a bare node:http server in a new
//     process answering its first request; peer: the same sandbox in memory;
//   - POST /__tpp/reset with N records stored (target 100 ms at 100,000), floor: the same reset of an empty store;
//   - GET /__tpp/requests with a filter over 10,000 journal entries (target 50 ms), floor: GET /__tpp/health;
//   - a named snapshot and its restore with 10,000 registrations stored, in-memory PGlite (target 200 ms each), floor:
//     the bare SQL alone (CREATE TABLE … AS SELECT / INSERT … SELECT of every record table, one transaction; for a
//     restore from the ready copy, the bare DROP TABLE + ALTER TABLE … SET SCHEMA) on the same rows in this process,
//     next to snapshots.ts's own functions on that database; a restore right after the snapshot (rows copied) and
//     one after a test's writes and pause (the ready copy made meanwhile, control/snapshotReady.ts);
//   - faults that do not match: reads by id with 20 such faults scheduled vs none (target 0.05 ms per request).
// Every server runs in its own process (dist/cli.js, as `tpp sandbox`); this process only sends, but for the
// snapshot floor, which opens a PGlite database here (no server between).
//   npm run bench:control
//   options: --records N (default 100000)  --journal N (default 10000)  --runs N (default 5)  --snapshot N (default 10000)
//            --only health,reset,snapshots,faults (default: all; reset includes the journal reads)
//            --pause MS (default 1500: a test's own time between its writes and the next restore)
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { done, sized } from './bench-size.mjs';
import { mint, privateKeyOf } from './bench-sandbox/token';
import { openPglite } from '../src/core/sandbox/db/pglite';
import { OpsContext } from '../src/core/sandbox/ops/common';
import { upsertPartner } from '../src/core/sandbox/ops/partners';
import { catalogOf, KEPT_TABLES, resetRecords, seedSample } from '../src/core/sandbox/control/data';
import { restoreSnapshot, takeSnapshot } from '../src/core/sandbox/control/snapshots';
import { READY_DELAY_MS } from '../src/core/sandbox/control/snapshotReady';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: sized('100000', '200') },
    journal: { type: 'string', default: sized('10000', '100') },
    runs: { type: 'string', default: sized('5', '1') },
    snapshot: { type: 'string', default: sized('10000', '100') },
    only: { type: 'string' },
    pause: { type: 'string', default: sized('1500', '100') },
  },
});
const PAUSE = Number(values.pause);
const ONLY = values.only?.split(',');
const runs = (part: string) => !ONLY || ONLY.includes(part);
const SNAPSHOT = Number(values.snapshot);
const RECORDS = Number(values.records);
const JOURNAL = Number(values.journal);
const RUNS = Number(values.runs);
const CLI = join(__dirname, '../dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'tpp-bench-control-'));
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pubFile = join(dir, 'bench.pub.pem');
writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
const key = privateKeyOf(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const line = (what: string, value: number, target: number, floor: number, floorName: string) =>
  console.log(`${what.padEnd(58)} ${ms(value).padStart(10)}  target ${ms(target).padStart(9)} ${value <= target ? 'met' : 'MISSED'}  ${(value / floor).toFixed(1)}x ${floorName} (${ms(floor)})`);

interface Proc {
  child: ChildProcess;
  origin: string;
  stop(): Promise<void>;
}

/** Spawns `args`, resolves once the first stdout line (an address) is printed. */
function spawnServer(args: string[], toOrigin: (first: string) => string): Promise<Proc> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      if (out.includes('\n')) resolve({ child, origin: toOrigin(out.split('\n')[0]!.trim()), stop: async () => void (child.kill('SIGTERM'), await exited) });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

const sandbox = (extra: string[]) => spawnServer([CLI, 'sandbox', '--port', '0', '--partner', `BENCH=${pubFile}`, ...extra], (base) => base.replace(/\/api\/v3$/, ''));

/** Milliseconds from spawn to the first answer of `path` with status ready (polled every 2 ms). */
async function timeToReady(args: string[], toOrigin: (first: string) => string, path: string): Promise<number> {
  const t0 = performance.now();
  const p = await spawnServer(args, toOrigin);
  for (;;) {
    const r = await fetch(p.origin + path).catch(() => undefined);
    if (r?.ok && (await r.text()).includes('ready')) break;
    await new Promise((res) => setTimeout(res, 2));
  }
  const t = performance.now() - t0;
  await p.stop();
  return t;
}

async function timed(method: string, url: string, json?: unknown): Promise<{ t: number; body: Record<string, unknown> }> {
  const t0 = performance.now();
  const r = await fetch(url, { method, headers: method === 'POST' ? { 'content-type': 'application/json' } : {}, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
  const body = (await r.json()) as Record<string, unknown>;
  if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(body)}`);
  return { t: performance.now() - t0, body };
}

async function main(): Promise<void> {
  console.log(`Control API benchmark (runs ${RUNS}, ${RECORDS} records, ${JOURNAL} journal entries; node ${process.version})`);
  if (runs('health')) await healthReady();
  if (runs('reset')) await resetAndJournal();
  if (runs('snapshots')) await snapshots();
  if (runs('faults')) await faultOverhead();
}

/** 1. Health ready after start. */
async function healthReady(): Promise<void> {
  const floorScript = "require('node:http').createServer((q,s)=>s.end('ready')).listen(0,'127.0.0.1',function(){console.log('http://127.0.0.1:'+this.address().port)})";
  const floor: number[] = [];
  const memory: number[] = [];
  const dataDir: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    floor.push(await timeToReady(['-e', floorScript], (o) => o, '/'));
    memory.push(await timeToReady([CLI, 'sandbox', '--port', '0', '--partner', `BENCH=${pubFile}`], (b) => b.replace(/\/api\/v3$/, ''), '/__tpp/health'));
    dataDir.push(await timeToReady([CLI, 'sandbox', '--port', '0', '--partner', `BENCH=${pubFile}`, '--data-dir', join(dir, `data-${i}`)], (b) => b.replace(/\/api\/v3$/, ''), '/__tpp/health'));
  }
  line('health ready after start, new data directory (median)', median(dataDir), 2000, median(floor), 'bare node:http process');
  line('health ready after start, in memory (median)', median(memory), 2000, median(floor), 'bare node:http process');
}

/** 2. Reset with RECORDS records stored (PGlite under a data directory), then 3. journal reads. */
async function resetAndJournal(): Promise<void> {
  const s = await sandbox(['--data-dir', join(dir, 'reset')]);
  const empty: number[] = [];
  for (let i = 0; i < RUNS; i++) empty.push((await timed('POST', `${s.origin}/__tpp/reset`)).t);
  const t0 = performance.now();
  const seed = await fetch(`${s.origin}/__tpp/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: RECORDS }) });
  const summary = (await seed.json()) as { sample: { registrations: number; claims: number } };
  console.log(`  (seeded ${summary.sample.registrations} registrations and ${summary.sample.claims} claims in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const full = await timed('POST', `${s.origin}/__tpp/reset`);
  line(`reset with ${RECORDS} records stored (round trip)`, full.t, 100, median(empty), 'reset of an empty store');

  // 3. GET requests with a filter over JOURNAL entries: 1% refused creates among verify-token reads.
  const aud = `${s.origin}/api/v3`;
  const send = async (i: number) => {
    if (i % 100 === 0) await fetch(`${aud}/tire-protection/registrations`, { method: 'POST', headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: '{}' });
    else await fetch(`${aud}/verify-token`, { headers: { authorization: `Bearer ${mint(key, 'BENCH', aud)}` } });
  };
  for (let i = 0; i < JOURNAL; i += 16) await Promise.all(Array.from({ length: Math.min(16, JOURNAL - i) }, (_, k) => send(i + k)));
  const health: number[] = [];
  const filtered: number[] = [];
  const page: number[] = [];
  let matched = 0;
  for (let i = 0; i < RUNS * 4; i++) {
    health.push((await timed('GET', `${s.origin}/__tpp/health`)).t);
    const f = await timed('GET', `${s.origin}/__tpp/requests?method=POST&status=4xx&path=/api/v3/tire-protection/*`);
    filtered.push(f.t);
    matched = f.body.total as number;
    page.push((await timed('GET', `${s.origin}/__tpp/requests?path=/api/v3/**&limit=100`)).t);
  }
  line(`GET requests, filter matching ${matched} of ${JOURNAL} (median)`, median(filtered), 50, median(health), 'GET health');
  line(`GET requests, first 100 of ${JOURNAL} (median)`, median(page), 50, median(health), 'GET health');
  await s.stop();
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * 4. Snapshot and restore of SNAPSHOT registrations: round trips to a sandbox, then the same in this process with the
 * bare SQL. Two kinds of restore: right after the snapshot is taken (no time for its ready copy: rows are copied),
 * and as a test suite restores, after a test ran (a few writes and PAUSE ms) while the ready copy was made in the
 * background (tables renamed into place).
 */
async function snapshots(): Promise<void> {
  const s = await sandbox([]);
  const seeded = (await (await post(`${s.origin}/__tpp/seed`, { count: SNAPSHOT })).json()) as { sample: Record<string, number> };
  console.log(`  (snapshot: seeded ${JSON.stringify(seeded.sample)})`);
  const take: number[] = [];
  const back: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    take.push((await timed('POST', `${s.origin}/__tpp/snapshots`, { name: `bench-${i % 2}` })).t);
    back.push((await timed('POST', `${s.origin}/__tpp/snapshots/bench-${i % 2}/restore`)).t);
  }
  // As a test suite: one snapshot, then per test a few writes, the test's own time, a restore.
  await timed('POST', `${s.origin}/__tpp/snapshots`, { name: 'suite' });
  const aud = `${s.origin}/api/v3`;
  const afterTest: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < 5; k++) {
      const r = await fetch(`${aud}/tire-protection/registrations`, { method: 'POST', headers: { authorization: `Bearer ${mint(key, 'BENCH', aud)}`, 'content-type': 'application/json' }, body: JSON.stringify(testRegistration(`T-${i}-${k}`)) });
      if (r.status !== 201) throw new Error(`create: ${r.status} ${await r.text()}`);
    }
    await new Promise((r) => setTimeout(r, PAUSE));
    afterTest.push((await timed('POST', `${s.origin}/__tpp/snapshots/suite/restore`)).t);
  }
  await s.stop();
  const inProcess = await snapshotsInProcess();
  const { bareCopy, bareLoad, bareSwap } = inProcess;
  line(`snapshot of ${SNAPSHOT} registrations, in memory (round trip, median)`, median(take), 200, median(bareCopy), 'bare CREATE TABLE AS');
  line(`restore right after the snapshot (round trip, median)`, median(back), 200, median(bareLoad), 'bare INSERT … SELECT');
  line(`restore after a test of ${PAUSE} ms (round trip, median)`, median(afterTest), 200, median(bareSwap), 'bare swap of tables');
  line(`  takeSnapshot in this process (median)`, median(inProcess.fnTake), 200, median(bareCopy), 'bare CREATE TABLE AS');
  line(`  restoreSnapshot, rows copied, in this process (median)`, median(inProcess.fnBack), 200, median(bareLoad), 'bare INSERT … SELECT');
  line(`  restoreSnapshot, ready copy, in this process (median)`, median(inProcess.fnSwap), 200, median(bareSwap), 'bare swap of tables');
  console.log(`${'  ready copy made in the background (median, off the restore)'.padEnd(58)} ${ms(median(inProcess.readyIn)).padStart(10)}  (from the snapshot call's end, ${READY_DELAY_MS} ms of it waiting for calls to pause)`);
}

/** A tire-protection registration the spec accepts (spec: Tire protection, create). */
const testRegistration = (invoiceNumber: string) => ({
  product_id: 'tire-protection',
  invoiceNumber,
  enrollDate: new Date().toISOString().slice(0, 10),
  customer: { name: 'Ava Garcia', email: 'ava@example.com' },
  vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' },
  tires: Array.from({ length: 4 }, () => ({ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 })),
});

/** The same rows in a PGlite database of this process: snapshots.ts's functions vs the bare statements. */
async function snapshotsInProcess() {
  const db = await openPglite();
  const c = new OpsContext(db, Date.now, 12);
  await seedSample(c, await upsertPartner(c, 'BENCH', publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'Bench'), SNAPSHOT);
  const tables = (await db.transaction((tx) => catalogOf(db, tx))).filter((r) => r.kind === 't' && !KEPT_TABLES.has(r.name)).map((r) => r.name);
  const out = { fnTake: [] as number[], fnBack: [] as number[], fnSwap: [] as number[], readyIn: [] as number[], bareCopy: [] as number[], bareLoad: [] as number[], bareSwap: [] as number[] };
  const clock = async (f: () => Promise<unknown>) => ((t0) => f().then(() => performance.now() - t0))(performance.now());
  const ready = async () => {
    for (;;) {
      if ((await db.query('SELECT 1 FROM tpp_snapshots.ready', [])).rows.length) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  await db.query('CREATE SCHEMA IF NOT EXISTS bench', []);
  for (let i = 0; i < RUNS; i++) {
    out.fnTake.push(await clock(() => takeSnapshot(db, `fn-${i % 2}`, Date.now())));
    out.fnBack.push(await clock(() => restoreSnapshot(db, `fn-${i % 2}`)));
    // The restore made the ready copy stale for its next restore: made again once calls pause.
    out.readyIn.push(await clock(ready));
    out.fnSwap.push(await clock(() => restoreSnapshot(db, `fn-${i % 2}`)));
    await ready();
    // The swap alone: the ready copy's tables renamed into place, and the serial counter they own handed over.
    out.bareSwap.push(await clock(() => db.transaction(async (tx) => {
      await tx.query('ALTER SEQUENCE tpp.parts_seq_seq OWNED BY NONE', []);
      await tx.query(`DROP TABLE ${tables.map((t) => `tpp."${t}"`).join(', ')}`, []);
      for (const t of tables) await tx.query(`ALTER TABLE tpp_ready."${t}" SET SCHEMA tpp`, []);
      await tx.query('ALTER SEQUENCE tpp.parts_seq_seq OWNED BY tpp.parts.seq', []);
    })));
    await db.query('DELETE FROM tpp_snapshots.ready', []);
    await db.query(`DROP TABLE IF EXISTS ${tables.map((t) => `bench."${t}"`).join(', ')}`, []);
    out.bareCopy.push(await clock(() => db.transaction(async (tx) => { for (const t of tables) await tx.query(`CREATE TABLE bench."${t}" AS SELECT * FROM tpp."${t}"`, []); })));
    // The load alone: the same rows back into the emptied tables (the emptying is not timed), reference checks off.
    await resetRecords(db, false);
    out.bareLoad.push(await clock(() => db.transaction(async (tx) => {
      await tx.query("SET LOCAL session_replication_role = 'replica'", []);
      for (const t of tables) await tx.query(`INSERT INTO tpp."${t}" SELECT * FROM bench."${t}"`, []);
    })));
  }
  await db.close();
  return out;
}

/** 5. Reads by id with 20 faults scheduled that never match them, against none, alternating blocks in one sandbox. */
async function faultOverhead(): Promise<void> {
  const s = await sandbox(['--seed-count', '100']);
  const aud = `${s.origin}/api/v3`;
  const rows = (await (await fetch(`${s.origin}/__tpp/records?kind=registrations&limit=1`)).json()) as { records: { id: string }[] };
  const url = `${aud}/tire-protection/registrations/${rows.records[0]!.id}`;
  const faults = Array.from({ length: 20 }, (_, i) =>
    i % 2 ? { method: 'GET', path: '/api/v3/tire-protection/registrations/*', partner: `OTHER${i}`, fault: 503 } : { method: 'POST', path: `/api/v3/tire-protection/registrations/*/claims`, body: { invoiceNumber: `NONE-${i}` }, fault: 503 },
  );
  const block = async (n: number) => {
    const tokens = Array.from({ length: n }, () => mint(key, 'BENCH', aud));
    const ts: number[] = [];
    for (const t of tokens) {
      const t0 = performance.now();
      const r = await fetch(url, { headers: { authorization: `Bearer ${t}` } });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`read by id: ${r.status}`);
      ts.push(performance.now() - t0);
    }
    return median(ts);
  };
  await block(200);
  const none: number[] = [];
  const twenty: number[] = [];
  for (let i = 0; i < RUNS * 2; i++) {
    await fetch(`${s.origin}/__tpp/faults`, { method: 'DELETE' });
    none.push(await block(300));
    const r = await post(`${s.origin}/__tpp/faults`, faults);
    if (r.status !== 201) throw new Error(`POST faults: ${r.status} ${await r.text()}`);
    twenty.push(await block(300));
  }
  await s.stop();
  const diff = median(twenty) - median(none);
  console.log(`${'read by id, 20 faults that do not match vs none (per request)'.padEnd(58)} ${`${diff.toFixed(3)} ms`.padStart(10)}  target  0.050 ms ${diff <= 0.05 ? 'met' : 'MISSED'}  (${median(twenty).toFixed(3)} ms vs ${median(none).toFixed(3)} ms, medians of ${RUNS * 2} blocks of 300)`);
}

main()
  .then(() => done('control'))
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
