/**
 * `runBackfill`: a flow run once per row of a data file, exactly once across crashes (docs/backfills.md). First every
 * row is read and checked (rowCheck.ts) and nothing is sent when one is invalid (unless `skipInvalid`); then rows are
 * sent `jobs` at a time, the requests of one row in order (sendRow.ts), each row journalled before its first request
 * and after its last answer (journal.ts). A journal of an earlier run is resumed only when asked: ended rows are not
 * sent again, started ones are checked first. The data file is streamed twice; memory does not grow with its rows.
 */
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { clientFor, type ToolkitClient } from '../client/clientFor';
import type { FlowSendContext } from '../flows/send';
import { cachedReader, flowHash, Gate, requestTexts, rowHash, rowScope } from './context';
import { openJournal, RowMarks, type JournalWriter } from './journal';
import { checkRow, readsAnswers } from './rowCheck';
import { columnsUsed, readRows, type DataRow } from './rows';
import { sendRow, type RowSendContext } from './sendRow';
import { newTally, type Tally } from './tally';
import type { BackfillOptions, BackfillSummary, RowResult } from './types';

/** Rows at a time by default, and at most. */
export const DEFAULT_JOBS = 4;
export const MAX_JOBS = 64;

/** The journal of a flow over a data file: `.tpp/runs/<flow>-<data>.jsonl` in the data file's directory. */
export function defaultJournalPath(flowPath: string, dataPath: string): string {
  return join(dirname(resolve(dataPath)), '.tpp', 'runs', `${basename(flowPath, extname(flowPath))}-${basename(dataPath)}.jsonl`);
}

/** The columns a flow reads, from its requests, file variables and body files. */
async function flowColumns(o: BackfillOptions, read: (p: string) => Promise<string>): Promise<{ columns: string[]; skip: Set<number> }> {
  const texts = [...o.flow.requests.flatMap(requestTexts), ...o.flow.variables.map((v) => v.value)];
  const skip = new Set<number>();
  for (const r of o.flow.requests) {
    let file: string | undefined;
    if (r.body?.kind === 'file' && r.body.resolveVariables) file = await read(r.body.path).catch(() => '');
    if (file !== undefined) texts.push(file);
    if (readsAnswers(r, file)) skip.add(r.index);
  }
  return { columns: columnsUsed(texts), skip };
}

/** The client of a run (client/clientFor.ts, the toolkit's one way to send); a 429 retry closes the shared gate. */
function clientOf(o: BackfillOptions, gate: Gate): ToolkitClient {
  const limits = { ...(o.retry ? { retry: o.retry } : {}), ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}), ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}), userAgent: 'tpp-run' };
  return clientFor(o.environment, limits, {
    onEvent: (e) => {
      if (e.type === 'retry' && e.reason === 'status 429') {
        gate.close(e.delayMs);
        o.listener?.onSlowDown?.(e.delayMs);
      }
    },
  });
}

/** The check pass: counts rows and marks the invalid ones. */
async function checkAll(o: BackfillOptions, columns: readonly string[], skip: ReadonlySet<number>, read: (p: string) => Promise<string>): Promise<{ total: number; invalid: RowMarks; invalidCount: number }> {
  const invalid = new RowMarks();
  let total = 0;
  let invalidCount = 0;
  for await (const row of readRows(o.dataPath, columns)) {
    total++;
    const problems = await checkRow(o.flow, o.environment, o.variables ?? {}, row, columns, skip, read);
    if (problems.length === 0) continue;
    invalid.end(row.number, 'skipped', undefined);
    invalidCount++;
    o.listener?.onInvalidRow?.(problems);
  }
  return { total, invalid, invalidCount };
}

/** Everything one worker needs. */
interface Run {
  readonly o: BackfillOptions;
  readonly columns: readonly string[];
  readonly invalid: RowMarks;
  readonly marks: RowMarks;
  readonly journal?: JournalWriter;
  readonly ctx: RowSendContext;
  readonly tally: Tally;
  readonly next: () => Promise<DataRow | undefined>;
}

/** Sends (or skips) one row and journals it. */
async function doRow(run: Run, row: DataRow): Promise<void> {
  const { o, marks, journal } = run;
  const started = performance.now();
  const hash = rowHash(row, run.columns);
  const state = marks.state(row.number);
  const end = (r: Omit<RowResult, 'row' | 'line' | 'durationMs'>) => run.tally.row({ row: row.number, line: row.line, durationMs: Math.round(performance.now() - started), ...r });
  if (state !== undefined && state !== 'unsure' && !marks.sameHash(row.number, hash)) return end({ status: 'changed', message: 'its values changed since the journal was written: not sent (restore them, or start a new journal)' });
  if (state === 'created' || state === 'recovered') return run.tally.already();
  if (state === 'refused') return end({ status: 'refused', message: 'refused in an earlier run (see the journal): not sent again' });
  if (run.invalid.state(row.number) === 'skipped') {
    journal?.write({ t: 'ended', row: row.number, hash, status: 'skipped' });
    return end({ status: 'skipped', message: 'invalid (see the checks above): not sent' });
  }
  const careful = state === 'started' || state === 'unsure' || state === 'failed' || state === 'unknown';
  // journal.ts: the lease is on the disk (a stopped machine) and the started line with the kernel (a killed process)
  // before the row's first request.
  await journal?.lease(row.number);
  journal?.write({ t: 'started', row: row.number, hash });
  const outcome = await sendRow(rowScope(o.flow, o.environment, o.variables ?? {}, row), run.ctx, careful);
  const result = { ...outcome, ...(careful ? { resumed: true } : {}) };
  if (outcome.status !== 'cancelled' && outcome.status !== 'changed') journal?.write({ t: 'ended', row: row.number, hash, status: outcome.status, ...(outcome.id !== undefined ? { id: outcome.id } : {}), ...(outcome.http !== undefined ? { http: outcome.http } : {}), ...(outcome.message ? { message: outcome.message } : {}) });
  end(result);
}

async function worker(run: Run): Promise<void> {
  for (;;) {
    if (run.o.signal?.aborted) return;
    const row = await run.next();
    if (!row) return;
    await doRow(run, row);
  }
}

/** Serialises reads of an async iterator shared by workers. */
function sharedNext(rows: AsyncIterator<DataRow>): () => Promise<DataRow | undefined> {
  let chain: Promise<unknown> = Promise.resolve();
  return () => {
    const p = chain.then(() => rows.next()).then((r) => (r.done ? undefined : r.value));
    chain = p.catch(() => undefined);
    return p;
  };
}

/**
 * Runs a backfill (see the module comment and docs/backfills.md).
 * @param o the flow, data file, environment, jobs (1…64, default 4), dry run, skipInvalid (or confirmSkipInvalid), resume, retryUnknown,
 *   journal path (or `false`), cancellation and listener (types.ts).
 * @returns the run's counts; row outcomes go to `o.listener.onRowEnd` as they end (in the order they end).
 * @throws RowsError for a data file that cannot be read (before anything is sent when found by the check pass),
 *   JournalError for a journal in use, of another flow or data file, or of an earlier run without `resume`.
 */
export async function runBackfill(o: BackfillOptions): Promise<BackfillSummary> {
  const began = performance.now();
  const read = cachedReader(o.readFile);
  const { columns, skip } = await flowColumns(o, read);
  const checked = await checkAll(o, columns, skip, read);
  o.listener?.onChecked?.(checked.total, checked.invalidCount);
  const tally = newTally(checked.total, checked.invalidCount, o.listener);
  const skipInvalid = o.skipInvalid === true || (checked.invalidCount > 0 && !o.dryRun && (await o.confirmSkipInvalid?.(checked.total, checked.invalidCount)) === true);
  if (o.dryRun || (checked.invalidCount > 0 && !skipInvalid)) return tally.summary(true, performance.now() - began);
  const jobs = Math.max(1, Math.min(MAX_JOBS, Math.floor(o.jobs ?? DEFAULT_JOBS)));
  let journal: JournalWriter | undefined;
  let marks = new RowMarks();
  if (o.journal !== false) {
    const path = o.journal ?? defaultJournalPath(o.flowPath, o.dataPath);
    const rel = (p: string) => relative(dirname(path), resolve(p)).split('\\').join('/');
    const opened = await openJournal(path, { resume: o.resume ?? false, header: { flow: rel(o.flowPath), flowHash: await flowHash(o.flow, o.flowText, read), data: rel(o.dataPath) } });
    journal = opened.writer;
    marks = opened.contents.marks;
  }
  const gate = new Gate();
  const send: FlowSendContext = { client: clientOf(o, gate), ...(o.hosts ? { hosts: o.hosts } : {}) };
  const ctx: RowSendContext = { flow: o.flow, send, gate, read, retryUnknown: o.retryUnknown ?? false, ...(o.signal ? { signal: o.signal } : {}) };
  const rows = readRows(o.dataPath, columns);
  const run: Run = { o, columns, invalid: checked.invalid, marks, ...(journal ? { journal } : {}), ctx, tally, next: sharedNext(rows) };
  tally.begin();
  try {
    await Promise.all(Array.from({ length: jobs }, () => worker(run)));
  } finally {
    await rows.return(undefined);
    await journal?.close();
  }
  return tally.summary(false, performance.now() - began);
}
