// Benchmark of `tpp run` (docs/flows.md): 1,000 sequential requests, each with one assertion (`?? status == 200` on
// GET {{baseUrl}}/verify-token), against one `tpp sandbox` started from dist, in the same run:
//   - tpp run (dist/cli.js), which mints a fresh ES256 JWT per request (spec: Authentication 7) and checks each answer;
//   - httpyac 6 (`httpyac send <file> --all`), the peer, given one pre-minted token (it mints none);
//   - the floor: a bare fetch loop in this process with the pre-minted token, checking each status;
//   - the floor of what tpp run does: the same loop minting a fresh ES256 JWT per request (node:crypto), so that the
//     sandbox verifies a new token each time as it does for tpp run: the least code that sends tpp run's requests.
// Each is timed as wall time (the two CLIs include their start-up), median of --rounds runs; printed with the ratios
// tpp/httpyac and each to the floor. Target: tpp run takes at most half of httpyac's wall time (median ratio ≤ 0.5×),
// judged in the last line and the exit code (1 when missed).
//   npm run bench:run                        (1,000 requests, 3 rounds)
//   options: --requests N  --rounds R   (TPP_BENCH_SMOKE=1, scripts/bench-size.mjs: 20 requests, 1 round; the target
//   is printed, not judged: at that size the CLIs' start-up is most of the time)
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mint } from './bench-sandbox/token';
import { done, judgeTarget, sized } from './bench-size.mjs';

const { values } = parseArgs({ options: { requests: { type: 'string', default: sized('1000', '20') }, rounds: { type: 'string', default: sized('3', '1') } } });
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
const HTTPYAC = join(ROOT, 'node_modules/.bin/httpyac');
const PARTNER = 'BENCH-RUN';
/** The target: tpp run's wall time over httpyac's, at most. */
const TARGET_RATIO = 0.5;

const dir = mkdtempSync(join(tmpdir(), 'tpp-bench-run-'));
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pubFile = join(dir, 'bench.pub.pem');
const keyFile = join(dir, 'bench.key.pem');
writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));

/** Starts `tpp sandbox` from dist; resolves with its version 3 base address and a stop function. */
async function startSandbox(): Promise<{ base: string; stop: () => void }> {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--partner', `${PARTNER}=${pubFile}`], { stdio: ['ignore', 'pipe', 'ignore'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
    });
    child.on('exit', (code) => reject(new Error(`tpp sandbox exited ${code}`)));
  });
  return { base, stop: () => child.kill('SIGTERM') };
}

/** The flow file: `n` requests, each with one assertion; `auth` adds the pre-minted token (httpyac mints none). */
function flowText(base: string, n: number, token?: string): string {
  const lines = [`@baseUrl = ${base}`, ...(token ? [`@token = ${token}`] : []), ''];
  for (let i = 0; i < n; i++) lines.push('###', `GET {{baseUrl}}/verify-token`, ...(token ? ['Authorization: Bearer {{token}}'] : []), '', '?? status == 200', '');
  return lines.join('\n');
}

/** Wall time of a command, in milliseconds; throws when it fails. */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): number {
  const t = performance.now();
  // httpyac reads only files under its working directory.
  const r = spawnSync(cmd, args, { cwd: dir, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 600_000 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).slice(-2000)}`);
  return ms;
}

/** The floor: sequential fetches with one token (or a fresh one per request from `token`), each status checked. */
async function fetchLoop(base: string, token: string | (() => string), n: number): Promise<number> {
  const t = performance.now();
  const get = () => fetch(`${base}/verify-token`, { headers: { authorization: `Bearer ${typeof token === 'string' ? token : token()}` } });
  for (let i = 0; i < n; i++) {
    // A kept-alive connection the server has just closed fails the request that reused it (undici's race, not the
    // server's answer): that one request is sent again on a new connection, as tpp run's client would.
    const res = await get().catch(get);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`fetch: ${res.status}`);
  }
  return performance.now() - t;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s (${((ms * 1000) / REQUESTS).toFixed(0)} µs/request)`;

async function main(): Promise<void> {
  const sb = await startSandbox();
  try {
    const token = mint(privateKey, PARTNER, sb.base);
    const tppFile = join(dir, 'tpp.http');
    writeFileSync(tppFile, flowText(sb.base, REQUESTS));
    writeFileSync(join(dir, 'httpyac.http'), flowText(sb.base, REQUESTS, token));
    const env = { ...process.env, TPP_BASE_URL: sb.base, TPP_PARTNER_ID: PARTNER, TPP_PRIVATE_KEY_FILE: keyFile, NO_COLOR: '1' };
    const times = { tpp: [] as number[], httpyac: [] as number[], fetch: [] as number[], fresh: [] as number[] };
    await fetchLoop(sb.base, token, sized(50, 5)); // warm the sandbox's code paths once
    for (let round = 1; round <= ROUNDS; round++) {
      times.tpp.push(timed(process.execPath, [CLI, 'run', tppFile, '--reporter', 'json', '--out', join(dir, 'tpp.json')], env));
      times.httpyac.push(timed(HTTPYAC, ['send', 'httpyac.http', '--all', '--output', 'none', '--bail'], env));
      times.fetch.push(await fetchLoop(sb.base, token, REQUESTS));
      times.fresh.push(await fetchLoop(sb.base, () => mint(privateKey, PARTNER, sb.base), REQUESTS));
      console.log(`round ${round}: tpp run ${fmt(times.tpp.at(-1)!)}, httpyac ${fmt(times.httpyac.at(-1)!)}, fetch ${fmt(times.fetch.at(-1)!)}, fetch with fresh JWTs ${fmt(times.fresh.at(-1)!)}`);
    }
    const tpp = median(times.tpp);
    const yac = median(times.httpyac);
    const floor = median(times.fetch);
    const fresh = median(times.fresh);
    console.log(`\n${REQUESTS} sequential requests, one assertion each, one tpp sandbox; median of ${ROUNDS} rounds (wall time, CLIs include start-up):`);
    console.log(`  tpp run (a fresh JWT per request)   ${fmt(tpp)}`);
    console.log(`  httpyac send --all (one token)      ${fmt(yac)}`);
    console.log(`  fetch loop (floor, one token)       ${fmt(floor)}`);
    console.log(`  fetch loop, a fresh JWT per request ${fmt(fresh)} (the least code doing what tpp run does)`);
    const ratio = tpp / yac;
    console.log(`  tpp run / httpyac = ${ratio.toFixed(2)}×; tpp run / floor = ${(tpp / floor).toFixed(2)}×; httpyac / floor = ${(yac / floor).toFixed(2)}×`);
    console.log(`  tpp run / the fresh-JWT floor = ${(tpp / fresh).toFixed(2)}×; the fresh-JWT floor / httpyac = ${(fresh / yac).toFixed(2)}× (what a fresh token per request costs the sandbox and the client: ${(((fresh - floor) * 1000) / REQUESTS).toFixed(0)} µs/request)`);
    console.log(`Target: tpp run ≤ ${TARGET_RATIO}× httpyac's wall time for ${REQUESTS} asserted requests — ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'} (median ratio ${ratio.toFixed(2)}×).`);
    if (!judgeTarget(ratio <= TARGET_RATIO)) process.exitCode = 1;
  } finally {
    sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  done('run');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
