/**
 * `tpp run` over a data file (docs/backfills.md): a flow naming `# @data ./file` (or given `--data`) runs once per
 * row through core's `runBackfill`. This module holds the options, the progress line and the exit codes; run.ts
 * hands a data-driven flow to it.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkJournal, dataDirectiveOf, journalOf, JournalError, RowsError, runBackfill } from '../../core/backfill';
import type { BackfillSummary } from '../../core/backfill/types';
import { checkFlowForRun } from '../../core/flows/check';
import { parseFlow } from '../../core/flows/parse';
import { FlowFileAccessError } from '../../core/flows/projectFiles';
import type { FlowEnvironment, FlowProblem } from '../../core/flows/types';
import { CliIo, UsageError } from '../io';
import type { FlowAccess } from '../flowAccess';
import { launcherOf } from '../runnerProcess';
import { backfillReporter, problemLines, progressLine, summaryLine } from './backfillReport';
import { STOPPED_EXIT, stopOnSignals } from './backfillSignals';

/** The options `tpp run` adds for data files (parseArgs form). */
export const BACKFILL_OPTIONS = {
  data: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  'skip-invalid': { type: 'boolean', default: false },
  resume: { type: 'boolean', default: false },
  'retry-unknown': { type: 'boolean', default: false },
  jobs: { type: 'string' },
  journal: { type: 'string' },
  'no-journal': { type: 'boolean', default: false },
  'journal-check': { type: 'boolean', default: false },
} as const;

export const BACKFILL_HELP = `
Data files (tpp docs backfills): a flow with a "# @data ./rows.csv" line (or --data) runs once per row; requests read
{{row.<column>}}. Every row is checked first; nothing is sent while one is invalid. Each row is journalled by its key
(the invoice number, or the kind's own key, else a hash of its values) in .tpp/runs/ next to the data file, so a run
that stopped is continued with --resume without sending a row twice, even after rows were inserted or reordered.
  --data <file>               the rows (.csv with a header row, .json array, .ndjson), instead of the flow's @data
  --dry-run                   check every row and send nothing (exit 1 when one is invalid)
  --skip-invalid              send the valid rows when some are invalid
  --jobs <n>                  rows at a time (default 4, at most 64); a row's requests run in order
  --resume                    continue the journal of an earlier run: ended rows are not sent again, started
                              ones are looked up first (registrations by invoiceNumber, claims by serviceInvoiceNumber);
                              a damaged journal is repaired as far as can be proven
  --retry-unknown             with --resume: send again the writes that have no duplicate check (after checking)
  --journal <file>            the journal's path (default .tpp/runs/<flow>-<data>.jsonl next to the data file)
  --journal-check             read the journal and say what --resume would repair and what it cannot; send nothing
  --no-journal                no journal: faster, but a crash cannot be resumed safely
A 409 or an unreadable 2xx to a create is settled by the duplicate check: recovered (stored, same values) or conflict
(stored with other values, both shown). One run at a time per journal (a lock next to it, per machine).
Ctrl+C, SIGTERM or SIGHUP stop taking rows, let requests in flight finish and close the journal (Ctrl+C twice: at once).
Exit 0 every row created, recovered or already done; 1 a row refused, in conflict, failed, invalid or skipped,
changed since the journal (its values differ from the row it stored), or cancelled mid-row (--journal-check: something
to repair or check by hand); 2 a data file, journal or option problem (a journal in use names the run holding it);
3 a row whose outcome is unknown; 130 stopped by Ctrl+C, SIGTERM or SIGHUP (the rows not sent are counted);
128+N the process sending the rows was killed by signal N (continue with --resume).`;

type Values = Record<string, string | boolean | string[] | undefined>;

/** What the backfill needs from `tpp run`. */
export interface BackfillRunContext {
  readonly io: CliIo;
  readonly cwd: string;
  readonly environment: FlowEnvironment;
  readonly variables: Readonly<Record<string, string>>;
  readonly reporter: 'pretty' | 'junit' | 'json';
  readonly out?: string;
  /** What the flow may read and where its rows may go (docs/flows.md, What a flow may do). */
  readonly access: FlowAccess;
}

/** The exit code of a backfill (see BACKFILL_HELP). */
export function backfillExitCode(s: BackfillSummary, dryRun: boolean): 0 | 1 | 3 | typeof STOPPED_EXIT {
  if (s.stopped) return STOPPED_EXIT;
  if (s.unknown > 0) return 3;
  if (dryRun || s.notSent) return s.invalid > 0 ? 1 : 0;
  return s.refused + s.conflict + s.failed + s.skipped + s.changed + s.cancelled > 0 ? 1 : 0;
}

/** The data file a flow names with `# @data`, links resolved, when the flow may read it; else the problem at that line. */
async function dataFileOf(text: string, flowFile: string, ctx: BackfillRunContext): Promise<{ path: string } | { problem: FlowProblem }> {
  const written = dataDirectiveOf(text) as string;
  try {
    return { path: await ctx.access.files.resolve(written, flowFile) };
  } catch (err) {
    if (!(err instanceof FlowFileAccessError)) throw err;
    const lines = text.split(/\r?\n/);
    const at = lines.findIndex((l) => /^\s*(?:#|\/\/)\s*@data\s/.test(l));
    const column = (lines[at] ?? '').indexOf(written) + 1;
    return { problem: { file: flowFile, line: at + 1, column: Math.max(1, column), severity: 'error', code: 'flow-data-file', message: `${err.reason[0]?.toUpperCase() ?? ''}${err.reason.slice(1)}.` } };
  }
}

/**
 * Runs the flow over its data when `paths` name a data-driven flow or `--data` is given.
 * @returns the exit code, or undefined when there is no data file (an ordinary flow run).
 * @throws UsageError for `--data` with several flows, or options out of range.
 */
export async function runBackfillIfData(paths: readonly string[], values: Values, ctx: BackfillRunContext): Promise<number | undefined> {
  const texts = paths.map((p) => ({ path: p, text: safeRead(resolve(ctx.cwd, p)) }));
  const named = texts.filter((t) => t.text !== undefined && dataDirectiveOf(t.text) !== undefined);
  const data = values.data as string | undefined;
  if (data === undefined && named.length === 0) return undefined;
  if (paths.length !== 1) throw new UsageError('a flow over a data file runs alone: give one .http file');
  const { path, text } = texts[0] as { path: string; text: string | undefined };
  if (text === undefined) throw new UsageError(`cannot read ${path}`);
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1 || jobs > 64)) throw new UsageError(`--jobs must be a whole number from 1 to 64 (got '${String(values.jobs)}')`);
  const flowPath = resolve(ctx.cwd, path);
  const flow = parseFlow(text, path);
  // --data is the user's own choice; a file's `# @data` is judged as its body files are (docs/flows.md, What a flow may do).
  const dataFile = data !== undefined ? { path: resolve(ctx.cwd, data) } : await dataFileOf(text, path, ctx);
  const readBody = (p: string) => ctx.access.files.read(p, path);
  const names = new Set([...Object.keys(ctx.variables), 'baseUrl', 'v2BaseUrl', 'eligibilityBaseUrl', 'partnerId']);
  const hosts = { environment: ctx.environment, variables: ctx.variables, policy: ctx.access.hosts };
  // {{row.<column>}} is checked against the data file's columns by the rows reader, with the row and column.
  const checked = await checkFlowForRun(flow, { names, readFile: readBody, hosts, rows: true, prompts: 'from-variables', environmentId: ctx.environment.id });
  const problems = [...flow.problems, ...('problem' in dataFile ? [dataFile.problem] : []), ...checked];
  for (const p of problems) ctx.io.stderr.write(`${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message}\n`);
  if (problems.some((p) => p.severity === 'error')) {
    ctx.io.stderr.write('tpp run: nothing was sent: fix the errors above.\n');
    return 2;
  }
  const dataPath = (dataFile as { path: string }).path;
  if (values['journal-check'] === true) return journalCheck({ flowPath, dataPath, flow, text, readBody, values }, ctx);
  return drive({ flowPath, dataPath, flow, text, readBody, values, jobs }, ctx);
}

/** `--journal-check`: what --resume would repair and what it cannot (core/backfill/journalCheck.ts); sends nothing. */
async function journalCheck(a: { flowPath: string; dataPath: string; flow: ReturnType<typeof parseFlow>; text: string; readBody: (p: string) => Promise<string>; values: Values }, ctx: BackfillRunContext): Promise<number> {
  if (a.values['no-journal'] === true) throw new UsageError('--journal-check reads a journal: leave out --no-journal');
  const journal = a.values.journal !== undefined ? resolve(ctx.cwd, a.values.journal as string) : undefined;
  const { path, header } = await journalOf({ flow: a.flow, flowText: a.text, flowPath: a.flowPath, dataPath: a.dataPath, ...(journal ? { journal } : {}) }, a.readBody);
  const found = await checkJournal(path, header);
  ctx.io.stdout.write(found.lines.map((l) => `${l}\n`).join(''));
  return found.code;
}

function safeRead(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Runs the backfill with a streamed report, a progress line on a terminal, and signals as a clean stop (backfillSignals.ts). */
async function drive(a: { flowPath: string; dataPath: string; flow: ReturnType<typeof parseFlow>; text: string; readBody: (p: string) => Promise<string>; values: Values; jobs: number | undefined }, ctx: BackfillRunContext): Promise<number> {
  const { io, values } = { io: ctx.io, values: a.values };
  const dryRun = values['dry-run'] === true;
  const file = ctx.out ? createWriteStream(resolve(ctx.cwd, ctx.out)) : undefined;
  const write = (s: string) => (s ? (file ? file.write(s) : io.stdout.write(s)) : undefined);
  const tty = ctx.reporter === 'pretty' && !file && (io.stdout as { isTTY?: boolean }).isTTY === true;
  const reporter = backfillReporter(ctx.reporter, a.flow.file, new Date().toISOString().slice(0, 19));
  const stop = stopOnSignals(io);
  const launcher = launcherOf();
  write(reporter.begin());
  let summary: BackfillSummary;
  try {
    summary = await runBackfill({
      flow: a.flow, flowText: a.text, flowPath: a.flowPath, dataPath: a.dataPath, environment: ctx.environment, readFile: a.readBody, variables: ctx.variables, hosts: ctx.access.hosts,
      dryRun, skipInvalid: values['skip-invalid'] === true, resume: values.resume === true, retryUnknown: values['retry-unknown'] === true,
      ...(a.jobs !== undefined ? { jobs: a.jobs } : {}),
      ...(values['no-journal'] === true ? { journal: false as const } : values.journal !== undefined ? { journal: resolve(ctx.cwd, values.journal as string) } : {}),
      signal: stop.signal,
      ...(launcher ? { launcher } : {}),
      listener: {
        onInvalidRow: (p) => io.stderr.write(problemLines(a.dataPath, p)),
        onRowEnd: (r) => write(`${tty ? '\r\x1b[2K' : ''}${reporter.row(r)}`),
        onProgress: (p) => tty && io.stdout.write(progressLine(p)),
        onJournalRepair: (notes) => io.stderr.write(notes.map((n) => `tpp run: ${n}\n`).join('')),
      },
    });
  } catch (err) {
    if (err instanceof RowsError || err instanceof JournalError) {
      io.stderr.write(`${tty ? '\r\x1b[2K' : ''}tpp run: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    stop.dispose();
  }
  if (tty) io.stdout.write('\r\x1b[2K');
  write(reporter.end(summary, stop.by()));
  if (file) {
    await new Promise<void>((r) => file.end(() => r()));
    io.stdout.write(summaryLine(summary, stop.by()));
  } else if (summary.stopped && ctx.reporter !== 'pretty') io.stderr.write(summaryLine(summary, stop.by()));
  return backfillExitCode(summary, dryRun);
}
