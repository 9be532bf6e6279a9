/**
 * `tpp run` over a data file (docs/backfills.md): a flow naming `# @data ./file` (or given `--data`) runs once per
 * row through core's `runBackfill`. This module holds the options, the progress line and the exit codes; run.ts
 * hands a data-driven flow to it.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { dataDirectiveOf, JournalError, RowsError, runBackfill } from '../../core/backfill';
import type { BackfillSummary } from '../../core/backfill/types';
import { checkFlowForRun } from '../../core/flows/check';
import { parseFlow } from '../../core/flows/parse';
import type { FlowEnvironment } from '../../core/flows/types';
import { CliIo, UsageError } from '../io';
import { backfillReporter, problemLines, progressLine, summaryLine } from './backfillReport';

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
} as const;

export const BACKFILL_HELP = `
Data files (tpp docs backfills): a flow with a "# @data ./rows.csv" line (or --data) runs once per row; requests read
{{row.<column>}}. Every row is checked first; nothing is sent while one is invalid. Each row is journalled in
.tpp/runs/ next to the data file, so a run that stopped is continued with --resume without sending a row twice.
  --data <file>               the rows (.csv with a header row, .json array, .ndjson), instead of the flow's @data
  --dry-run                   check every row and send nothing (exit 1 when one is invalid)
  --skip-invalid              send the valid rows when some are invalid
  --jobs <n>                  rows at a time (default 4, at most 64); a row's requests run in order
  --resume                    continue the journal of an earlier run: ended rows are not sent again, started
                              ones are looked up first (registrations by invoiceNumber, claims by serviceInvoiceNumber)
  --retry-unknown             with --resume: send again the writes that have no duplicate check (after checking)
  --journal <file>            the journal's path (default .tpp/runs/<flow>-<data>.jsonl next to the data file)
  --no-journal                no journal: faster, but a crash cannot be resumed safely
Exit 0 every row created or recovered; 1 a row refused, failed, invalid or skipped; 2 a data file, journal or
option problem; 3 a row whose outcome is unknown.`;

type Values = Record<string, string | boolean | string[] | undefined>;

/** What the backfill needs from `tpp run`. */
export interface BackfillRunContext {
  readonly io: CliIo;
  readonly cwd: string;
  readonly environment: FlowEnvironment;
  readonly variables: Readonly<Record<string, string>>;
  readonly reporter: 'pretty' | 'junit' | 'json';
  readonly out?: string;
}

/** The exit code of a backfill (see BACKFILL_HELP). */
export function backfillExitCode(s: BackfillSummary, dryRun: boolean): 0 | 1 | 3 {
  if (s.unknown > 0) return 3;
  if (dryRun || s.notSent) return s.invalid > 0 ? 1 : 0;
  return s.refused + s.failed + s.skipped + s.changed + s.cancelled > 0 ? 1 : 0;
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
  const dataPath = data !== undefined ? resolve(ctx.cwd, data) : resolve(dirname(flowPath), dataDirectiveOf(text) as string);
  const flow = parseFlow(text, path);
  const readBody = (p: string) => readFile(resolve(dirname(flowPath), p), 'utf8');
  const names = new Set([...Object.keys(ctx.variables), 'baseUrl', 'v2BaseUrl', 'eligibilityBaseUrl', 'partnerId']);
  // {{row.<column>}} is checked against the data file's columns by the rows reader, with the row and column.
  const problems = [...flow.problems, ...(await checkFlowForRun(flow, { names, readFile: readBody }))].filter((p) => !(p.code === 'flow-unknown-variable' && p.message.startsWith('{{row.')));
  for (const p of problems) ctx.io.stderr.write(`${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message}\n`);
  if (problems.some((p) => p.severity === 'error')) {
    ctx.io.stderr.write('tpp run: nothing was sent: fix the errors above.\n');
    return 2;
  }
  return drive({ flowPath, dataPath, flow, text, readBody, values, jobs }, ctx);
}

function safeRead(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Runs the backfill with a streamed report, a progress line on a terminal, and Ctrl+C as a clean stop. */
async function drive(a: { flowPath: string; dataPath: string; flow: ReturnType<typeof parseFlow>; text: string; readBody: (p: string) => Promise<string>; values: Values; jobs: number | undefined }, ctx: BackfillRunContext): Promise<number> {
  const { io, values } = { io: ctx.io, values: a.values };
  const dryRun = values['dry-run'] === true;
  const file = ctx.out ? createWriteStream(resolve(ctx.cwd, ctx.out)) : undefined;
  const write = (s: string) => (s ? (file ? file.write(s) : io.stdout.write(s)) : undefined);
  const tty = ctx.reporter === 'pretty' && !file && (io.stdout as { isTTY?: boolean }).isTTY === true;
  const reporter = backfillReporter(ctx.reporter, a.flow.file, new Date().toISOString().slice(0, 19));
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  write(reporter.begin());
  let summary: BackfillSummary;
  try {
    summary = await runBackfill({
      flow: a.flow, flowText: a.text, flowPath: a.flowPath, dataPath: a.dataPath, environment: ctx.environment, readFile: a.readBody, variables: ctx.variables,
      dryRun, skipInvalid: values['skip-invalid'] === true, resume: values.resume === true, retryUnknown: values['retry-unknown'] === true,
      ...(a.jobs !== undefined ? { jobs: a.jobs } : {}),
      ...(values['no-journal'] === true ? { journal: false as const } : values.journal !== undefined ? { journal: resolve(ctx.cwd, values.journal as string) } : {}),
      signal: stop.signal,
      listener: {
        onInvalidRow: (p) => io.stderr.write(problemLines(a.dataPath, p)),
        onRowEnd: (r) => write(`${tty ? '\r\x1b[2K' : ''}${reporter.row(r)}`),
        onProgress: (p) => tty && io.stdout.write(progressLine(p)),
      },
    });
  } catch (err) {
    if (err instanceof RowsError || err instanceof JournalError) {
      io.stderr.write(`${tty ? '\r\x1b[2K' : ''}tpp run: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (tty) io.stdout.write('\r\x1b[2K');
  write(reporter.end(summary));
  if (file) {
    await new Promise<void>((r) => file.end(() => r()));
    io.stdout.write(summaryLine(summary));
  }
  return backfillExitCode(summary, dryRun);
}
