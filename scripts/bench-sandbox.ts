// Benchmark of the Local sandbox over loopback: create, read and list with 10,000 and 100,000 stored
// registrations. The server runs in a worker thread (its own event loop); the client uses undici with
// keep-alive connections. Prints requests per second and p50/p99 latency per operation.
//   npm run bench:sandbox            (npx tsx scripts/bench-sandbox.ts [--sizes 10000,100000])
import { generateKeyPairSync, sign } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const CONCURRENCY = 8;
const PARTNER = 'BENCH';

interface Ready {
  origin: string;
  ids: string[];
}

function body(i: number, prefix: string): Record<string, unknown> {
  return {
    product_id: 'tire-protection',
    invoiceNumber: `${prefix}-${i}`,
    enrollDate: '2026-01-15',
    customer: { name: 'Ava Garcia', email: 'ava@example.com' },
    vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' },
    tires: [1, 2, 3, 4].map(() => ({ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 })),
  };
}

async function serverMain(): Promise<void> {
  const { startSandbox } = require('../src/core/sandbox/server') as typeof import('../src/core/sandbox/server');
  const { createRegistration } = require('../src/core/sandbox/ops/registrations') as typeof import('../src/core/sandbox/ops/registrations');
  const { stored, spkiPem } = workerData as { stored: number; spkiPem: string };
  const sb = await startSandbox({ partners: [{ id: PARTNER, spkiPem }] });
  const ids: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < stored; i++) {
    const id = await createRegistration(sb.context, PARTNER, 'tire-protection', body(i, 'PRE'));
    if (i % Math.max(1, Math.floor(stored / 2000)) === 0) ids.push(id);
  }
  process.stderr.write(`  (stored ${stored} registrations in ${((performance.now() - t0) / 1000).toFixed(2)} s)\n`);
  parentPort?.postMessage({ origin: sb.origin, ids } satisfies Ready);
  parentPort?.once('message', () => {
    void sb.close().then(() => process.exit(0));
  });
}

function token(privateKey: import('node:crypto').KeyObject, aud: string): string {
  const now = Math.floor(Date.now() / 1000);
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${enc({ alg: 'ES256', typ: 'JWT' })}.${enc({ iss: PARTNER, aud, iat: now, exp: now + 600 })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function run(pool: Pool, n: number, make: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string; headers: Record<string, string> }, expect: number): Promise<{ rps: number; p50: number; p99: number }> {
  const lat: number[] = [];
  let next = 0;
  let bad = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const r = make(i);
        const s = performance.now();
        const res = await pool.request({ method: r.method, path: r.path, body: r.body, headers: r.headers });
        await res.body.text();
        lat.push(performance.now() - s);
        if (res.statusCode !== expect) bad++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  if (bad) process.stderr.write(`  WARNING: ${bad} unexpected statuses\n`);
  lat.sort((a, b) => a - b);
  return { rps: n / secs, p50: pct(lat, 50), p99: pct(lat, 99) };
}

async function main(): Promise<void> {
  const sizesArg = process.argv.indexOf('--sizes');
  const sizes = sizesArg > 0 ? (process.argv[sizesArg + 1] ?? '').split(',').map(Number) : [10_000, 100_000];
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spkiPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  console.log(`Local sandbox benchmark: loopback, ${CONCURRENCY} keep-alive connections, Node ${process.version}`);
  console.log('stored    operation   requests   req/s     p50 ms   p99 ms');
  for (const stored of sizes) {
    const worker = new Worker(__filename, { workerData: { stored, spkiPem }, execArgv: ['--require', 'tsx/cjs'] });
    const ready = await new Promise<Ready>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const pool = new Pool(ready.origin, { connections: CONCURRENCY, pipelining: 1 });
    const auth = { authorization: `Bearer ${token(privateKey, `${ready.origin}/api/v3`)}`, 'content-type': 'application/json' };
    const get = (path: string) => ({ method: 'GET' as const, path: `/api/v3${path}`, headers: auth });
    // warm-up (JIT) of the three paths
    await run(pool, 500, (i) => get(`/tire-protection/registrations/${ready.ids[i % ready.ids.length]}`), 200);
    await run(pool, 300, (i) => ({ method: 'POST', path: '/api/v3/tire-protection/registrations', body: JSON.stringify(body(i, `W${stored}`)), headers: auth }), 201);
    await run(pool, 100, (i) => get(`/tire-protection/registrations?pageSize=100&page=${1 + i}`), 200);
    const results: [string, number, Awaited<ReturnType<typeof run>>][] = [];
    const nCreate = 3000;
    results.push(['create', nCreate, await run(pool, nCreate, (i) => ({ method: 'POST', path: '/api/v3/tire-protection/registrations', body: JSON.stringify(body(i, `B${stored}`)), headers: auth }), 201)]);
    const nRead = 10_000;
    results.push(['read', nRead, await run(pool, nRead, (i) => get(`/tire-protection/registrations/${ready.ids[(i * 7919) % ready.ids.length]}`), 200)]);
    const nList = 2000;
    const pages = Math.floor(stored / 100);
    results.push(['list', nList, await run(pool, nList, (i) => get(`/tire-protection/registrations?pageSize=100&page=${1 + ((i * 7919) % pages)}`), 200)]);
    for (const [op, n, r] of results) {
      console.log(`${String(stored).padEnd(9)} ${op.padEnd(11)} ${String(n).padEnd(10)} ${r.rps.toFixed(0).padEnd(9)} ${r.p50.toFixed(2).padEnd(8)} ${r.p99.toFixed(2)}`);
    }
    await pool.close();
    worker.postMessage('stop');
    await new Promise((r) => worker.once('exit', r));
  }
  console.log('Targets: read >= 3,000 req/s, p99 < 10 ms; list time independent of the number stored (one 100-record page per request).');
}

if (isMainThread) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
} else {
  void serverMain();
}
