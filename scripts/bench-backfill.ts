/**
 * npm run bench:backfill [-- --rows 10000 --kills 20 --speed-rows 2000 --rss-rows 100000 --jobs 4 --rounds 3 --only once,speed,rss]
 *
 * Backfills (docs/backfills.md): 1. exactly once: `--rows` version 3 registration rows (four tires each) sent with
 * `tpp run --data` (dist, a child process) to `tpp sandbox` (dist, a child) with scheduled faults (503 before the
 * write, 500 and dropped connections after it was committed, timeouts, 429), the runner SIGKILLed at `--kills` random
 * moments and resumed until it ends; prints expected, stored, duplicates, missing. 2. speed: `--speed-rows` rows,
 * no faults, `runBackfill` with `--jobs` against a bare client sending the same creates at the same concurrency with
 * no journal (ratio, target >= 0.8), and journal on against off (cost, target <= 10 %); also, for information, `tpp run
 * --data` over the same rows timed from its start to its exit (its row sender's V8 options and both start-ups
 * included). 3. the peak RSS of `tpp run
 * --data` over `--rss-rows` rows (target <= 150 MiB for the process that sends the rows and the `tpp run` that started it,
 * together; each is printed). Sizes are flags so that a quick run is possible; TPP_BENCH_SMOKE=1 (scripts/bench-size.mjs)
 * makes every part tiny (30 rows and 2 SIGKILLs, 20 speed rows in 1 round, 200 rows for memory): exactly once is
 * still judged (a duplicate is a defect at any size), the speed and memory targets are printed, not judged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { runBackfill } from '../src/core/backfill';
import { createPartnerClient } from '../src/core/client/client';
import { parseFlow } from '../src/core/flows/parse';
import { importPrivateKeyPem } from '../src/core/jwt/keys';
import { TokenMinter } from '../src/core/jwt/mint';
import { done, judgeTarget, sized } from './bench-size.mjs';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: sized('10000', '30') },
    kills: { type: 'string', default: sized('20', '2') },
    'speed-rows': { type: 'string', default: sized('2000', '20') },
    'rss-rows': { type: 'string', default: sized('100000', '200') },
    jobs: { type: 'string', default: '4' },
    only: { type: 'string' },
    rounds: { type: 'string', default: sized('3', '1') },
  },
});
const ROUNDS = Number(values.rounds);
const ONLY = values.only?.split(',');
const part = (name: string) => !ONLY || ONLY.includes(name);
const ROWS = Number(values.rows);
const KILLS = Number(values.kills);
const SPEED_ROWS = Number(values['speed-rows']);
const RSS_ROWS = Number(values['rss-rows']);
const JOBS = Number(values.jobs);
const dir = mkdtempSync(join(tmpdir(), 'tpp-bench-backfill-'));

const FLOW = readFileSync(join(__dirname, '..', 'examples', 'backfill', 'registrations-v3.http'), 'utf8').replace('./sales-2025.csv', './rows.csv');

/** The registration of row `n` (scripts/bench-backfill-peer.mjs, which is also the peer in its own process). */
let body: (prefix: string, n: number) => Record<string, unknown>;

/** Writes a CSV of `rows` rows for the example flow's columns. */
async function writeCsv(path: string, prefix: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('invoice,enrollDate,customerName,customerEmail,vehicleYear,vehicleMake,vehicleModel,tireBrand,tireModel,tireSize,tirePrice,dot1,dot2,dot3,dot4\n');
  for (let n = 1; n <= rows; n++) {
    const line = `${prefix}-${n},2025-06-01,Person ${n},p${n}@example.com,2021,Toyota,RAV4,Michelin,Defender2,225/65R17,189.99,DOT U2LL LMLR 1124,DOT U2LL LMLR 2124,DOT U2LL LMLR 3124,DOT U2LL LMLR 4124\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

async function startSandbox(pub: string): Promise<{ child: ChildProcess; base: string; origin: string }> {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--partner', `P1=${pub}`], { stdio: ['ignore', 'pipe', 'ignore'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`tpp sandbox exited ${code}`)));
  });
  return { child, base: line.trim(), origin: new URL(line.trim()).origin };
}

/** Peak resident bytes (VmHWM) of a process, or 0 once it has ended (or not on Linux). */
function peakOf(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The child processes of `pid` (Linux), none elsewhere. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Runs `tpp run` over the data; `killAfterMs` SIGKILLs it then. Resolves with its exit code (null when killed) and
 * the peak RSS of the process that sends the rows (`tpp run` starts it, cli/runnerProcess.ts) and of `tpp run` itself.
 */
function runCli(args: string[], killAfterMs?: number): Promise<{ code: number | null; peakRss: number; launcherRss: number }> {
  const child = spawn(process.execPath, [CLI, 'run', ...args], { stdio: ['ignore', 'ignore', 'ignore'] });
  let peakRss = 0;
  let launcherRss = 0;
  const poll = setInterval(() => {
    const pid = child.pid as number;
    const runner = childrenOf(pid)[0];
    launcherRss = Math.max(launcherRss, peakOf(pid));
    peakRss = Math.max(peakRss, runner === undefined ? 0 : peakOf(runner));
  }, 100);
  const timer = killAfterMs !== undefined ? setTimeout(() => child.kill('SIGKILL'), killAfterMs) : undefined;
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      // Rows sent in this process (the runner could not be started): its own peak is the runner's.
      resolve({ code, peakRss: peakRss || launcherRss, launcherRss: peakRss ? launcherRss : 0 });
    }),
  );
}

async function main(): Promise<number> {
  const peerModule: string = './bench-backfill-peer.mjs'; // plain JavaScript, as an integrator's script would be
  ({ body } = (await import(peerModule)) as { body: typeof body });
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyFile = join(dir, 'key.pem');
  const pubFile = join(dir, 'pub.pem');
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
  const sb = await startSandbox(pubFile);
  const key = importPrivateKeyPem(readFileSync(keyFile, 'utf8'));
  const minter = new TokenMinter();
  const token = () => minter.mint(key, { iss: 'P1', aud: sb.base });
  const client = createPartnerClient({ baseUrls: { v3: sb.base }, token, userAgent: 'bench' });
  const control = (method: string, path: string, b?: unknown) => fetch(`${sb.origin}/__tpp/${path}`, { method, headers: { 'content-type': 'application/json' }, ...(b ? { body: JSON.stringify(b) } : {}) });
  try {
    const ok1 = !part('once') || (await exactlyOnce(sb.base, keyFile, client, control));
    await control('DELETE', 'faults');
    const ok2 = !part('speed') || (await speed(sb.base, token, client, keyFile));
    const ok3 = !part('rss') || (await rss(sb.base, keyFile));
    done('backfill');
    return ok1 && ok2 && ok3 ? 0 : 1;
  } finally {
    sb.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Control = (method: string, path: string, b?: unknown) => Promise<Response>;

/** Registrations stored per invoice number with `prefix`. */
async function stored(client: ReturnType<typeof createPartnerClient>, prefix: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let page = 1; ; page++) {
    const r = await client.call('listTireProtectionRegistrations', {}, undefined, { query: { pageSize: 1000, page } });
    const list = r.body as { results: { invoiceNumber: string }[]; totalPages: number };
    for (const x of list.results) if (x.invoiceNumber.startsWith(`${prefix}-`)) out.set(x.invoiceNumber, (out.get(x.invoiceNumber) ?? 0) + 1);
    if (page >= list.totalPages) return out;
  }
}

async function exactlyOnce(base: string, keyFile: string, client: ReturnType<typeof createPartnerClient>, control: Control): Promise<boolean> {
  const work = join(dir, 'once');
  rmSync(work, { recursive: true, force: true });
  require('node:fs').mkdirSync(work);
  writeFileSync(join(work, 'flow.http'), FLOW);
  await writeCsv(join(work, 'rows.csv'), 'ONCE', ROWS);
  const path = '/api/v3/tire-protection/registrations';
  const each = Math.max(1, Math.min(2000, Math.round(ROWS / 100)));
  const faults = [
    { method: 'POST', path, fault: 503, times: each },
    { method: 'POST', path, fault: 500, when: 'after-commit', times: each },
    { method: 'POST', path, fault: 'close', when: 'after-commit', times: each },
    { method: 'POST', path, fault: 'timeout', timeoutMs: 3000, times: Math.max(1, Math.round(each / 10)) },
    { method: 'POST', path, fault: 429, retryAfter: 1, times: Math.max(1, Math.round(each / 10)) },
  ];
  const res = await control('POST', 'faults', faults);
  if (res.status !== 201) throw new Error(`faults: ${res.status} ${await res.text()}`);
  const args = [join(work, 'flow.http'), '--base-url', base, '--iss', 'P1', '--key', keyFile, '--jobs', String(JOBS), '--resume', '--reporter', 'json', '--out', join(work, 'report.json')];
  const started = performance.now();
  const probe = performance.now();
  await runCli([...args.slice(0, 7), '--dry-run']);
  const checkMs = performance.now() - probe;
  let kills = 0;
  let runs = 0;
  let code: number | null = null;
  while (kills < KILLS) {
    runs++;
    const r = await runCli(args, checkMs + Math.random() * Math.max(1000, checkMs * 2));
    if (r.code === null) kills++;
    else if (r.code === 0) break;
  }
  for (let i = 0; i < 20 && code !== 0; i++, runs++) code = (await runCli(args)).code;
  const seconds = (performance.now() - started) / 1000;
  const per = await stored(client, 'ONCE');
  const duplicates = [...per.values()].filter((n) => n > 1).length;
  const missing = ROWS - per.size;
  console.log(`exactly once: ${ROWS} rows, ${kills} SIGKILLs, ${runs} runs, last exit ${code}, ${seconds.toFixed(1)} s: expected ${ROWS}, stored ${per.size}, duplicates ${duplicates}, missing ${missing}`);
  return duplicates === 0 && missing === 0 && code === 0;
}

async function speed(base: string, token: () => Promise<string>, client: ReturnType<typeof createPartnerClient>, keyFile: string): Promise<boolean> {
  const timed = async (prefix: string, journal: boolean) => {
    const work = join(dir, prefix);
    require('node:fs').mkdirSync(work);
    const flowPath = join(work, 'flow.http');
    writeFileSync(flowPath, FLOW);
    await writeCsv(join(work, 'rows.csv'), prefix, SPEED_ROWS);
    const t = performance.now();
    const s = await runBackfill({ flow: parseFlow(FLOW, flowPath), flowText: FLOW, flowPath, dataPath: join(work, 'rows.csv'), environment: { id: 'local', baseUrl: base, partnerId: 'P1', token }, readFile: async () => '', jobs: JOBS, ...(journal ? {} : { journal: false as const }) });
    if (s.created !== SPEED_ROWS) throw new Error(`${prefix}: ${JSON.stringify(s)}`);
    return SPEED_ROWS / ((performance.now() - t) / 1000);
  };
  const bare = async (prefix: string) => {
    let next = 1;
    const t = performance.now();
    await Promise.all(Array.from({ length: JOBS }, async () => {
      for (let n = next++; n <= SPEED_ROWS; n = next++) await client.call('createTireProtectionRegistration', {}, body(prefix, n) as never);
    }));
    return SPEED_ROWS / ((performance.now() - t) / 1000);
  };
  // What the user runs: `tpp run --data` from its start to its exit, so with the row sender's own process and V8
  // options (cli/runnerProcess.ts) and both start-ups counted.
  const cli = async (prefix: string) => {
    const work = join(dir, prefix);
    require('node:fs').mkdirSync(work);
    writeFileSync(join(work, 'flow.http'), FLOW);
    await writeCsv(join(work, 'rows.csv'), prefix, SPEED_ROWS);
    const t = performance.now();
    const r = await runCli([join(work, 'flow.http'), '--base-url', base, '--iss', 'P1', '--key', keyFile, '--jobs', String(JOBS)]);
    if (r.code !== 0) throw new Error(`${prefix}: tpp run exited ${r.code}`);
    return SPEED_ROWS / ((performance.now() - t) / 1000);
  };
  // The peer of that: the loop an integrator writes by hand, in its own process, start to exit too.
  const peer = async (prefix: string) => {
    const t = performance.now();
    const child = spawn(process.execPath, [join(__dirname, 'bench-backfill-peer.mjs'), base, keyFile, prefix, String(SPEED_ROWS), String(JOBS)], { stdio: ['ignore', 'ignore', 'inherit'] });
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    if (code !== 0) throw new Error(`${prefix}: the peer exited ${code}`);
    return SPEED_ROWS / ((performance.now() - t) / 1000);
  };
  await bare('WARM'); // the sandbox's and the client's first requests
  await timed('WARMB', false); // the contract's schemas and the diagnostics, built on first use
  // The machine is shared: the five arms take turns, ROUNDS times, and each arm's median is kept.
  const rates: Record<'bare' | 'off' | 'on' | 'cli' | 'peer', number[]> = { bare: [], off: [], on: [], cli: [], peer: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    rates.bare.push(await bare(`BARE${round}`));
    rates.off.push(await timed(`JOFF${round}`, false));
    rates.on.push(await timed(`JON${round}`, true));
    rates.cli.push(await cli(`CLI${round}`));
    rates.peer.push(await peer(`PEER${round}`));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const [bareRate, offRate, onRate] = [median(rates.bare), median(rates.off), median(rates.on)];
  const ratio = onRate / bareRate;
  const cost = 1 - onRate / offRate;
  const all = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
  console.log(`speed: ${SPEED_ROWS} rows, --jobs ${JOBS}, no faults, a fresh JWT per request in every arm, median of ${ROUNDS} rounds (${all(rates.bare)}, ${all(rates.off)}, ${all(rates.on)} rows/s): bare client ${bareRate.toFixed(0)} rows/s, backfill with journal ${onRate.toFixed(0)} rows/s (ratio ${ratio.toFixed(2)}, target >= 0.8), without journal ${offRate.toFixed(0)} rows/s (journal cost ${(cost * 100).toFixed(1)} %, target <= 10 %)`);
  const [cliRate, peerRate] = [median(rates.cli), median(rates.peer)];
  console.log(`speed, each in a process of its own from its start to its exit (for information: the target is judged on the arms above): tpp run --data over the same ${SPEED_ROWS} rows ${cliRate.toFixed(0)} rows/s (${all(rates.cli)}), a hand-written loop with undici and jose (scripts/bench-backfill-peer.mjs) ${peerRate.toFixed(0)} rows/s (${all(rates.peer)}): ratio ${(cliRate / peerRate).toFixed(2)}`);
  return judgeTarget(ratio >= 0.8 && cost <= 0.1);
}

async function rss(base: string, keyFile: string): Promise<boolean> {
  const work = join(dir, 'rss');
  require('node:fs').mkdirSync(work);
  writeFileSync(join(work, 'flow.http'), FLOW);
  await writeCsv(join(work, 'rows.csv'), 'RSS', RSS_ROWS);
  const t = performance.now();
  const r = await runCli([join(work, 'flow.http'), '--base-url', base, '--iss', 'P1', '--key', keyFile, '--jobs', String(JOBS), '--reporter', 'json', '--out', join(work, 'report.json')]);
  const mib = r.peakRss / 1048576;
  const launcher = r.launcherRss / 1048576;
  // The target is the memory of what the user runs: the row sender and the `tpp run` waiting for it, together.
  const total = mib + launcher;
  console.log(`memory: tpp run --data over ${RSS_ROWS} rows: exit ${r.code}, peak RSS ${total.toFixed(0)} MiB (target <= 150 MiB: ${total <= 150 ? 'met' : 'MISSED'})${launcher ? `: the process sending the rows ${mib.toFixed(0)} MiB, tpp run, which started it and waits, ${launcher.toFixed(0)} MiB` : ''}, ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return r.code === 0 && judgeTarget(total <= 150);
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(err);
    process.exitCode = 2;
  },
);
