// Benchmark of the Local sandbox as a client sees it. Every server runs in its
// own process; this process only generates load, over loopback, minting a fresh ES256 token with node:crypto for
// every request (no token cache). For each number of stored registrations it measures verify-token, read by id,
// list (page of 50: unfiltered at a random page, filtered by invoiceNumber, by storeNumber) and create against:
//   - the sandbox (dist/sandbox.js started like `tpp sandbox --data-dir <tmp> --partner id=pem --seed-count N`),
//     with its per-request log on (text lines and the request log's JSON lines, to a file, like a terminal) and off,
//     the second start also timing a restart;
//   - the sandbox on a PostgreSQL server (`--database`), when TPP_BENCH_DATABASE_URL is set;
//   - the floor: bare node:http + node:crypto verify + the same queries on PGlite (and PostgreSQL), same data;
//   - the in-memory floor: bare node:http + node:crypto verify + a Map lookup of the same documents (reads only);
//   - json-server on the same data (no authentication: it has none).
// Prints req/s, p50 and p99 per operation, each as a ratio to the floor and to json-server, and each server's RSS;
// then every target of the light sandbox (scripts/bench-sandbox/targets.ts) as met / NOT met, with first starts
// (in memory and on a new directory, nothing stored: time to ready and idle RSS) and restarts per size.
//   npm run bench:sandbox                              (10,000 and 100,000 stored)
//   npm run bench:sandbox -- --sizes 1000000           (1M: several minutes and a few GB of disk)
//   options: --sizes a,b  --requests N (per operation, default 1000000)  --seconds S (per operation, default 8)
//   Each operation runs for its seconds unless it reaches N requests first: a cap of 2,000 measured a read (4,000-5,000
//   per second) over half a second, and the ratios between rows moved by 0.2 from run to run.
//            --concurrency C (default 8)
import { generateKeyPairSync } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { done, sized } from './bench-size.mjs';
import { CHILD_EXEC_ARGV, childEnv } from '../src/core/childProcess/childProtocol';
import { cpuMsOf, measure, pool, removeCompiled, rssOf, startServer, stopServer, type Figure, type Req, type Server } from './bench-sandbox/load';
import { mint } from './bench-sandbox/token';
import { printSizeTargets, printStartTargets, type FirstStart } from './bench-sandbox/targets';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: sized('10000,100000', '100') },
    requests: { type: 'string', default: sized('1000000', '200') },
    seconds: { type: 'string', default: sized('8', '0.3') },
    concurrency: { type: 'string', default: '8' },
  },
});
const SIZES = (values.sizes as string).split(',').map(Number);
const LOOP = { count: Number(values.requests), seconds: Number(values.seconds), concurrency: Number(values.concurrency) };
const DATABASE = process.env.TPP_BENCH_DATABASE_URL;
const PARTNER = 'BENCH';
const OPS = ['verify', 'read', 'list', 'list invoiceNumber', 'list storeNumber', 'create'] as const;
type Op = (typeof OPS)[number];
type Kind = 'sandbox' | 'json-server' | 'memory';

const dir = mkdtempSync(join(tmpdir(), 'tpp-bench-'));
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pubFile = join(dir, 'bench.pub.pem');
const keyFile = join(dir, 'bench.key.pem');
writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
const script = (f: string) => join(__dirname, 'bench-sandbox', f);
/** The sandbox's process as `tpp sandbox` and the editor start it: their V8 options and environment. */
const SERVING = { execArgv: CHILD_EXEC_ARGV, env: childEnv(process.env) };

/** What the loops read: ids, invoice and store numbers of stored registrations, spread over the table. */
interface Samples {
  ids: string[];
  invoices: string[];
  stores: string[];
  pages: number;
}

/** Reads every registration through the list (pages of 1000) into an NDJSON file, keeping ~2000 samples. */
async function exportAll(s: Server, file: string): Promise<Samples> {
  const p = pool(s.origin, 4);
  const out = createWriteStream(file);
  const samples: Samples = { ids: [], invoices: [], stores: [], pages: Math.max(1, Math.ceil(s.stored / 50)) };
  const every = Math.max(1, Math.floor(s.stored / 2000));
  let n = 0;
  for (let page = 1; (page - 1) * 1000 < s.stored; page++) {
    const aud = `${s.origin}/api/v3`;
    const res = await p.request({ method: 'GET', path: `/api/v3/tire-protection/registrations?pageSize=1000&page=${page}`, headers: { authorization: `Bearer ${mint(privateKey, PARTNER, aud)}` } });
    const body = (await res.body.json()) as { results: Record<string, string>[] };
    for (const r of body.results) {
      out.write(`${JSON.stringify(r)}\n`);
      if (n++ % every) continue;
      samples.ids.push(r._id as string);
      if (r.invoiceNumber) samples.invoices.push(r.invoiceNumber);
      if (r.storeNumber) samples.stores.push(r.storeNumber);
    }
  }
  await new Promise((r) => out.end(r));
  await p.close();
  return samples;
}

/** The request of `op` number `i` for a server of `kind`, with a fresh token. */
function request(kind: Kind, origin: string, op: Op, i: number, s: Samples, tag: string): Req | undefined {
  if (kind === 'memory' && op !== 'verify' && op !== 'read') return undefined; // the in-memory floor only reads
  const headers = { authorization: `Bearer ${mint(privateKey, PARTNER, `${origin}/api/v3`)}`, 'content-type': 'application/json' };
  const pick = <T>(a: T[]) => a[(i * 7919) % a.length] as T;
  const enc = encodeURIComponent;
  const base = kind !== 'json-server' ? '/api/v3/tire-protection/registrations' : '/registrations';
  const page = (q: string) => (kind !== 'json-server' ? `${base}?pageSize=50&${q}` : `${base}?_limit=50&${q.replace('page=', '_page=')}`);
  switch (op) {
    case 'verify':
      return kind !== 'json-server' ? { method: 'GET', path: '/api/v3/verify-token', headers } : undefined;
    case 'read':
      return { method: 'GET', path: `${base}/${enc(pick(s.ids))}`, headers };
    case 'list':
      return { method: 'GET', path: page(`page=${1 + ((i * 7919) % s.pages)}`), headers };
    case 'list invoiceNumber':
      return { method: 'GET', path: page(`invoiceNumber=${enc(pick(s.invoices))}`), headers };
    case 'list storeNumber':
      return s.stores.length ? { method: 'GET', path: page(`storeNumber=${enc(pick(s.stores))}`), headers } : undefined;
    case 'create':
      return { method: 'POST', path: base, headers, body: JSON.stringify(registration(`${tag}-${i}`)) };
  }
}

function registration(invoiceNumber: string): Record<string, unknown> {
  return {
    product_id: 'tire-protection',
    invoiceNumber,
    enrollDate: '2026-01-15',
    customer: { name: 'Ava Garcia', email: 'ava@example.com' },
    vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' },
    tires: [1, 2, 3, 4].map(() => ({ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 })),
  };
}

const RUN = Date.now().toString(36);

type Row = { target: string; figures: Partial<Record<Op, Figure>>; rss?: { rss: number; peak: number }; note: string };

/** Warms up, then measures every operation against `s`; creates last, so that reads see the seeded data. */
async function runAll(s: Server, kind: Kind, samples: Samples, note: string): Promise<Row> {
  const p = pool(s.origin, LOOP.concurrency);
  const figures: Partial<Record<Op, Figure>> = {};
  for (const op of OPS) {
    const make = (tag: string) => (i: number) => request(kind, s.origin, op, i, samples, tag) as Req;
    if (!request(kind, s.origin, op, 0, samples, 'probe')) continue;
    const expect = op === 'create' ? 201 : 200;
    // Invoice numbers unique per run: a PostgreSQL server keeps the records of the previous size's run.
    await measure(p, { ...LOOP, count: 200, seconds: 2, expect }, make(`W-${RUN}-${s.name}`));
    const cpu0 = cpuMsOf(s.child.pid);
    const f = await measure(p, { ...LOOP, expect }, make(`B-${RUN}-${s.name}`));
    const cpu1 = cpuMsOf(s.child.pid);
    figures[op] = cpu0 !== undefined && cpu1 !== undefined && f.count ? { ...f, cpuMs: (cpu1 - cpu0) / f.count } : f;
  }
  await p.close();
  return { target: s.name, figures, rss: rssOf(s.child.pid), note };
}

const fmt = (n: number | undefined, d = 0) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(d));
const ratio = (a?: Figure, b?: Figure) => (a && b ? `${(a.rps / b.rps).toFixed(2)}x` : '-');

function print(stored: number, rows: Row[]): void {
  const floor = rows.find((r) => r.target === 'floor (PGlite)');
  const json = rows.find((r) => r.target === 'json-server');
  console.log(`\n== ${stored.toLocaleString('en-US')} registrations stored (${LOOP.concurrency} connections, up to ${LOOP.count} requests or ${LOOP.seconds} s per operation)`);
  console.log(`${'target'.padEnd(26)}${'operation'.padEnd(20)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'/floor'.padStart(9)}${'/json-srv'.padStart(10)}`);
  for (const r of rows) {
    for (const op of OPS) {
      const f = r.figures[op];
      if (!f) continue;
      console.log(`${r.target.padEnd(26)}${op.padEnd(20)}${fmt(f.rps).padStart(8)}${fmt(f.p50, 2).padStart(9)}${fmt(f.p99, 2).padStart(9)}${ratio(f, floor?.figures[op]).padStart(9)}${ratio(f, json?.figures[op]).padStart(10)}${f.unexpected ? `  (${f.unexpected} unexpected answers)` : ''}`);
    }
    console.log(`${r.target.padEnd(26)}RSS ${fmt(r.rss?.rss)} MiB (peak ${fmt(r.rss?.peak)} MiB); ${r.note}`);
  }
  const on = rows.find((r) => r.target === 'sandbox (log on)');
  const off = rows.find((r) => r.target === 'sandbox (log off)');
  if (on && off) {
    const cost = OPS.filter((op) => on.figures[op] && off.figures[op]).map((op) => `${op} ${fmt(100 * (1 - (on.figures[op] as Figure).rps / (off.figures[op] as Figure).rps), 0)}%`);
    console.log(`per-request log cost (throughput lost with the log on): ${cost.join(', ')}`);
  }
  const rl = rows.find((r) => r.target === 'sandbox (request log)');
  if (rl && off) {
    const read = (op: Op) => (rl.figures[op] && off.figures[op] ? (rl.figures[op] as Figure).rps / (off.figures[op] as Figure).rps : undefined);
    console.log(`request log, throughput with / without: read ${fmt(read('read'), 3)}, list ${fmt(read('list'), 3)}, verify ${fmt(read('verify'), 3)}, create ${fmt(read('create'), 3)} (target: read >= 0.95)`);
    // Server CPU per request: what throughput would be on an idle machine (CPU-bound server), robust to other load.
    const cpu = (op: Op) => {
      const a = rl.figures[op]?.cpuMs;
      const b = off.figures[op]?.cpuMs;
      return a && b ? `${op} ${fmt(a, 3)} / ${fmt(b, 3)} ms = ${fmt(b / a, 3)}` : undefined;
    };
    console.log(`request log, server CPU per request with / without, and the throughput ratio it implies: ${OPS.map(cpu).filter(Boolean).join('; ')}`);
  }
}

/** Whether a sandbox started with --database really stored its data there (older builds ignore the option). */
async function usesDatabase(url: string): Promise<boolean> {
  const { Client } = require('pg') as { Client: new (o: { connectionString: string }) => { connect(): Promise<void>; query(q: string): Promise<{ rows: { t: string | null }[] }>; end(): Promise<void> } };
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return Boolean((await c.query("SELECT to_regclass('tpp.registrations')::text AS t")).rows[0]?.t);
  } finally {
    await c.end();
  }
}

/**
 * Seconds until `s` has been idle (under 5% of a core over half a second) for the first time, at most 60: the
 * embedded sandbox warms its answer cache in the background once writes pause (docs/sandbox.md, Storage), and an
 * operation measured across that warming measures it as much as itself (reads after a restart came out 0.69-0.99x
 * from run to run). The rows are measured after it, as an application that starts after the sandbox sees them; the
 * time is printed in the row's note.
 */
async function settled(s: Server): Promise<number> {
  const t0 = performance.now();
  for (let cpu = cpuMsOf(s.child.pid); performance.now() - t0 < 60_000; ) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMsOf(s.child.pid);
    if (now === undefined || cpu === undefined || now - cpu < 25) break;
    cpu = now;
  }
  return (performance.now() - t0) / 1000;
}

async function sizeRun(stored: number): Promise<void> {
  const limit = 120_000 + stored * 2; // start and seeding: ~2 ms a record at most
  const common = ['--partner', PARTNER, '--pem', pubFile, '--key', keyFile, '--stored', String(stored)];
  const dataDir = join(dir, `sandbox-${stored}`);
  const rows: Row[] = [];
  const data = join(dir, `registrations-${stored}.ndjson`);

  let s = await startServer('sandbox (log on)', script('serve-sandbox.ts'), [...common, '--data-dir', dataDir], dir, limit, SERVING);
  const samples = await exportAll(s, data);
  let warm = await settled(s);
  rows.push(await runAll(s, 'sandbox', samples, `first start + seeding ${fmt(s.startSeconds, 1)} s, then idle after ${fmt(warm, 1)} s (warming)`));
  await stopServer(s);
  // A restart on the data in place: nothing more to seed (--seed-count would add another batch).
  const restart = common.map((a, i) => (common[i - 1] === '--stored' ? '0' : a));
  s = await startServer('sandbox (log off)', script('serve-sandbox.ts'), [...restart, '--data-dir', dataDir, '--quiet'], dir, limit, SERVING);
  warm = await settled(s);
  rows.push(await runAll(s, 'sandbox', samples, `restart with ${s.stored.toLocaleString('en-US')} stored: ${fmt(s.startSeconds, 2)} s (process start to ready), idle after ${fmt(warm, 1)} s (warming)`));
  restarts.set(stored, s.startSeconds);
  await stopServer(s);
  // The request log alone, as the editor's sandbox process runs it: every entry built and serialised.
  s = await startServer('sandbox (request log)', script('serve-sandbox.ts'), [...restart, '--data-dir', dataDir, '--quiet', '--request-log'], dir, limit, SERVING);
  warm = await settled(s);
  rows.push(await runAll(s, 'sandbox', samples, `no text log; each request-log entry built whole and serialised as for the IPC channel; idle after ${fmt(warm, 1)} s (warming)`));
  await stopServer(s);

  if (DATABASE) {
    s = await startServer('sandbox (PostgreSQL)', script('serve-sandbox.ts'), [...common, '--database', DATABASE, '--quiet'], dir, limit, SERVING);
    if (await usesDatabase(DATABASE)) {
      const pgSamples = await exportAll(s, join(dir, `pg-${stored}.ndjson`));
      rows.push(await runAll(s, 'sandbox', pgSamples, `start + seeding ${fmt(s.startSeconds, 1)} s`));
    } else console.log('sandbox (PostgreSQL): skipped, this build of the sandbox has no --database yet');
    await stopServer(s);
  }

  const floorArgs = ['--partner', PARTNER, '--pem', pubFile, '--seed', data];
  s = await startServer('floor (PGlite)', script('floor.ts'), [...floorArgs, '--data-dir', join(dir, `floor-${stored}`)], dir, limit);
  rows.push(await runAll(s, 'sandbox', samples, `seeding ${fmt(s.seedSeconds, 1)} s`));
  await stopServer(s);
  s = await startServer('floor (in memory)', script('floor.ts'), [...floorArgs, '--memory'], dir, limit);
  rows.push(await runAll(s, 'memory', samples, `a Map of the same documents, loaded in ${fmt(s.seedSeconds, 1)} s`));
  await stopServer(s);
  if (DATABASE) {
    s = await startServer('floor (PostgreSQL)', script('floor.ts'), [...floorArgs, '--database', DATABASE], dir, limit);
    rows.push(await runAll(s, 'sandbox', samples, `seeding ${fmt(s.seedSeconds, 1)} s`));
    await stopServer(s);
  }
  try {
    s = await startServer('json-server', script('serve-json-server.ts'), ['--seed', data], dir, limit);
    rows.push(await runAll(s, 'json-server', samples, 'in memory, no authentication, no verify-token route'));
    await stopServer(s);
  } catch (err) {
    console.log(`json-server: ${(err as Error).message}`);
  }
  print(stored, rows);
  printSizeTargets(stored, rows);
  rmSync(dataDir, { recursive: true, force: true });
}

/** Restart time (process start to ready, seconds) per number of stored registrations. */
const restarts = new Map<number, number>();

/** A sandbox with nothing stored, in memory and on a new directory: time to ready, and RSS after 2 s idle. */
async function firstStarts(): Promise<FirstStart[]> {
  const out: FirstStart[] = [];
  const args = ['--partner', PARTNER, '--pem', pubFile, '--key', keyFile, '--stored', '0', '--quiet'];
  for (const where of ['in memory', 'on a new directory'] as const) {
    const s = await startServer(`first start ${where}`, script('serve-sandbox.ts'), where === 'in memory' ? args : [...args, '--data-dir', join(dir, 'first-start')], dir, 120_000, SERVING);
    await new Promise((r) => setTimeout(r, 2000));
    out.push({ where, seconds: s.startSeconds, idleRss: rssOf(s.child.pid)?.rss });
    await stopServer(s);
  }
  return out;
}

async function main(): Promise<void> {
  console.log(`Local sandbox benchmark: Node ${process.version}, loopback, a fresh ES256 token per request; PostgreSQL: ${DATABASE ? 'yes' : 'no (set TPP_BENCH_DATABASE_URL)'}`);
  try {
    const first = await firstStarts();
    for (const n of SIZES) await sizeRun(n);
    printStartTargets(first, restarts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    removeCompiled();
  }
  if (!SIZES.includes(1_000_000)) console.log('\n1M registrations: npm run bench:sandbox -- --sizes 1000000');
  console.log('Earlier targets: reads >= 0.7x the floor and ahead of json-server; list p99 <= 20 ms at 1M; creates >= 1,000/s; RSS <= 300 MiB at 1M.');
  done('sandbox');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
