/**
 * Helpers of the OpenAPI samples test (openapi.test.ts): the pinned Prism, Spectral and openapi-typescript from
 * node_modules/.bin, run on the documents `tpp openapi` prints, and one checked exchange through a Prism proxy.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { importPKCS8, SignJWT } from 'jose';
import { ROOT } from './harness';

export const BIN = join(ROOT, 'node_modules/.bin');

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Prism (`prism proxy <doc> <upstream> --errors` or `prism mock <doc>`) on a free port, once it listens. */
export async function startPrism(args: readonly string[]): Promise<{ url: string; log: () => string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(join(BIN, 'prism'), [...args, '-h', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (log += s));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      log += s;
      if (log.includes('Prism is listening')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`prism ${args[0]} exited ${code}: ${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Spectral's findings on `file` with the committed ruleset (.spectral.yaml): `code severity path message` lines; severity 0 = error. */
export function spectral(file: string): { errors: string[]; all: string[] } {
  const r = spawnSync(join(BIN, 'spectral'), ['lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '-f', 'json', '--quiet', '--fail-severity', 'error'], { encoding: 'utf8', timeout: 120000 });
  const start = r.stdout.indexOf('[');
  if (start < 0) throw new Error(`spectral printed no results (exit ${r.status}): ${r.stdout}${r.stderr}`);
  const results = JSON.parse(r.stdout.slice(start, r.stdout.lastIndexOf(']') + 1)) as { code: string; severity: number; path: string[]; message: string }[];
  const line = (x: (typeof results)[number]) => `${x.code} ${x.severity} ${x.path.join('.')} ${x.message}`;
  return { errors: results.filter((x) => x.severity === 0).map(line), all: results.map(line) };
}

/** Mints a partner JWT (ES256) for `aud`, as an integrator's client would: a fresh one per request. */
export async function mint(privateKeyFile: string, iss: string, aud: string): Promise<string> {
  const key = await importPKCS8(readFileSync(privateKeyFile, 'utf8'), 'ES256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({}).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).setIssuedAt(now).setIssuer(iss).setAudience(aud).setExpirationTime(now + 300).sign(key);
}

/** One request through Prism and what it said of it. */
export interface Exchange {
  readonly label: string;
  readonly status: number;
  readonly body: unknown;
  /** Prism's complaint: the `sl-violations` header, or its VIOLATIONS / UNPROCESSABLE error body; '' when none. */
  readonly violation: string;
  /** The answer's headers (as Prism passed them on). */
  readonly headers: Headers;
}

/** Sends `method path` with `token` and `body` to Prism at `url`; answers the status, the parsed body and any violation. */
export async function send(url: string, label: string, method: string, path: string, token: string, body?: unknown): Promise<Exchange> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: kept as text
  }
  const type = typeof parsed === 'object' && parsed !== null ? String((parsed as { type?: unknown }).type ?? '') : '';
  const header = res.headers.get('sl-violations') ?? '';
  const violation = header || (/stoplight\.io\/prism\/errors/.test(type) ? text : '');
  return { label, status: res.status, body: parsed, violation, headers: res.headers };
}
