// Benchmark of `tpp proxy`: the same upstream (the Local sandbox from dist/sandbox.js, its own
// process) called directly, through `tpp proxy` (dist/cli.js proxy --log json, its own process, every exchange
// logged and checked against the contract), through a bare node:http pass-through proxy (the physical limit of
// a proxy in Node) and through a bare undici dispatch() pass-through (tpp proxy's own transport, nothing else). This process only generates load over loopback: verify-token with a fresh ES256 token minted
// with node:crypto per request (no cache), keep-alive connections. Then 401s (iat in milliseconds) one at a time
// through `tpp proxy`, timing from the end of each answer to its explained JSON line on the proxy's stdout.
//   npm run bench:proxy [-- --seconds 8 --rounds 4 --concurrency 8 --explained 50]   (seconds per target, split over the rounds)
//   --cpu-prof <dir>: V8 CPU profiles of the proxies' processes into <dir> (node --cpu-prof), to see where the time goes
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { done, sized } from './bench-size.mjs';
import { cpuMsOf, measure, pool, startServer, stopServer, type Figure } from './bench-sandbox/load';
import { mint } from './bench-sandbox/token';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: sized('4', '1') },
    seconds: { type: 'string', default: sized('8', '1') },
    concurrency: { type: 'string', default: '8' },
    explained: { type: 'string', default: sized('50', '3') },
    'cpu-prof': { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Math.max(1, Number(values.rounds));
const CONCURRENCY = Number(values.concurrency);
const EXPLAINED = Number(values.explained);
const PARTNER = 'BENCH';
const dir = mkdtempSync(join(tmpdir(), 'tpp-bench-proxy-'));
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pubFile = join(dir, 'bench.pub.pem');
const keyFile = join(dir, 'bench.key.pem');
writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));

/** A proxy process whose first stdout line is its address; later lines are handed to `onLine` with their arrival time. */
async function spawnProxy(name: string, cmd: string[], onLine?: (line: string, at: number) => void): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, cmd, { stdio: ['ignore', 'pipe', openSync(join(dir, `${name}.stderr.log`), 'w')] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const base = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before printing its address; see ${dir}`)));
  });
  child.removeAllListeners('exit');
  if (onLine) lines.on('line', (l) => onLine(l, performance.now()));
  return { child, base };
}

const stop = async (c: ChildProcess) => {
  if (c.exitCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  await exited;
};

/**
 * A balanced Latin square of order n (Williams 1949; n even): n orders of 0..n-1 in which every target comes right
 * after every other target exactly once.
 */
function williams(n: number): number[][] {
  const first = Array.from({ length: n }, (_, k) => (k % 2 === 0 ? n - k / 2 : (k + 1) / 2) % n);
  return first.map((_, row) => first.map((x) => (x + row) % n));
}

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const pct = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor((p / 100) * a.length))] ?? NaN;

async function main(): Promise<void> {
  const upstream = await startServer('sandbox', join(__dirname, 'bench-sandbox', 'serve-sandbox.ts'), ['--partner', PARTNER, '--pem', pubFile, '--key', keyFile, '--quiet'], dir, 120_000);
  const aud = `${upstream.origin}/api/v3`;
  const explainedAt = new Map<string, number>();
  const tpp = await spawnProxy('tpp-proxy', [...(values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : []), join(__dirname, '..', 'dist', 'cli.js'), 'proxy', '--target', aud, '--partner', `${PARTNER}=${pubFile}`, '--log', 'json'], (line, at) => {
    const m = /"path":"([^"]*\?n=\d+)"/.exec(line);
    if (m?.[1]) explainedAt.set(m[1], at);
  });
  const prof = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
  const bare = await spawnProxy('bare-proxy', [...prof, '--import', 'tsx', join(__dirname, 'bench-proxy', 'serve-bare.ts'), '--target', upstream.origin]);
  const bareUndici = await spawnProxy('bare-undici-proxy', [...prof, '--import', 'tsx', join(__dirname, 'bench-proxy', 'serve-bare-undici.ts'), '--target', upstream.origin]);
  const targets: { name: string; origin: string; pid?: number }[] = [
    { name: 'direct (upstream)', origin: upstream.origin },
    { name: 'tpp proxy', origin: tpp.base.replace(/\/api\/v3$/, ''), pid: tpp.child.pid },
    { name: 'bare node:http proxy', origin: bare.base, pid: bare.child.pid },
    { name: 'bare undici proxy', origin: bareUndici.base, pid: bareUndici.child.pid },
  ];
  const figures = new Map<string, Figure & { proxyCpuMs?: number }>();
  try {
    // In turn, ROUNDS times: a machine whose other load drifts during the run weighs on every target alike. The order
    // of each round is a row of a balanced Latin square (williams()): a target measured right after another pays for
    // the garbage that one left in the upstream and the client (in a fixed order the target after `direct` came out
    // 0.1x lower, whichever it was), so each target follows each other target equally often.
    const make = () => ({ method: 'GET' as const, path: '/api/v3/verify-token', headers: { authorization: `Bearer ${mint(privateKey, PARTNER, aud)}` } });
    const pools = targets.map((t) => pool(t.origin, CONCURRENCY));
    for (const p of pools) await measure(p, { count: 300, seconds: 1, concurrency: CONCURRENCY, expect: 200 }, make); // warm-up
    const rounds = new Map<string, { f: Figure; cpu?: number }[]>(targets.map((t) => [t.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const i of williams(targets.length)[r % targets.length] as number[]) {
        const t = targets[i] as (typeof targets)[number];
        const cpu0 = cpuMsOf(t.pid);
        const f = await measure(pools[i] as ReturnType<typeof pool>, { count: 10_000_000, seconds: SECONDS / ROUNDS, concurrency: CONCURRENCY, expect: 200 }, make);
        const cpu1 = cpuMsOf(t.pid);
        rounds.get(t.name)?.push({ f, ...(cpu0 !== undefined && cpu1 !== undefined ? { cpu: cpu1 - cpu0 } : {}) });
      }
    }
    for (const p of pools) await p.close();
    for (const [name, rs] of rounds) {
      const count = rs.reduce((a, r) => a + r.f.count, 0);
      const cpu = rs.every((r) => r.cpu !== undefined) ? rs.reduce((a, r) => a + (r.cpu ?? 0), 0) / count : undefined;
      // Throughput over the whole time; latencies: the median of the rounds' figures.
      figures.set(name, { count, rps: rs.reduce((a, r) => a + r.f.rps, 0) / rs.length, p50: pct(rs.map((r) => r.f.p50), 50), p99: pct(rs.map((r) => r.f.p99), 50), unexpected: rs.reduce((a, r) => a + r.f.unexpected, 0), ...(cpu !== undefined ? { proxyCpuMs: cpu } : {}) });
    }
    // 401 -> explained log line: one bad token at a time, so that each line's latency is its own.
    await new Promise((r) => setTimeout(r, 500));
    const p = pool(targets[1]?.origin as string, 1);
    const waits: number[] = [];
    for (let i = 0; i < EXPLAINED; i++) {
      const path = `/api/v3/verify-token?n=${i}`;
      const now = Math.floor(Date.now() / 1000);
      const bad = mint(privateKey, PARTNER, aud).split('.');
      const claims = Buffer.from(JSON.stringify({ iss: PARTNER, aud, iat: now * 1000, exp: now + 300 })).toString('base64url');
      const res = await p.request({ method: 'GET', path, headers: { authorization: `Bearer ${bad[0]}.${claims}.${bad[2]}` } });
      await res.body.text();
      const answered = performance.now();
      const deadline = answered + 5000;
      while (!explainedAt.has(path) && performance.now() < deadline) await new Promise((r) => setImmediate(r));
      waits.push(Math.max(0, (explainedAt.get(path) ?? Infinity) - answered));
    }
    await p.close();

    const direct = figures.get('direct (upstream)') as Figure;
    const viaTpp = figures.get('tpp proxy') as Figure & { proxyCpuMs?: number };
    const vsPeer = (name: string) => {
      const peer = figures.get(name) as Figure & { proxyCpuMs?: number };
      return `throughput ${fmt(viaTpp.rps / peer.rps, 2)}x, p50 ${fmt(viaTpp.p50 - peer.p50, 2)} ms more, CPU per request ${viaTpp.proxyCpuMs !== undefined && peer.proxyCpuMs ? `${fmt(viaTpp.proxyCpuMs / peer.proxyCpuMs, 2)}x` : 'n/a'}`;
    };
    console.log(`\ntpp proxy benchmark: GET verify-token, a fresh ES256 token per request, ${CONCURRENCY} keep-alive connections, ${SECONDS} s per target in ${ROUNDS} rounds taken in turn, same upstream (Local sandbox) in the same run\n`);
    console.log('target                   req/s   p50 ms   p99 ms   proxy CPU ms/req   req/s vs direct   added p50 ms');
    for (const [name, f] of figures) {
      const cpu = (f as { proxyCpuMs?: number }).proxyCpuMs;
      console.log(`${name.padEnd(22)} ${fmt(f.rps).padStart(7)} ${fmt(f.p50, 2).padStart(8)} ${fmt(f.p99, 2).padStart(8)} ${(cpu === undefined ? '-' : fmt(cpu, 3)).padStart(18)} ${fmt(f.rps / direct.rps, 2).padStart(17)} ${fmt(f.p50 - direct.p50, 2).padStart(14)}`);
    }
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const ratio = viaTpp.rps / direct.rps;
    const added = viaTpp.p50 - direct.p50;
    const explained = Math.max(...waits);
    console.log(`\ntpp proxy vs direct: throughput ${fmt(ratio, 2)}x (target >= 0.8: ${met(ratio >= 0.8)}), added p50 ${fmt(added, 2)} ms (target <= 2 ms: ${met(added <= 2)})`);
    console.log(`tpp proxy vs the physical limit (bare node:http proxy): ${vsPeer('bare node:http proxy')}`);
    console.log(`tpp proxy vs its own transport alone (bare undici dispatch() proxy): ${vsPeer('bare undici proxy')}`);
    console.log(`401 -> explained log line (--log json on the proxy's stdout), ${waits.length} one at a time: p50 ${fmt(pct(waits, 50), 1)} ms, p99 ${fmt(pct(waits, 99), 1)} ms, max ${fmt(explained, 1)} ms (target <= 300 ms: ${met(explained <= 300)})`);
  } finally {
    await stop(tpp.child);
    await stop(bare.child);
    await stop(bareUndici.child);
    await stopServer(upstream);
    rmSync(dir, { recursive: true, force: true });
  }
  done('proxy');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
