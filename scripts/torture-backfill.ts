/**
 * npm run torture:backfill [-- --trials 30 --rows 400 --fault-rows 1000 --only crash,tmpdir,sigint,sender,check,csv,journal,cut]
 * npx tsx scripts/torture-backfill.ts [--trials 30 …]   (after `node scripts/build.mjs`: it runs dist/cli.js)
 *
 * Tries to wedge a backfill from outside (docs/backfills.md), as a user or a CI job would: `tpp run` over a CSV of
 * version 3 registrations, sent to `tpp sandbox`, both from dist in processes of their own, each run's report read
 * from `--reporter json --out` (scripts/torture-backfill/harness.ts). After every scenario the backfill is resumed
 * until it ends as accepted, and the sandbox's registrations are counted per invoice number. Every promise is a
 * judged check with its own count, printed per scenario and in the last line; the exit code is 1 when one is not 0:
 *
 * - duplicates (an invoice stored twice), missing (a row never stored), stuck (a row whose last word is not created,
 *   recovered, already done, or a real conflict shown with both values; a run whose only refusals are conflicts ends
 *   accepted, though it exits 1 as docs/backfills.md says);
 * - lock: trials where not exactly one of the runs started at once sent rows; holder: other runs of such a trial that
 *   neither exited 2 naming the `tpp run` that sends, nor ran after it and found every row done.
 *   crash: `tpp run` SIGKILLed just after it opened the journal (its row sender dies a moment later), then three
 *   `--resume` at once, each with its own $TMPDIR (`--trials` times); tmpdir: two runs at once, no crash before.
 * - signals: runs stopped by Ctrl+C to the process group, SIGINT or SIGTERM to `tpp` alone, SIGHUP to the group, that
 *   did not exit 130 naming the signal with the count of rows not sent right.
 * - sender: the row sender alone SIGKILLed (`tpp run`'s child, src/cli/runnerProcess.ts), where `tpp run` did not exit
 *   137 naming the process, its signal and --resume.
 * - check: SIGINT during the check pass (to the group and to `tpp` alone) that did not exit 130 saying nothing was
 *   sent, or sent something.
 * - csv: rows of the `--resume` after CSV rows were inserted, removed or reordered that were not created or recovered.
 * - journal: journals cut at a random byte, cut in half, emptied or deleted after a SIGKILL that one `--resume` did
 *   not finish.
 * - cut: rows not created or recovered in a run with `truncated-json` after the commit on 3 % of the creates.
 */
import { rmSync, truncateSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, count, finish, gone, inCheckPass, invoicesOf, journalOf, notAccepted, opened, root, rowSenderOf, sent, sleep, start, startSandbox, workspace, writeCsv, type Ran } from './torture-backfill/harness';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '30' }, rows: { type: 'string', default: '400' }, 'fault-rows': { type: 'string', default: '1000' }, only: { type: 'string' } } });
const TRIALS = Number(values.trials);
const ROWS = Number(values.rows);
const FAULT_ROWS = Number(values['fault-rows']);
/** Rows of the check-pass scenario: checking 2,000 rows takes a few hundred ms, time for the signal to land in it. */
const CHECK_ROWS = Math.max(2000, ROWS * 5);
const part = (name: string) => !values.only || values.only.split(',').includes(name);

/** The judged checks, each counting what broke its promise (target 0); `ran` once a scenario judged it. */
const CHECKS = {
  duplicates: 'duplicates',
  missing: 'missing',
  stuck: 'stuck',
  lock: 'lock: trials where ≠1 run sent',
  holder: 'holder: other runs not exiting 2 naming the run that sends',
  signals: 'signals: runs not ending 130 with the unsent count',
  sender: 'sender: row-sender kills not reported as 137 with --resume',
  check: 'check: SIGINTs in the check pass not ending 130 with nothing sent',
  csv: 'csv: rows after an edit not created or recovered',
  journal: 'journal: damaged journals one --resume did not finish',
  cut: 'cut: rows of cut answers not created or recovered',
} as const;
type Check = keyof typeof CHECKS;
const totals = new Map<Check, number>();
const judge = (c: Check, n: number) => totals.set(c, (totals.get(c) ?? 0) + n);

/** Resumes `dir` to its end and counts what the sandbox stored of `invoices`: duplicates, missing, stuck. */
async function settle(dir: string, prefix: string, invoices: readonly string[]): Promise<{ duplicates: number; missing: number; stuck: number; runs: number }> {
  const end = await finish(dir);
  const c = await count(prefix, invoices);
  judge('duplicates', c.duplicates);
  judge('missing', c.missing);
  judge('stuck', end.stuck);
  return { duplicates: c.duplicates, missing: c.missing, stuck: end.stuck, runs: end.runs };
}

function report(name: string, f: { duplicates: number; missing: number; stuck: number }, checks: Partial<Record<Check, number>>, more: string): void {
  for (const [c, n] of Object.entries(checks) as [Check, number][]) judge(c, n);
  const judged = Object.entries(checks).map(([c, n]) => `${CHECKS[c as Check]} ${n}`);
  console.log(`${name}: ${[`duplicates ${f.duplicates}`, `missing ${f.missing}`, `stuck ${f.stuck}`, ...judged].join(', ')}${more ? `; ${more}` : ''}`);
}
const sum = (xs: readonly { duplicates: number; missing: number; stuck: number }[]) => xs.reduce((a, x) => ({ duplicates: a.duplicates + x.duplicates, missing: a.missing + x.missing, stuck: a.stuck + x.stuck }), { duplicates: 0, missing: 0, stuck: 0 });

/** The `tpp run` pid a refusal names as the holder (docs/backfills.md, One run at a time), when it names one. */
const holderNamed = (r: Ran) => /in use by another run of this backfill: pid (\d+) on \S+ \(tpp run, since [^;]+; the lock is held by its process pid \d+\)/.exec(r.err)?.[1];

/** Judges runs started at once on one journal: exactly one sends; each other exits 2 naming it, or came after it and found every row done. */
function onlyOne(runs: readonly Ran[]): { senders: number; badOthers: number; named: number; late: number } {
  const senders = runs.filter((r) => sent(r) > 0);
  const pids = new Set(senders.map((r) => String(r.pid)));
  const named = runs.filter((r) => sent(r) === 0 && r.code === 2 && pids.has(holderNamed(r) ?? '')).length;
  const late = runs.filter((r) => sent(r) === 0 && r.code === 0 && r.rows.length === 0).length;
  return { senders: senders.length, badOthers: runs.length - senders.length - named - late, named, late };
}

async function crash(): Promise<void> {
  const figures = [];
  const hist = new Map<number, number>();
  let lock = 0;
  let holder = 0;
  const others = { named: 0, late: 0 };
  for (let t = 1; t <= TRIALS; t++) {
    const prefix = `CR${t}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS);
    const dir = workspace(`crash-${t}`, invoices);
    const first = start(dir);
    await opened(dir, 0);
    first.child.kill('SIGKILL');
    await first.ran;
    const three = await Promise.all([0, 1, 2].map((i) => start(dir, ['--resume'], { TMPDIR: join(root, `tmp-${t}-${i}`) }).ran));
    const j = onlyOne(three);
    hist.set(j.senders, (hist.get(j.senders) ?? 0) + 1);
    lock += j.senders === 1 ? 0 : 1;
    holder += j.badOthers;
    others.named += j.named;
    others.late += j.late;
    if (j.senders !== 1 || j.badOthers > 0) console.log(`  crash trial ${t}: ${three.map((r) => `exit ${r.code}, ${sent(r)} sent${r.code === 2 ? `: ${r.err.trim().slice(0, 300)}` : ''}`).join(' | ')}`);
    figures.push(await settle(dir, prefix, invoices));
  }
  report(`crash, then three --resume at once (${TRIALS} trials of ${ROWS} rows, each with its own TMPDIR)`, sum(figures), { lock, holder }, `runs sending per trial: ${[...hist].map(([k, v]) => `${k}→${v}`).join(', ')}; the others: ${others.named} exited 2 naming the tpp run that sends, ${others.late} came after it and found every row done`);
}

async function tmpdirs(): Promise<void> {
  const figures = [];
  let lock = 0;
  let holder = 0;
  for (let t = 1; t <= 3; t++) {
    const prefix = `TD${t}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS);
    const dir = workspace(`tmpdir-${t}`, invoices);
    const j = onlyOne(await Promise.all([0, 1].map((i) => start(dir, ['--resume'], { TMPDIR: join(root, `td-${t}-${i}`) }).ran)));
    lock += j.senders === 1 ? 0 : 1;
    holder += j.badOthers;
    figures.push(await settle(dir, prefix, invoices));
  }
  report('two runs at once with different TMPDIR (3 trials)', sum(figures), { lock, holder }, '');
}

async function signals(): Promise<void> {
  const figures = [];
  const lines: string[] = [];
  let bad = 0;
  for (const [how, sig, group] of [['Ctrl+C to the group', 'SIGINT', true], ['SIGINT to tpp alone', 'SIGINT', false], ['SIGTERM to tpp alone', 'SIGTERM', false], ['SIGHUP to the group', 'SIGHUP', true]] as const) {
    const prefix = `SG${sig}${group ? 'g' : 'a'}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS * 3);
    const dir = workspace(`signal-${prefix}`, invoices);
    const run = start(dir);
    await opened(dir, 0);
    await sleep(300 + Math.random() * 700);
    process.kill(group ? -(run.child.pid as number) : (run.child.pid as number), sig);
    const r = await run.ran;
    const said = new RegExp(`Stopped \\(${sig}\\): .*; (\\d+) of (\\d+) rows were not sent`).exec(r.out);
    const right = r.code === 130 && said !== null && Number(said[1]) === invoices.length - r.rows.length;
    bad += right ? 0 : 1;
    lines.push(`${how}: exit ${r.code}, ${r.rows.length} rows ended, "${said?.[0].replace(/.*: /, '') ?? 'no count said'}" (${right ? 'right' : 'WRONG'})`);
    figures.push(await settle(dir, prefix, invoices));
  }
  report('signals', sum(figures), { signals: bad }, lines.join('; '));
}

async function senderKills(): Promise<void> {
  const figures = [];
  const lines: string[] = [];
  let bad = 0;
  for (const [t, wait] of [[1, 0], [2, 300], [3, 900]] as const) {
    const prefix = `SK${t}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS);
    const dir = workspace(`sender-${t}`, invoices);
    const run = start(dir);
    await opened(dir, 0);
    await sleep(wait * Math.random());
    const sender = await rowSenderOf(run.child.pid as number);
    if (sender !== undefined) process.kill(sender, 'SIGKILL');
    const r = await run.ran;
    const right = sender !== undefined && r.code === 137 && r.err.includes(`the process sending the rows (pid ${sender}) was killed by SIGKILL`) && r.err.includes('--resume');
    bad += right ? 0 : 1;
    lines.push(`killed ${wait === 0 ? 'at the open line' : `within ${wait} ms of it`}: exit ${r.code}${right ? '' : ` WRONG: ${r.err.trim().slice(-300)}`}`);
    figures.push(await settle(dir, prefix, invoices));
  }
  report('the row sender alone SIGKILLed', sum(figures), { sender: bad }, lines.join('; '));
}

async function checkPass(): Promise<void> {
  const figures = [];
  const lines: string[] = [];
  let bad = 0;
  for (const [how, group] of [['Ctrl+C to the group', true], ['SIGINT to tpp alone', false]] as const) {
    const prefix = `CP${group ? 'g' : 'a'}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, CHECK_ROWS);
    const dir = workspace(`check-${prefix}`, invoices);
    const run = start(dir);
    const sender = await rowSenderOf(run.child.pid as number);
    const checking = sender !== undefined && (await inCheckPass(sender, dir));
    process.kill(group ? -(run.child.pid as number) : (run.child.pid as number), 'SIGINT');
    const r = await run.ran;
    const stored = (await count(prefix, invoices)).stored;
    const right = checking && r.code === 130 && /Stopped \(SIGINT\): nothing was sent/.test(r.out + r.err) && r.rows.length === 0 && stored === 0 && !existsSync(journalOf(dir));
    bad += right ? 0 : 1;
    lines.push(`${how}: ${checking ? '' : 'the check pass was not caught, '}exit ${r.code}, ${stored} stored${right ? '' : ` WRONG: ${(r.out + r.err).trim().slice(-300)}`}`);
    figures.push(await settle(dir, prefix, invoices));
  }
  report(`SIGINT while the rows are checked (${CHECK_ROWS} rows)`, sum(figures), { check: bad }, lines.join('; '));
}

async function csvEdits(): Promise<void> {
  const figures = [];
  const lines: string[] = [];
  let odd = 0;
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
    const n = resumed.rows.filter((x) => x.status !== 'created' && x.status !== 'recovered').length;
    odd += n;
    lines.push(`${edit}: the resume ended ${resumed.rows.length} rows, ${n} of them not created or recovered`);
    figures.push(await settle(dir, prefix, now));
  }
  report('CSV rows inserted, removed, reordered after a stop', sum(figures), { csv: odd }, lines.join('; '));
}

async function journals(): Promise<void> {
  const figures = [];
  const lines: string[] = [];
  let bad = 0;
  for (const damage of ['cut at a random byte', 'cut in half', 'emptied', 'deleted'] as const) {
    const prefix = `JR${damage.length}x${Date.now() % 1e6}`;
    const invoices = invoicesOf(prefix, ROWS);
    const dir = workspace(`journal-${damage.length}`, invoices);
    const run = start(dir);
    await opened(dir, 0);
    const sender = await rowSenderOf(run.child.pid as number);
    await sleep(400 + Math.random() * 800);
    run.child.kill('SIGKILL');
    await run.ran;
    if (sender !== undefined) await gone(sender); // the damage is done to a journal no process writes any more, as a user would
    const path = journalOf(dir);
    const size = readFileSync(path).length;
    if (damage === 'deleted') rmSync(path);
    else truncateSync(path, damage === 'emptied' ? 0 : damage === 'cut in half' ? Math.floor(size / 2) : Math.floor(Math.random() * size));
    const f = await settle(dir, prefix, invoices);
    bad += f.runs === 1 && f.stuck === 0 ? 0 : 1;
    lines.push(`${damage}: done after ${f.runs} resume${f.runs === 1 ? '' : 's'}`);
    figures.push(f);
  }
  report('journals damaged after a SIGKILL', sum(figures), { journal: bad }, lines.join('; '));
}

async function cutAnswers(control: (method: string, path: string, body?: unknown) => Promise<Response>): Promise<void> {
  const prefix = `CUTx${Date.now() % 1e6}`;
  const invoices = invoicesOf(prefix, FAULT_ROWS);
  const dir = workspace('cut', invoices);
  const res = await control('POST', 'faults', { method: 'POST', path: '/api/v3/tire-protection/registrations', fault: 'truncated-json', probability: 0.03 });
  if (res.status !== 201) throw new Error(`faults: ${res.status} ${await res.text()}`);
  const r = await start(dir).ran;
  await control('DELETE', 'faults');
  const recovered = r.rows.filter((x) => x.status === 'recovered').length;
  const odd = notAccepted(r, dir) + r.rows.filter((x) => x.status === 'conflict').length;
  const f = await settle(dir, prefix, invoices);
  report(`truncated-json after commit on 3 % of ${FAULT_ROWS} creates`, f, { cut: odd }, `first run exit ${r.code}: ${recovered} rows recovered, ${odd} not created or recovered`);
}

async function main(): Promise<number> {
  if (!existsSync(CLI)) throw new Error('build first: node scripts/build.mjs');
  const sb = await startSandbox();
  const began = performance.now();
  const skipped: string[] = [];
  const scenarios: [string, () => Promise<void>][] = [['crash', crash], ['tmpdir', tmpdirs], ['sigint', signals], ['sender', senderKills], ['check', checkPass], ['csv', csvEdits], ['journal', journals], ['cut', () => cutAnswers(sb.control)]];
  try {
    for (const [name, run] of scenarios) {
      if (part(name)) await run();
      else skipped.push(name);
    }
  } finally {
    sb.stop();
    rmSync(root, { recursive: true, force: true });
  }
  const broken = [...totals.values()].reduce((a, b) => a + b, 0);
  const figures = (Object.keys(CHECKS) as Check[]).filter((c) => totals.has(c)).map((c) => `${CHECKS[c]} ${totals.get(c)}`);
  console.log(`all: ${figures.join(', ')} (targets 0${skipped.length ? `; not run: ${skipped.join(', ')}` : ''}), ${((performance.now() - began) / 1000).toFixed(0)} s: ${broken === 0 ? 'PASS' : 'FAIL'}`);
  return broken === 0 ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(err);
    process.exitCode = 2;
  },
);
