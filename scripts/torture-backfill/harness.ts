/**
 * What scripts/torture-backfill.ts runs its scenarios with: a `tpp sandbox` and `tpp run`s from dist, each in a
 * process of its own, workspaces of a v3 registration flow over a CSV, the count of what the sandbox stored, and the
 * judgement of how a backfill ended (docs/backfills.md: every row created, recovered, already done, or a real conflict
 * shown with both values).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createPartnerClient } from '../../src/core/client/client';
import { importPrivateKeyPem } from '../../src/core/jwt/keys';
import { TokenMinter } from '../../src/core/jwt/mint';

export const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const FLOW = readFileSync(join(__dirname, '..', '..', 'examples', 'backfill', 'registrations-v3.http'), 'utf8').replace('./sales-2025.csv', './rows.csv');
const HEAD = 'invoice,enrollDate,customerName,customerEmail,vehicleYear,vehicleMake,vehicleModel,tireBrand,tireModel,tireSize,tirePrice,dot1,dot2,dot3,dot4';
const line = (inv: string, n: number) => `${inv},2025-06-01,Person ${n},p${n}@example.com,2021,Toyota,RAV4,Michelin,Defender2,225/65R17,189.99,DOT U2LL LMLR 1124,DOT U2LL LMLR 2124,DOT U2LL LMLR 3124,DOT U2LL LMLR 4124`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const root = mkdtempSync(join(tmpdir(), 'tpp-torture-'));
let base = '';
let keyFile = '';
let client: ReturnType<typeof createPartnerClient>;

/** Starts the sandbox the runs send to; resolves to its control API and a function that stops it. */
export async function startSandbox(): Promise<{ control: (method: string, path: string, body?: unknown) => Promise<Response>; stop: () => void }> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  keyFile = join(root, 'key.pem');
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(root, 'pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  const sb = spawn(process.execPath, [CLI, 'sandbox', '--partner', `P1=${join(root, 'pub.pem')}`], { stdio: ['ignore', 'pipe', 'ignore'] });
  base = (await new Promise<string>((resolve) => createInterface({ input: sb.stdout as NodeJS.ReadableStream }).once('line', resolve))).trim();
  const origin = new URL(base).origin;
  const minter = new TokenMinter();
  const key = importPrivateKeyPem(readFileSync(keyFile, 'utf8'));
  client = createPartnerClient({ baseUrls: { v3: base }, token: () => minter.mint(key, { iss: 'P1', aud: base }) });
  const control = (method: string, path: string, body?: unknown) => fetch(`${origin}/__tpp/${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { control, stop: () => sb.kill() };
}

/** A workspace: the flow and a CSV of the invoices given. */
export function workspace(name: string, invoices: readonly string[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'flow.http'), FLOW);
  writeCsv(dir, invoices);
  return dir;
}
export const writeCsv = (dir: string, invoices: readonly string[]) => writeFileSync(join(dir, 'rows.csv'), `${HEAD}\n${invoices.map((inv) => line(inv, Number(inv.split('-').at(-1)))).join('\n')}\n`);
export const invoicesOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
export const journalOf = (dir: string) => join(dir, '.tpp', 'runs', 'flow-rows.csv.jsonl');

export interface Row {
  readonly status: string;
  readonly key?: string;
  readonly message?: string;
}
export interface Ran {
  readonly pid: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
  readonly rows: readonly Row[];
  readonly summary?: Record<string, number | boolean | string>;
}

/** Starts `tpp run` in `dir` in a process group of its own (as a terminal's job): `ran` resolves when it exits. */
export function start(dir: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; ran: Promise<Ran> } {
  const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const child = spawn(process.execPath, [CLI, 'run', join(dir, 'flow.http'), '--base-url', base, '--iss', 'P1', '--key', keyFile, '--reporter', 'json', '--out', report, ...extra], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d));
  child.stderr?.on('data', (d: Buffer) => (err += d));
  const ran = new Promise<Ran>((resolve) =>
    child.once('exit', (code, signal) => {
      let parsed: { rows?: Row[]; summary?: Ran['summary'] } = {};
      try {
        parsed = JSON.parse(readFileSync(report, 'utf8')) as typeof parsed;
      } catch {
        // killed before the report was whole
      }
      resolve({ pid: child.pid as number, code, signal, out, err, rows: parsed.rows ?? [], ...(parsed.summary ? { summary: parsed.summary } : {}) });
    }),
  );
  return { child, ran };
}

/** Rows a run stored (created, or found stored by the duplicate check). */
export const sent = (r: Ran) => r.rows.filter((x) => x.status === 'created' || x.status === 'recovered').length;

/** The process `tpp run` (pid) started to send the rows (src/cli/runnerProcess.ts), once it runs (Linux's /proc). */
export async function rowSenderOf(pid: number): Promise<number | undefined> {
  for (let i = 0; i < 1000; i++, await sleep(5)) {
    try {
      const child = Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]);
      if (child > 0) return child;
    } catch {
      return undefined; // tpp run ended
    }
  }
  return undefined;
}

/** Waits until process `pid` has ended (it may be a zombie: /proc says so). */
export async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 3000; i++, await sleep(5)) {
    try {
      if (/^State:\s+[ZX]/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))) return;
    } catch {
      return;
    }
  }
}

/** Waits until process `pid` reads the data file of `dir` before its journal exists: the check pass (run.ts). */
export async function inCheckPass(pid: number, dir: string): Promise<boolean> {
  const data = join(dir, 'rows.csv');
  for (let i = 0; i < 2000 && !existsSync(journalOf(dir)); i++, await sleep(2)) {
    try {
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSafe(`/proc/${pid}/fd/${fd}`) === data)) return !existsSync(journalOf(dir));
    } catch {
      return false; // it ended
    }
  }
  return false;
}
function readlinkSafe(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}

/** Waits until the journal of `dir` has more than `after` `open` lines. */
export async function opened(dir: string, after: number): Promise<void> {
  for (let i = 0; i < 2000; i++, await sleep(5)) {
    try {
      if (readFileSync(journalOf(dir), 'utf8').split('\n').filter((l) => l.startsWith('{"t":"open"')).length > after) return;
    } catch {
      // not made yet
    }
  }
}

/** A conflict's message as docs/backfills.md wants it: both values (`customer.name: "A", stored "B"`). */
const bothValues = (m: string | undefined) => /stored already with other values \(.*\bstored\b/.test(m ?? '');

/** Keys of rows the journal of `dir` ended in a conflict shown with both values. */
function conflictsShown(dir: string): Set<string> {
  const keys = new Set<string>();
  for (const l of readFileSync(journalOf(dir), 'utf8').split('\n')) {
    try {
      const v = JSON.parse(l) as { t?: string; status?: string; key?: string; message?: string };
      if (v.t === 'ended' && v.status === 'conflict' && v.key && bothValues(v.message)) keys.add(v.key);
    } catch {
      // a line cut short
    }
  }
  return keys;
}

/**
 * Rows of a run that did not end as docs/backfills.md accepts: created, recovered (already done rows are not
 * listed), or a real conflict shown with both values, here or, for one reported again from the journal, there.
 */
export function notAccepted(r: Ran, dir: string): number {
  let shown: Set<string> | undefined;
  return r.rows.filter((x) => {
    if (x.status === 'created' || x.status === 'recovered') return false;
    if (x.status !== 'conflict') return true;
    return !bothValues(x.message) && !(x.key !== undefined && (shown ??= conflictsShown(dir)).has(x.key));
  }).length;
}

/**
 * Resumes until a run ends as accepted (at most 10 runs): exit 0, or exit 1 whose only reason is conflicts (a real
 * refusal, which every later --resume reports again).
 * @returns the rows of the last run not accepted (at least 1 when no run ended so), its exit code, and the runs.
 */
export async function finish(dir: string): Promise<{ stuck: number; code: number | null; runs: number; conflicts: number }> {
  let last: { stuck: number; code: number | null; conflicts: number } = { stuck: 1, code: null, conflicts: 0 };
  for (let runs = 1; runs <= 10; runs++) {
    const r = await start(dir, ['--resume']).ran;
    const stuck = notAccepted(r, dir);
    const conflicts = r.rows.filter((x) => x.status === 'conflict').length;
    last = { stuck, code: r.code, conflicts };
    if (r.code === 0 || (r.code === 1 && stuck === 0 && conflicts > 0)) return { ...last, runs };
  }
  return { ...last, stuck: Math.max(last.stuck, 1), runs: 10 };
}

/** Registrations stored per invoice number of `prefix`: duplicates and missing against `expected`, and how many. */
export async function count(prefix: string, expected: readonly string[]): Promise<{ duplicates: number; missing: number; stored: number }> {
  const per = new Map<string, number>();
  for (let page = 1; ; page++) {
    const r = await client.call('listTireProtectionRegistrations', {}, undefined, { query: { pageSize: 1000, page } });
    const list = r.body as { results: { invoiceNumber: string }[]; totalPages: number };
    for (const x of list.results) if (x.invoiceNumber.startsWith(`${prefix}-`)) per.set(x.invoiceNumber, (per.get(x.invoiceNumber) ?? 0) + 1);
    if (page >= list.totalPages) break;
  }
  return { duplicates: [...per.values()].filter((n) => n > 1).length, missing: expected.filter((inv) => !per.has(inv)).length, stored: [...per.values()].reduce((a, b) => a + b, 0) };
}
