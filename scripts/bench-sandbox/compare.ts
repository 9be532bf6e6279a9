// Two builds of the Local sandbox side by side on one machine, ALTERNATING, with the machine's load beside every
// figure: this repository's dist/ and another build's (e.g. a worktree of an earlier commit, outside the repository,
// its own `npm ci` and `node scripts/build.mjs --production`). Each server runs in its own process as `tpp sandbox`
// runs it (its V8 options and environment); the in-memory floor (floor.ts --memory) in its own.
//   npx tsx scripts/bench-sandbox/compare.ts --against <dir of the other build> [--against <dir>]... [--rounds 3]
//        [--stored 10000] [--seconds 8] [--concurrency 8]
// Per round and build (the order of the builds turns from round to round):
//   - memory: RSS of the whole process tree (the serving process and any process it started) after a first start in
//     memory with nothing stored, 2 s idle, and its PSS; for the serving process alone (as bench:sandbox's first
//     start) and for `tpp sandbox` (<dist>/cli.js: the process started by the user and the serving one it starts);
//   - reads by id with a fresh ES256 token per request (minted with node:crypto for every request): every build's
//     sandbox with --stored registrations in memory and the in-memory floor run at once and are measured in turns
//     (a quarter of --seconds each, four turns), so that a figure and its floor share the machine's load: req/s, the
//     server's CPU per read, and the ratios to the floor.
// Build this repository's production dist/ first (npm run bench:sandbox does; or node scripts/build.mjs --production).
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CHILD_EXEC_ARGV, childEnv } from '../../src/core/childProcess/childProtocol';
import { cpuMsOf, measure, pool, removeCompiled, startServer, stopServer, type Server } from './load';
import { mint } from './token';

const { values } = parseArgs({
  options: {
    against: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '3' },
    stored: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '8' },
    concurrency: { type: 'string', default: '8' },
  },
});
if (!values.against?.length) throw new Error('give --against <directory of the other build> (it holds dist/sandbox.js)');
const BUILDS = [{ name: 'this build', dist: resolve(__dirname, '../../dist') }, ...values.against.map((d) => ({ name: d, dist: resolve(d, 'dist') }))];
for (const b of BUILDS) if (!existsSync(join(b.dist, 'sandbox.js'))) throw new Error(`${b.dist}/sandbox.js is missing: build it first`);
const ROUNDS = Number(values.rounds);
const STORED = Number(values.stored);
const LOOP = { count: 10_000_000, seconds: Number(values.seconds), concurrency: Number(values.concurrency) };
const PARTNER = 'BENCH';
const SERVING = { execArgv: CHILD_EXEC_ARGV, env: childEnv(process.env) };

const dir = mkdtempSync(join(tmpdir(), 'tpp-compare-'));
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pubFile = join(dir, 'bench.pub.pem');
const keyFile = join(dir, 'bench.key.pem');
writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
const script = (f: string) => join(__dirname, f);

/** The load average as `uptime` prints it (1, 5, 15 minutes). */
const load = (): string => execFileSync('uptime', { encoding: 'utf8' }).replace(/^.*load average:\s*/, '').trim();

/** A process and every process it started, recursively (Linux /proc). */
function tree(pid: number): number[] {
  const out = [pid];
  for (const task of safe(() => readdirSync(`/proc/${pid}/task`), [] as string[])) {
    for (const child of safe(() => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8'), '').split(/\s+/).filter(Boolean)) out.push(...tree(Number(child)));
  }
  return out;
}
function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
/** RSS and PSS of a whole process tree, in MiB. */
function treeMemory(pid: number): { rss: number; pss: number; processes: number } {
  const pids = tree(pid);
  const kb = (text: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  let rss = 0;
  let pss = 0;
  for (const p of pids) {
    rss += kb(safe(() => readFileSync(`/proc/${p}/status`, 'utf8'), ''), 'VmRSS');
    pss += kb(safe(() => readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'), ''), 'Pss');
  }
  return { rss: rss / 1024, pss: pss / 1024, processes: pids.length };
}

/** `tpp sandbox` of a build (its dist/cli.js), in memory with one partner: its process tree's memory once idle 2 s. */
async function tppSandboxMemory(dist: string): Promise<{ rss: number; pss: number; processes: number }> {
  const child = spawn(process.execPath, [join(dist, 'cli.js'), 'sandbox', '--port', '0', '--partner', `${PARTNER}=${pubFile}`], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    await new Promise((res, rej) => {
      child.stdout.once('data', res);
      child.once('exit', (code) => rej(new Error(`tpp sandbox of ${dist} exited (${code}) before it was ready`)));
    });
    await new Promise((res) => setTimeout(res, 2000));
    return treeMemory(child.pid as number);
  } finally {
    const exited = new Promise((res) => child.once('exit', res));
    child.kill('SIGTERM');
    await exited;
  }
}

/** Ids of the stored registrations (pages of 1000), and their documents as NDJSON for the floor. */
async function exportAll(s: Server, file: string): Promise<string[]> {
  const p = pool(s.origin, 2);
  const out = createWriteStream(file);
  const ids: string[] = [];
  for (let page = 1; (page - 1) * 1000 < s.stored; page++) {
    const res = await p.request({ method: 'GET', path: `/api/v3/tire-protection/registrations?pageSize=1000&page=${page}`, headers: { authorization: `Bearer ${mint(privateKey, PARTNER, `${s.origin}/api/v3`)}` } });
    for (const r of ((await res.body.json()) as { results: { _id: string }[] }).results) {
      out.write(`${JSON.stringify(r)}\n`);
      ids.push(r._id);
    }
  }
  await new Promise((r) => out.end(r));
  await p.close();
  return ids;
}

/** Waits until `s` has used under 5 % of a core for half a second (its answer cache warms after writes), at most 60 s. */
async function settled(s: Server): Promise<void> {
  const t0 = performance.now();
  for (let cpu = cpuMsOf(s.child.pid); performance.now() - t0 < 60_000; ) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMsOf(s.child.pid);
    if (now === undefined || cpu === undefined || now - cpu < 25) return;
    cpu = now;
  }
}

/** A read target: a server, the ids it stores, and what its slices added up to. */
interface Target {
  readonly name: string;
  readonly server: Server;
  readonly ids: string[];
  count: number;
  seconds: number;
  cpuMs: number;
}

/** One slice of reads by id against `t`: its requests, seconds and server CPU are added to it. */
async function slice(t: Target, seconds: number): Promise<void> {
  const p = pool(t.server.origin, LOOP.concurrency);
  const aud = `${t.server.origin}/api/v3`;
  const make = (i: number) => ({ method: 'GET' as const, path: `/api/v3/tire-protection/registrations/${t.ids[(i * 7919) % t.ids.length]}`, headers: { authorization: `Bearer ${mint(privateKey, PARTNER, aud)}` } });
  const cpu0 = cpuMsOf(t.server.child.pid) ?? NaN;
  const t0 = performance.now();
  const f = await measure(p, { ...LOOP, seconds, expect: 200 }, make);
  t.seconds += (performance.now() - t0) / 1000;
  t.cpuMs += (cpuMsOf(t.server.child.pid) ?? NaN) - cpu0;
  t.count += f.count;
  await p.close();
}

const fmt = (n: number, d = 0) => n.toFixed(d);

/** Memory after a first start of each build, one after the other. */
async function memory(r: number, order: typeof BUILDS): Promise<void> {
  for (const b of order) {
    const s = await startServer(`${b.name} first start`, script('serve-sandbox.ts'), ['--partner', PARTNER, '--pem', pubFile, '--key', keyFile, '--dist', b.dist, '--quiet', '--stored', '0'], dir, 120_000, SERVING);
    await new Promise((res) => setTimeout(res, 2000));
    const m = treeMemory(s.child.pid as number);
    console.log(`round ${r}  ${b.name.padEnd(24)} memory after a first start (serving process): RSS ${fmt(m.rss, 1)} MiB, PSS ${fmt(m.pss, 1)} MiB (${m.processes} process${m.processes > 1 ? 'es' : ''})  [load ${load()}]`);
    await stopServer(s);
    const t = await tppSandboxMemory(b.dist);
    console.log(`round ${r}  ${b.name.padEnd(24)} memory after a first start of tpp sandbox: RSS ${fmt(t.rss, 1)} MiB, PSS ${fmt(t.pss, 1)} MiB (${t.processes} processes)  [load ${load()}]`);
  }
}

/**
 * Reads by id: every build's server (its own --stored registrations, in memory) and the in-memory floor (the first
 * build's documents) run at once, idle but for the one being measured; they are measured in turns of `seconds / 4`,
 * four turns each, so that each figure and its floor come from the same minutes of a machine whose load moves.
 */
async function reads(r: number, order: typeof BUILDS): Promise<void> {
  const targets: Target[] = [];
  try {
    for (const b of order) {
      const server = await startServer(`${b.name} reads`, script('serve-sandbox.ts'), ['--partner', PARTNER, '--pem', pubFile, '--key', keyFile, '--dist', b.dist, '--quiet', '--stored', String(STORED)], dir, 300_000, SERVING);
      targets.push({ name: b.name, server, ids: await exportAll(server, join(dir, `docs-${targets.length}.ndjson`)), count: 0, seconds: 0, cpuMs: 0 });
    }
    const first = targets[0] as Target;
    const floor = await startServer('floor (in memory)', script('floor.ts'), ['--partner', PARTNER, '--pem', pubFile, '--seed', join(dir, 'docs-0.ndjson'), '--memory'], dir, 120_000);
    targets.push({ name: 'in-memory floor', server: floor, ids: first.ids, count: 0, seconds: 0, cpuMs: 0 });
    for (const t of targets) await settled(t.server);
    // A warm-up turn, not counted.
    for (const t of targets) await slice({ ...t }, 1);
    const loads: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      for (const t of targets) await slice(t, LOOP.seconds / 4);
      loads.push(load().split(',')[0] as string);
    }
    const f = targets.at(-1) as Target;
    const rps = (t: Target) => t.count / t.seconds;
    for (const t of targets.slice(0, -1)) {
      console.log(
        `round ${r}  ${t.name.padEnd(24)} reads by id: ${fmt(rps(t))} req/s, server CPU ${fmt(t.cpuMs / t.count, 3)} ms/read; in-memory floor ${fmt(rps(f))} req/s, ${fmt(f.cpuMs / f.count, 3)} ms/read; ` +
          `ratio ${(rps(t) / rps(f)).toFixed(3)}x (by CPU per read ${(f.cpuMs / f.count / (t.cpuMs / t.count)).toFixed(3)}x)  [load ${loads.join(' ')}]`,
      );
    }
  } finally {
    for (const t of targets) await stopServer(t.server);
  }
}

async function main(): Promise<void> {
  console.log(`${BUILDS.length} builds in turn (${BUILDS.map((b) => b.dist).join(', ')}), ${ROUNDS} rounds, ${STORED.toLocaleString('en-US')} stored for reads, ${LOOP.concurrency} connections, ${LOOP.seconds} s per loop; Node ${process.version}`);
  try {
    // Each round starts with the next build: with two, they alternate.
    for (let r = 1; r <= ROUNDS; r++) {
      const order = BUILDS.map((_, i) => BUILDS[(i + r - 1) % BUILDS.length] as (typeof BUILDS)[number]);
      await memory(r, order);
      await reads(r, order);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    removeCompiled();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
