// The load-generating side of the sandbox benchmark: starts each server in its own process, sends requests over
// loopback with keep-alive connections (undici), a freshly minted token on each, and reports req/s, p50, p99 and the
// server's memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { buildSync } from 'esbuild';
import { Pool } from 'undici';

/** A server under test: its process, origin and what it reported at start. */
export interface Server {
  readonly name: string;
  readonly child: ChildProcess;
  readonly origin: string;
  readonly stored: number;
  readonly startSeconds: number;
  readonly seedSeconds: number;
  readonly stderrFile: string;
}

/** Plain JavaScript made of each server script, by script. */
const compiledScripts = new Map<string, string>();

/**
 * Where a server script's plain JavaScript goes: `out/<its directory>/<name>.bench.cjs` at the repository's root,
 * where generated files go (ignored by git and ESLint alike). Its packages resolve from there as the script's do (the
 * repository's node_modules); its `__dirname` is the script's own directory (see {@link compiled}).
 */
export function compiledPath(script: string): string {
  const root = resolve(__dirname, '..', '..');
  return join(root, 'out', relative(root, dirname(resolve(script))), basename(script).replace(/\.ts$/, '.bench.cjs'));
}

/**
 * `script` bundled by esbuild into {@link compiledPath} (its packages left to require): servers run without tsx,
 * whose loader alone holds about 50 MiB resident, so that the memory printed is the server's. Removed by
 * {@link removeCompiled}, and at this process's exit at the latest.
 */
export function compiled(script: string): string {
  let out = compiledScripts.get(script);
  if (!out) {
    out = compiledPath(script);
    if (compiledScripts.size === 0) process.once('exit', removeCompiled);
    // `__dirname` stays the script's directory: `join(__dirname, '../../dist/sandbox.js')` names the repository's
    // dist/, not out/dist/, from the bundle one directory deeper under out/.
    buildSync({ entryPoints: [script], outfile: out, bundle: true, platform: 'node', format: 'cjs', packages: 'external', logLevel: 'error', define: { __dirname: JSON.stringify(dirname(resolve(script))) } });
    compiledScripts.set(script, out);
  }
  return out;
}

/** Removes the plain JavaScript made of the server scripts, and the directories made for it when left empty. */
export function removeCompiled(): void {
  for (const file of compiledScripts.values()) {
    rmSync(file, { force: true });
    for (let d = dirname(file); basename(d) !== 'out' && d !== dirname(d); d = dirname(d)) {
      try {
        rmdirSync(d);
      } catch {
        break; // not empty: something else lives there
      }
    }
  }
  compiledScripts.clear();
  process.removeListener('exit', removeCompiled);
}

/** How a server's process is started: Node options and environment (default: none, and this process's). */
export interface ServerProcess {
  readonly execArgv?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Starts `script` (compiled to plain JavaScript) in its own process and waits for its ready line (JSON with origin,
 * stored, seedSeconds). Its stderr goes to `<dir>/<name>.stderr.log`. Rejects when it exits first or after `timeoutMs`.
 */
export async function startServer(name: string, script: string, args: string[], dir: string, timeoutMs: number, how: ServerProcess = {}): Promise<Server> {
  const stderrFile = join(dir, `${name.replace(/\W+/g, '-')}.stderr.log`);
  const file = compiled(script);
  const t0 = performance.now();
  const child = spawn(process.execPath, [...(how.execArgv ?? []), file, ...args], { stdio: ['ignore', 'pipe', openSync(stderrFile, 'w')], env: how.env ?? process.env });
  const ready = await new Promise<{ origin: string; stored: number; seedSeconds: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: not ready within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as { origin: string; stored: number; seedSeconds: number });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready: ${readFileSync(stderrFile, 'utf8').trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
  child.removeAllListeners('exit');
  return { name, child, stderrFile, startSeconds: (performance.now() - t0) / 1000, ...ready };
}

/** Stops a server (SIGTERM, then SIGKILL after 10 s) and waits for its exit. */
export async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  const t = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
}

/**
 * CPU time (user + system) a process has used, in milliseconds (Linux /proc; undefined elsewhere). Per request, it
 * compares two servers' costs even on a busy machine, where throughput mostly measures the other load.
 */
export function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

/** Resident memory of a process now and at its peak, in MiB (Linux /proc; undefined elsewhere). */
export function rssOf(pid: number | undefined): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** One request of a measured loop. */
export interface Req {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly headers: Record<string, string>;
}

/** Throughput and latency of one loop. */
export interface Figure {
  readonly count: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Answers with another status than expected (each is printed once per loop as a warning). */
  readonly unexpected: number;
  /** Server CPU milliseconds per request (when measured). */
  readonly cpuMs?: number;
}

export function pool(origin: string, connections: number): Pool {
  return new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * Sends at most `count` requests made by `make` (which mints the token) over `concurrency` connections, and stops
 * early after `seconds`. Latency includes minting the token (what a client pays for each request).
 */
export async function measure(p: Pool, opts: { count: number; seconds: number; concurrency: number; expect: number }, make: (i: number) => Req): Promise<Figure> {
  const lat: number[] = [];
  let next = 0;
  let unexpected = 0;
  let firstBad: string | undefined;
  const t0 = performance.now();
  const end = t0 + opts.seconds * 1000;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < opts.count && performance.now() < end) {
        const i = next++;
        const s = performance.now();
        const r = make(i);
        const res = await p.request({ method: r.method, path: r.path, body: r.body, headers: r.headers });
        const text = await res.body.text();
        lat.push(performance.now() - s);
        if (res.statusCode !== opts.expect) {
          unexpected++;
          firstBad ??= `${r.method} ${r.path} -> ${res.statusCode} ${text.slice(0, 200)}`;
        }
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  if (firstBad) process.stderr.write(`  WARNING: ${unexpected} unexpected answers, e.g. ${firstBad}\n`);
  lat.sort((a, b) => a - b);
  return { count: lat.length, rps: lat.length / secs, p50: pct(lat, 50), p99: pct(lat, 99), unexpected };
}
