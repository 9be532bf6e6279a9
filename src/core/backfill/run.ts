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
import { flowHash, Gate, requestTexts, rowHash, rowScope, type RowScope } from './context';
import { cachedReader } from '../flows/projectFiles';
import { prepareRequest } from '../flows/prepare';
import type { PreparedRequest } from '../flows/send';
import type { FlowRequest } from '../flows/types';
import { openJournal, JournalMarks, type JournalHeader, type JournalWriter, type RowState } from './journal';
import { repairNotes } from './journalCheck';
import { RowSet } from './keyTable';
import { checkableRequest, keyOf, keyRequestOf, valuesKey } from './rowKey';
import { checkRow, readsAnswers } from './rowCheck';
import { columnsUsed, readRows, type DataRow } from './rows';
import { sendRow, type RowSendContext } from './sendRow';
import { newTally, type Tally } from './tally';
import type { BackfillOptions, BackfillSummary, RowResult } from './types';

type JournalHeaderFields = Omit<JournalHeader, 't' | 'v' | 'created'>;

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
    ...(o.onExchange ? { onExchange: o.onExchange } : {}),
    onEvent: (e) => {
      if (e.type === 'retry' && e.reason === 'status 429') {
        gate.close(e.delayMs);
        o.listener?.onSlowDown?.(e.delayMs);
      }
    },
  });
}

/** The check pass: counts rows and marks the invalid ones; keeps the first valid row (rowKey.ts's test of keys). Stops when `signal` aborts. */
async function checkAll(o: BackfillOptions, columns: readonly string[], skip: ReadonlySet<number>, read: (p: string) => Promise<string>): Promise<{ total: number; invalid: RowSet; invalidCount: number; firstValid?: DataRow; stopped: boolean }> {
  const invalid = new RowSet();
  let total = 0;
  let invalidCount = 0;
  let firstValid: DataRow | undefined;
  const rows = readRows(o.dataPath, columns);
  try {
    for await (const row of rows) {
      if (o.signal?.aborted) return { total, invalid, invalidCount, stopped: true };
      total++;
      const problems = await checkRow(o.flow, o.environment, o.variables ?? {}, row, columns, skip, read);
      if (problems.length === 0) {
        firstValid ??= row;
        continue;
      }
      invalid.add(row.number);
      invalidCount++;
      o.listener?.onInvalidRow?.(problems);
    }
  } finally {
    await rows.return(undefined);
  }
  return { total, invalid, invalidCount, ...(firstValid ? { firstValid } : {}), stopped: o.signal?.aborted === true };
}

/**
 * Whether the key request names the same key for the same row twice, with other dynamic values (`{{$guid}}`,
 * `{{$timestamp}}`): a key built from one would name another row on every run (rowKey.ts).
 */
async function keysStable(o: BackfillOptions, r: FlowRequest | undefined, row: DataRow | undefined, read: (p: string) => Promise<string>): Promise<boolean> {
  if (!r || !row) return false;
  try {
    const a = keyOf(await prepareRequest(r, rowScope(o.flow, o.environment, o.variables ?? {}, row), read), o.environment);
    const other = { ...rowScope(o.flow, o.environment, o.variables ?? {}, row), dynamic: { now: new Date(Date.now() + 400 * 86_400_000), random: () => 0.987_654_321 } };
    return a !== undefined && a === keyOf(await prepareRequest(r, other, read), o.environment);
  } catch {
    return false;
  }
}

/** Everything one worker needs. */
interface Run {
  readonly o: BackfillOptions;
  readonly columns: readonly string[];
  readonly invalid: RowSet;
  readonly marks: JournalMarks;
  readonly journal?: JournalWriter;
  readonly ctx: RowSendContext;
  readonly tally: Tally;
  readonly next: () => Promise<DataRow | undefined>;
  /** The request the key is read from, when keys are the kind's own (rowKey.ts). */
  readonly keyRequest?: FlowRequest;
  /** Set when a worker met an error that ends the run (the journal cannot be written): the others stop taking rows. */
  failure?: { readonly error: unknown };
}

/** The row's key, and its key request resolved when the key came from it. */
async function keyFor(run: Run, row: DataRow, scope: RowScope, hash: string): Promise<{ key: string; ready?: { index: number; req: PreparedRequest } }> {
  const r = run.keyRequest;
  if (!r) return { key: valuesKey(hash) };
  try {
    const req = await prepareRequest(r, scope, run.ctx.read);
    return { key: keyOf(req, run.o.environment) ?? valuesKey(hash), ready: { index: r.index, req } };
  } catch {
    return { key: valuesKey(hash) }; // resolved again when sent, where the failure is reported
  }
}

/** States of a row whose write may have landed: it is looked up before anything is resent. */
const MAYBE_SENT: readonly (RowState | undefined)[] = ['started', 'unsure', 'failed', 'unknown', 'refused409'];

/** Sends (or skips) one row and journals it. */
async function doRow(run: Run, row: DataRow): Promise<void> {
  const { o, journal } = run;
  const started = performance.now();
  const hash = rowHash(row, run.columns);
  const scope = rowScope(o.flow, o.environment, o.variables ?? {}, row);
  const { key, ready } = await keyFor(run, row, scope, hash);
  const end = (r: Omit<RowResult, 'row' | 'line' | 'durationMs' | 'key'>) => run.tally.row({ row: row.number, line: row.line, key, durationMs: Math.round(performance.now() - started), ...r });
  const { state, other } = run.marks.lookup(key, row.number, hash);
  if (other?.stored) return end({ status: 'changed', message: `${key}: its values changed since the journal stored this row: not sent (restore them; or move the journal away, and a new run checks each row against what is stored)` });
  if (state === 'created' || state === 'recovered') return run.tally.already();
  // A 409 journalled by a version that did not check such answers is checked now, where a check can find the record.
  if (state === 'refused' || (state === 'refused409' && !(ready && checkableRequest(ready.req, o.environment)))) return end({ status: 'refused', message: 'refused in an earlier run (see the journal): not sent again' });
  if (state === 'conflict') return end({ status: 'conflict', message: 'stored already with other values, found in an earlier run (see the journal): not sent again' });
  if (run.invalid.has(row.number)) {
    journal?.write({ t: 'ended', row: row.number, key, hash, status: 'skipped' });
    return end({ status: 'skipped', message: 'invalid (see the checks above): not sent' });
  }
  const careful = MAYBE_SENT.includes(state) || MAYBE_SENT.includes(other?.state);
  // journal.ts: the lease is on the disk (a stopped machine) and the started line with the kernel (a killed process)
  // before the row's first request.
  await journal?.lease(row.number);
  journal?.write({ t: 'started', row: row.number, key, hash });
  const outcome = await sendRow(scope, run.ctx, careful, ready);
  const result = { ...outcome, ...(careful ? { resumed: true } : {}) };
  if (outcome.status !== 'cancelled' && outcome.status !== 'changed') journal?.write({ t: 'ended', row: row.number, key, hash, status: outcome.status, ...(outcome.id !== undefined ? { id: outcome.id } : {}), ...(outcome.http !== undefined ? { http: outcome.http } : {}), ...(outcome.message ? { message: outcome.message } : {}) });
  end(result);
}

/** Takes rows until none is left, the run is stopped, or a worker met an error that ends it (the others then finish their row). */
async function worker(run: Run): Promise<void> {
  while (!run.o.signal?.aborted && !run.failure) {
    try {
      const row = await run.next();
      if (!row) return;
      await doRow(run, row);
    } catch (error) {
      run.failure ??= { error };
    }
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
  if (checked.stopped) return newTally(checked.total, checked.invalidCount, undefined).summary(true, true, performance.now() - began);
  o.listener?.onChecked?.(checked.total, checked.invalidCount);
  const tally = newTally(checked.total, checked.invalidCount, o.listener);
  const skipInvalid = o.skipInvalid === true || (checked.invalidCount > 0 && !o.dryRun && (await o.confirmSkipInvalid?.(checked.total, checked.invalidCount)) === true);
  if (o.dryRun || (checked.invalidCount > 0 && !skipInvalid)) return tally.summary(true, o.signal?.aborted === true, performance.now() - began);
  const jobs = Math.max(1, Math.min(MAX_JOBS, Math.floor(o.jobs ?? DEFAULT_JOBS)));
  const { journal, marks } = await openRunJournal(o, read);
  const keyRequest = keyRequestOf(o.flow, skip);
  const stable = await keysStable(o, keyRequest, checked.firstValid, read);
  const gate = new Gate();
  const send: FlowSendContext = { client: clientOf(o, gate), ...(o.hosts ? { hosts: o.hosts } : {}) };
  const ctx: RowSendContext = { flow: o.flow, send, gate, read, retryUnknown: o.retryUnknown ?? false, ...(o.signal ? { signal: o.signal } : {}) };
  const rows = readRows(o.dataPath, columns);
  const run: Run = { o, columns, invalid: checked.invalid, marks, ...(journal ? { journal } : {}), ctx, tally, next: sharedNext(rows), ...(stable && keyRequest ? { keyRequest } : {}) };
  tally.begin();
  try {
    await Promise.all(Array.from({ length: jobs }, () => worker(run)));
  } finally {
    await rows.return(undefined);
    await journal?.close();
  }
  if (run.failure) throw run.failure.error;
  return tally.summary(false, o.signal?.aborted === true, performance.now() - began);
}

/**
 * The journal of a run: its path (`journal`, or the default) and the header that names the flow and data file.
 * `read` reads the flow's body files (hashed with its text).
 */
export async function journalOf(o: Pick<BackfillOptions, 'flow' | 'flowText' | 'flowPath' | 'dataPath'> & { journal?: string }, read: (p: string) => Promise<string>): Promise<{ path: string; header: JournalHeaderFields }> {
  const path = o.journal ?? defaultJournalPath(o.flowPath, o.dataPath);
  const rel = (p: string) => relative(dirname(path), resolve(p)).split('\\').join('/');
  return { path, header: { flow: rel(o.flowPath), flowHash: await flowHash(o.flow, o.flowText, read), data: rel(o.dataPath) } };
}

/** Opens the run's journal (unless `journal: false`) and tells the listener what was repaired. */
async function openRunJournal(o: BackfillOptions, read: (p: string) => Promise<string>): Promise<{ journal?: JournalWriter; marks: JournalMarks }> {
  if (o.journal === false) return { marks: new JournalMarks() };
  const { path, header } = await journalOf({ ...o, journal: o.journal }, read);
  // The default journal's `.tpp` and `runs` are directories this code makes: a link there would send it elsewhere.
  const ownDirs = o.journal === undefined ? [dirname(dirname(path)), dirname(path)] : undefined;
  const opened = await openJournal(path, { resume: o.resume ?? false, ...(ownDirs ? { ownDirs } : {}), ...(o.launcher ? { launcher: o.launcher } : {}), header });
  const notes = repairNotes(path, opened.contents);
  if (notes.length > 0) o.listener?.onJournalRepair?.(notes);
  return { journal: opened.writer, marks: opened.contents.marks };
}
