/**
 * npx tsx scripts/torture-backfill.ts [-- --trials 30 --rows 400 --fault-rows 1000 --only crash,tmpdir,sigint,csv,journal,cut]
 * (after `node scripts/build.mjs`: it runs dist/cli.js)
 *
 * Tries to wedge a backfill from outside (docs/backfills.md), as a user or a CI job would: `tpp run` over a CSV of
 * version 3 registrations, sent to `tpp sandbox`, both from dist in processes of their own, each run's report read
 * from `--reporter json --out`. After every scenario the backfill is resumed until it exits 0, and the sandbox's
 * registrations are counted per invoice number. Figures printed per scenario: duplicates (an invoice stored twice),
 * missing (a row never stored), stuck (a row whose last word is not created, recovered, already done or a conflict
 * shown with both values), and what the scenario measures besides.
 *
 * - crash: `tpp run` SIGKILLed just after it opened the journal, then three `--resume` at once, each with its own
 *   $TMPDIR: exactly one may send, the others exit 2 naming the run that holds the journal (`--trials` times).
 * - tmpdir: two runs of one journal at once, with different $TMPDIR, no crash before.
 * - sigint: Ctrl+C to the process group (as a terminal sends it), and SIGINT, SIGTERM, SIGHUP to `tpp` alone: exit
 *   130, the rows not sent counted right.
 * - csv: a run stopped, then CSV rows inserted, removed and reordered before `--resume`.
 * - journal: a run SIGKILLed, then its journal cut at a random byte, emptied or deleted before resuming.
 * - cut: `truncated-json` after the commit on 3 % of the creates (`--fault-rows` rows).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createPartnerClient } from '../src/core/client/client';
import { importPrivateKeyPem } from '../src/core/jwt/keys';
import { TokenMinter } from '../src/core/jwt/mint';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const { values } = parseArgs({ options: { trials: { type: 'string', default: '30' }, rows: { type: 'string', default: '400' }, 'fault-rows': { type: 'string', default: '1000' }, only: { type: 'string' } } });
const TRIALS = Number(values.trials);
const ROWS = Number(values.rows);
const FAULT_ROWS = Number(values['fault-rows']);
const part = (name: string) => !values.only || values.only.split(',').includes(name);
const root = mkdtempSync(join(tmpdir(), 'tpp-torture-'));
const FLOW = readFileSync(join(__dirname, '..', 'examples', 'backfill', 'registrations-v3.http'), 'utf8').replace('./sales-2025.csv', './rows.csv');
const HEAD = 'invoice,enrollDate,customerName,customerEmail,vehicleYear,vehicleMake,vehicleModel,tireBrand,tireModel,tireSize,tirePrice,dot1,dot2,dot3,dot4';
const line = (inv: string, n: number) => `${inv},2025-06-01,Person ${n},p${n}@example.com,2021,Toyota,RAV4,Michelin,Defender2,225/65R17,189.99,DOT U2LL LMLR 1124,DOT U2LL LMLR 2124,DOT U2LL LMLR 3124,DOT U2LL LMLR 4124`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let base = '';
let keyFile = '';
let client: ReturnType<typeof createPartnerClient>;
let control: (method: string, path: string, body?: unknown) => Promise<Response>;

/** A workspace: the flow and a CSV of the invoices given. */
function workspace(name: string, invoices: readonly string[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'flow.http'), FLOW);
  writeCsv(dir, invoices);
  return dir;
}
const writeCsv = (dir: string, invoices: readonly string[]) => writeFileSync(join(dir, 'rows.csv'), `${HEAD}\n${invoices.map((inv) => line(inv, Number(inv.split('-').at(-1)))).join('\n')}\n`);
const invoicesOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
const journalOf = (dir: string) => join(dir, '.tpp', 'runs', 'flow-rows.csv.jsonl');

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
  rows: { status: string }[];
  summary?: Record<string, number | boolean>;
}

/** Starts `tpp run` in `dir` in a process group of its own (as a terminal's job): `ran` resolves when it exits. */
function start(dir: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; ran: Promise<Ran> } {
  const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const child = spawn(process.execPath, [CLI, 'run', join(dir, 'flow.http'), '--base-url', base, '--iss', 'P1', '--key', keyFile, '--reporter', 'json', '--out', report, ...extra], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d));
  child.stderr?.on('data', (d: Buffer) => (err += d));
  const ran = new Promise<Ran>((resolve) =>
    child.once('exit', (code, signal) => {
      let parsed: { rows?: Ran['rows']; summary?: Ran['summary'] } = {};
      try {
        parsed = JSON.parse(readFileSync(report, 'utf8')) as typeof parsed;
      } catch {
        // killed before the report was whole
      }
      resolve({ code, signal, out, err, rows: parsed.rows ?? [], ...(parsed.summary ? { summary: parsed.summary } : {}) });
    }),
  );
  return { child, ran };
}

const sent = (r: Ran) => r.rows.filter((x) => x.status === 'created' || x.status === 'recovered').length;

/** Resumes until a run exits 0 (at most 10 runs); the last run's rows that are not done, and its exit code. */
async function finish(dir: string): Promise<{ stuck: number; code: number | null; runs: number }> {
  let r: Ran | undefined;
  let runs = 0;
  for (; runs < 10 && r?.code !== 0; runs++) r = await start(dir, ['--resume']).ran;
  const stuck = r?.rows.filter((x) => !['created', 'recovered', 'conflict'].includes(x.status)).length ?? 0;
  return { stuck: r?.code === 0 ? stuck : Math.max(stuck, 1), code: r?.code ?? null, runs };
}

/** Registrations stored per invoice number of `prefix`: duplicates and missing against `expected`. */
async function count(prefix: string, expected: readonly string[]): Promise<{ duplicates: number; missing: number }> {
  const per = new Map<string, number>();
  for (let page = 1; ; page++) {
    const r = await client.call('listTireProtectionRegistrations', {}, undefined, { query: { pageSize: 1000, page } });
    const list = r.body as { results: { invoiceNumber: string }[]; totalPages: number };
    for (const x of list.results) if (x.invoiceNumber.startsWith(`${prefix}-`)) per.set(x.invoiceNumber, (per.get(x.invoiceNumber) ?? 0) + 1);
    if (page >= list.totalPages) break;
  }
  return { duplicates: [...per.values()].filter((n) => n > 1).length, missing: expected.filter((inv) => !per.has(inv)).length };
}

/** Waits until the journal of `dir` has an `open` line that was not there before (`after` lines). */
async function opened(dir: string, after: number): Promise<void> {
  for (let i = 0; i < 600; i++, await sleep(5)) {
    try {
      if (readFileSync(journalOf(dir), 'utf8').split('\n').filter((l) => l.startsWith('{"t":"open"')).length > after) return;
    } catch {
      // not made yet
    }
  }
}

const totals = { duplicates: 0, missing: 0, stuck: 0 };
function report(name: string, figures: { duplicates: number; missing: number; stuck: number }, more: string): void {
  totals.duplicates += figures.duplicates;
  totals.missing += figures.missing;
  totals.stuck += figures.stuck;
  console.log(`${name}: duplicates ${figures.duplicates}, missing ${figures.missing}, stuck ${figures.stuck}; ${more}`);
}

async function crash(): Promise<void> {
  let senders = 0;
  let refusedNamed = 0;
  let others = 0;
  const f = { duplicates: 0, missing: 0, stuck: 0 };
  const hist = new Map<number, number>();
  for (let t = 1; t <= TRIALS; t++) {
    const prefix = `CR${t}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS);
    const dir = workspace(`crash-${t}`, invoices);
    const first = start(dir);
    await opened(dir, 0);
    first.child.kill('SIGKILL');
    await first.ran;
    const three = await Promise.all([0, 1, 2].map((i) => start(dir, ['--resume'], { TMPDIR: join(root, `tmp-${t}-${i}`) }).ran));
    const s = three.filter((r) => sent(r) > 0).length;
    hist.set(s, (hist.get(s) ?? 0) + 1);
    senders += s === 1 ? 1 : 0;
    refusedNamed += three.filter((r) => r.code === 2 && /in use by another run of this backfill: pid \d+/.test(r.err)).length;
    others += three.filter((r) => r.code !== 2 && sent(r) === 0).length;
    const end = await finish(dir);
    const c = await count(prefix, invoices);
    f.duplicates += c.duplicates;
    f.missing += c.missing;
    f.stuck += end.stuck;
  }
  report(`crash, then three --resume at once (${TRIALS} trials of ${ROWS} rows, each with its own TMPDIR)`, f, `trials with exactly one run sending ${senders}/${TRIALS} (runs sending per trial: ${[...hist].map(([k, v]) => `${k}→${v}`).join(', ')}), runs that exited 2 naming the holder ${refusedNamed}, runs that found nothing left to send ${others}`);
}

async function tmpdirs(): Promise<void> {
  const f = { duplicates: 0, missing: 0, stuck: 0 };
  let one = 0;
  for (let t = 1; t <= 3; t++) {
    const prefix = `TD${t}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS);
    const dir = workspace(`tmpdir-${t}`, invoices);
    const two = await Promise.all([0, 1].map((i) => start(dir, ['--resume'], { TMPDIR: join(root, `td-${t}-${i}`) }).ran));
    if (two.filter((r) => sent(r) > 0).length === 1) one++;
    const end = await finish(dir);
    const c = await count(prefix, invoices);
    f.duplicates += c.duplicates;
    f.missing += c.missing;
    f.stuck += end.stuck;
  }
  report('two runs at once with different TMPDIR (3 trials)', f, `trials with one run sending ${one}/3`);
}

async function signals(): Promise<void> {
  const f = { duplicates: 0, missing: 0, stuck: 0 };
  const lines: string[] = [];
  for (const [how, sig, group] of [['Ctrl+C to the group', 'SIGINT', true], ['SIGINT to tpp alone', 'SIGINT', false], ['SIGTERM to tpp alone', 'SIGTERM', false], ['SIGHUP to the group', 'SIGHUP', true]] as const) {
    const prefix = `SG${sig}${group ? 'g' : 'a'}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS * 3);
    const dir = workspace(`signal-${prefix}`, invoices);
    const run = start(dir);
    await opened(dir, 0);
    await sleep(300 + Math.random() * 700);
    process.kill(group ? -(run.child.pid as number) : (run.child.pid as number), sig);
    const r = await run.ran;
    const said = /(\d+) of (\d+) rows were not sent/.exec(r.out);
    const unsentRight = said !== null && Number(said[1]) === invoices.length - r.rows.length;
    lines.push(`${how}: exit ${r.code}, ${r.rows.length} rows ended, "${said?.[0] ?? 'no count said'}" (${unsentRight ? 'right' : 'WRONG'})`);
    const end = await finish(dir);
    const c = await count(prefix, invoices);
    f.duplicates += c.duplicates;
    f.missing += c.missing;
    f.stuck += end.stuck;
  }
  report('signals', f, lines.join('; '));
}

async function csvEdits(): Promise<void> {
  const f = { duplicates: 0, missing: 0, stuck: 0 };
  const lines: string[] = [];
  for (const edit of ['inserted', 'removed', 'reordered'] as const) {
    const prefix = `CSV${edit}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS * 2);
    const dir = workspace(`csv-${edit}`, invoices);
    const run = start(dir);
    await opened(dir, 0);
    await sleep(500 + Math.random() * 500);
    process.kill(-(run.child.pid as number), 'SIGINT');
    await run.ran;
    const now = edit === 'inserted' ? [...invoices.slice(0, 4), `${prefix}-${invoices.length + 1}`, ...invoices.slice(4)] : edit === 'removed' ? invoices.filter((_, i) => i !== 4) : [...invoices].sort(() => Math.random() - 0.5);
    writeCsv(dir, now);
    const resumed = await start(dir, ['--resume']).ran;
    const odd = resumed.rows.filter((x) => x.status !== 'created' && x.status !== 'recovered').length;
    lines.push(`${edit}: the resume ended ${resumed.rows.length} rows, ${odd} of them not created or recovered`);
    const end = await finish(dir);
    const c = await count(prefix, edit === 'removed' ? now : now);
    f.duplicates += c.duplicates;
    f.missing += c.missing;
    f.stuck += end.stuck + odd;
  }
  report('CSV rows inserted, removed, reordered after a stop', f, lines.join('; '));
}

async function journals(): Promise<void> {
  const f = { duplicates: 0, missing: 0, stuck: 0 };
  const lines: string[] = [];
  for (const damage of ['cut at a random byte', 'cut in half', 'emptied', 'deleted'] as const) {
    const prefix = `JR${damage.length}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS);
    const dir = workspace(`journal-${damage.length}`, invoices);
    const run = start(dir);
    await opened(dir, 0);
    await sleep(400 + Math.random() * 800);
    run.child.kill('SIGKILL');
    await run.ran;
    const path = journalOf(dir);
    const size = readFileSync(path).length;
    if (damage === 'deleted') rmSync(path);
    else truncateSync(path, damage === 'emptied' ? 0 : damage === 'cut in half' ? Math.floor(size / 2) : Math.floor(Math.random() * size));
    const end = await finish(dir);
    const c = await count(prefix, invoices);
    lines.push(`${damage}: done after ${end.runs} resume${end.runs === 1 ? '' : 's'}`);
    f.duplicates += c.duplicates;
    f.missing += c.missing;
    f.stuck += end.stuck;
  }
  report('journals damaged after a SIGKILL', f, lines.join('; '));
}

async function cutAnswers(): Promise<void> {
  const prefix = `CUTx${Date.now() % 1e6}`;
  const invoices = invoicesOf(prefix, FAULT_ROWS);
  const dir = workspace('cut', invoices);
  const res = await control('POST', 'faults', { method: 'POST', path: '/api/v3/tire-protection/registrations', fault: 'truncated-json', probability: 0.03 });
  if (res.status !== 201) throw new Error(`faults: ${res.status} ${await res.text()}`);
  const r = await start(dir).ran;
  await control('DELETE', 'faults');
  const recovered = r.rows.filter((x) => x.status === 'recovered').length;
  const refused = r.rows.filter((x) => x.status === 'refused').length;
  const end = r.code === 0 ? { stuck: 0 } : await finish(dir);
  const c = await count(prefix, invoices);
  report(`truncated-json after commit on 3 % of ${FAULT_ROWS} creates`, { ...c, stuck: end.stuck }, `first run exit ${r.code}: ${recovered} rows recovered, ${refused} refused`);
}

async function main(): Promise<number> {
  if (!existsSync(CLI)) throw new Error('build first: node scripts/build.mjs');
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  keyFile = join(root, 'key.pem');
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(root, 'pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  const sb = spawn(process.execPath, [CLI, 'sandbox', '--partner', `P1=${join(root, 'pub.pem')}`], { stdio: ['ignore', 'pipe', 'ignore'] });
  base = (await new Promise<string>((resolve) => createInterface({ input: sb.stdout as NodeJS.ReadableStream }).once('line', resolve))).trim();
  const origin = new URL(base).origin;
  control = (method, path, body) => fetch(`${origin}/__tpp/${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const minter = new TokenMinter();
  const key = importPrivateKeyPem(readFileSync(keyFile, 'utf8'));
  client = createPartnerClient({ baseUrls: { v3: base }, token: () => minter.mint(key, { iss: 'P1', aud: base }) });
  const began = performance.now();
  try {
    if (part('crash')) await crash();
    if (part('tmpdir')) await tmpdirs();
    if (part('sigint')) await signals();
    if (part('csv')) await csvEdits();
    if (part('journal')) await journals();
    if (part('cut')) await cutAnswers();
  } finally {
    sb.kill();
    rmSync(root, { recursive: true, force: true });
  }
  console.log(`all: duplicates ${totals.duplicates}, missing ${totals.missing}, stuck ${totals.stuck} (targets 0, 0, 0), ${((performance.now() - began) / 1000).toFixed(0)} s`);
  return totals.duplicates + totals.missing + totals.stuck === 0 ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(err);
    process.exitCode = 2;
  },
);
