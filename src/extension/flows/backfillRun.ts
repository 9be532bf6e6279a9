import * as vscode from 'vscode';
import { dataDirectiveOf, defaultJournalPath, JournalError, RowsError, runBackfill } from '../../core/backfill';
import type { BackfillProgress, BackfillSummary, RowProblem, RowResult } from '../../core/backfill/types';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import { FlowFileAccessError } from '../../core/flows/projectFiles';
import type { FlowFile } from '../../core/flows/types';
import { backfillRefusal } from '../services/flowCheck';
import { relativeTo, type FlowRuns } from '../services/flowRuns';
import { askInvalidRows, checkOf, jobsSetting, offerRetryUnknown, resendUnknown, type BackfillChoices } from './backfillChoices';

/** Failed rows shown as child items of the data-driven request; the others are counted in one more item. */
export const MAX_ROW_ITEMS = 100;

/** The command that continues a backfill's journal (docs/flows-editor.md, Data-driven flows). */
export const RESUME_BACKFILL_COMMAND = 'tpp.resumeBackfill';

/** What the Test Explorer was told about a data-driven flow (tests read it: the API cannot read the Test Explorer). */
export interface BackfillTestReport {
  /** The test item that carries the counts: the flow's first request. */
  readonly id: string;
  readonly summary?: BackfillSummary;
  /** The counts as the item shows them (its description). */
  readonly counts: string;
  /** Labels of the failed-row child items, in the order rows ended (at most {@link MAX_ROW_ITEMS}, then "… N more"). */
  readonly rowItems: readonly string[];
  /** Why nothing ran (a data file or journal problem), when so. */
  readonly error?: string;
  readonly cancelled: boolean;
  /** How the request items ended: skipped when an earlier run's journal stopped this one before anything was sent. */
  readonly outcome: 'passed' | 'failed' | 'skipped';
  /** The progress notification's lines, in order. */
  readonly progress: readonly string[];
}

/** What a backfill run in the Test Explorer needs. */
export interface BackfillItemRun {
  readonly run: vscode.TestRun;
  readonly controller: vscode.TestController;
  /** The request items of the flow, in order; the first carries the counts and the failed rows. */
  readonly items: readonly vscode.TestItem[];
  readonly uri: vscode.Uri;
  readonly flow: FlowFile;
  readonly text: string;
  readonly env: EnvironmentId;
  readonly flowRuns: FlowRuns;
  readonly resume: boolean;
  /** Answers given in advance; the others are asked (backfillChoices.ts). */
  readonly choices: BackfillChoices;
  readonly token: vscode.CancellationToken;
}

/** The data file a flow names with `# @data` (relative to the flow file), when it names one. */
export function dataFileOf(uri: vscode.Uri, text: string): vscode.Uri | undefined {
  const rel = dataDirectiveOf(text);
  return rel === undefined ? undefined : relativeTo(uri, rel);
}

/** The row counts as an item's description: created, recovered, refused, skipped, unknown (and the rest when any). */
export function countsOf(s: BackfillSummary): string {
  const parts = [`${s.created} created`, `${s.recovered} recovered`, `${s.refused} refused`, `${s.skipped} skipped`, `${s.unknown} unknown`];
  for (const [n, label] of [[s.invalid, 'invalid'], [s.conflict, 'conflict'], [s.failed, 'failed'], [s.changed, 'changed'], [s.cancelled, 'cancelled'], [s.done, 'already done']] as const) if (n > 0) parts.push(`${n} ${label}`);
  return `${s.rows} rows: ${parts.join(', ')}`;
}

const rowText = (r: RowResult): string => `row ${r.row} (line ${r.line}): ${r.status}${r.http !== undefined ? ` ${r.http}` : ''}${r.message ? `: ${r.message}` : ''}${r.problems?.length ? `: ${r.problems.map((p) => `${p.column ? `column ${p.column}: ` : ''}${p.rule}: ${p.message}`).join('; ')}` : ''}`;

/**
 * A progress line: rows done/total, rate and failures, and the time left once the rate is worth a guess: after the
 * first rows (connections, the first tokens) it is slower than the run's, and an estimate from them overstates the
 * time left many times over. `base` is the count of rows done when this run began.
 */
function progressText(p: BackfillProgress, base: number): string {
  const settled = p.done - base >= Math.max(20, Math.ceil((p.total - base) / 50));
  const left = settled && p.etaMs !== undefined && p.done < p.total ? ` · ${Math.ceil(p.etaMs / 1000)} s left` : '';
  return `${p.done}/${p.total} rows · ${p.rate.toFixed(1)} rows/s · ${p.failed} failed${left}`;
}

/** Reports rows done to a progress notification, at most four times a second (and the last row); `lines` keeps them. */
function progressReporter(progress: vscode.Progress<{ message?: string; increment?: number }>, lines: string[]): (p: BackfillProgress) => void {
  let shown = 0;
  let last = 0;
  let base: number | undefined;
  return (p) => {
    base ??= Math.max(0, p.done - 1); // the first report comes after the run's first row
    const now = Date.now();
    if (now - last < 250 && p.done < p.total) return;
    last = now;
    const pct = p.total > 0 ? (100 * p.done) / p.total : 0;
    const message = progressText(p, base);
    lines.push(message);
    progress.report({ message, increment: pct - shown });
    shown = pct;
  };
}

/** What the rows of a run tell the Test Explorer: a child item per failed row (at most {@link MAX_ROW_ITEMS}), and what to ask after. */
function rowReporter(a: BackfillItemRun, head: vscode.TestItem, data: vscode.Uri) {
  const state: { rowItems: string[]; more: number; firstInvalid?: { data: vscode.Uri; line: number }; firstCheck?: string } = { rowItems: [], more: 0 };
  const rowItems = state.rowItems;
  let moreItem: vscode.TestItem | undefined;
  const onRowEnd = (r: RowResult, invalid = false) => {
    if (r.status === 'created' || r.status === 'recovered') return;
    if (r.status === 'unknown') state.firstCheck ??= checkOf(r);
    const listed = r.status === 'skipped' && !invalid ? head.children.get(`${head.id}#row-${r.row}`) : undefined;
    if (listed) return a.run.skipped(listed); // an invalid row, listed by the check, that the user chose to skip
    if (rowItems.length >= MAX_ROW_ITEMS) {
      const more = ++state.more;
      moreItem ??= a.controller.createTestItem(`${head.id}#rows-more`, '', a.uri);
      moreItem.label = `… ${more} more failed row${more === 1 ? '' : 's'} (the journal in .tpp/runs/ has them all)`;
      if (more === 1) head.children.add(moreItem);
      return;
    }
    const child = a.controller.createTestItem(`${head.id}#row-${r.row}`, rowText(r), data);
    child.range = new vscode.Range(r.line - 1, 0, r.line - 1, 0);
    head.children.add(child);
    rowItems.push(child.label);
    const message = new vscode.TestMessage(rowText(r));
    message.location = new vscode.Location(data, child.range);
    if (r.status === 'skipped' && !invalid) a.run.skipped(child);
    else a.run.failed(child, message, r.durationMs);
  };
  const onInvalidRow = (problems: readonly RowProblem[]) => {
    const first = problems[0];
    if (first) state.firstInvalid ??= { data, line: first.line };
    if (first) onRowEnd({ row: first.row, line: first.line, status: 'skipped', message: 'invalid', problems, durationMs: 0 }, true);
  };
  return { state, onRowEnd, onInvalidRow };
}

/**
 * Runs a data-driven flow (docs/backfills.md) as a Test Explorer run of its request items, with a cancellable
 * notification (rows done/total, rate, failures). Cancelling (the notification or the Test Explorer) stops taking
 * rows; requests in flight finish and the journal stays resumable ({@link RESUME_BACKFILL_COMMAND}). The first
 * request item shows the row counts and gets one child item per failed row (at most {@link MAX_ROW_ITEMS}). Invalid
 * rows and, after a resume, rows of unknown outcome ask the user what to do (backfillChoices.ts).
 * @returns what was reported; never throws for a row, a data file or a journal problem (the item says it).
 * @throws NotReadyError when the environment cannot sign or has no address.
 */
export async function runBackfillItems(a: BackfillItemRun): Promise<BackfillTestReport> {
  const head = a.items[0] as vscode.TestItem;
  const data = dataFileOf(a.uri, a.text) as vscode.Uri;
  const environment = await a.flowRuns.environment(a.env);
  const reports = a.flowRuns.backfillReports(a.env);
  head.children.replace([]);
  for (const it of a.items) a.run.started(it);
  const rows = rowReporter(a, head, data);
  const started = Date.now();
  const title = `Backfill ${vscode.workspace.asRelativePath(a.uri)} on ${ENVIRONMENTS[a.env].label}`;
  const progressLines: string[] = [];
  let summary: BackfillSummary | undefined;
  let error: string | undefined;
  let earlierRun = false;
  const abort = new AbortController();
  const cancelRun = a.token.onCancellationRequested(() => abort.abort());
  try {
    // Judged as body files are (docs/flows.md, What a flow may do): inside the workspace folder, links resolved.
    const dataPath = await a.flowRuns.dataPathOf(a.uri, dataDirectiveOf(a.text) as string);
    // The whole flow first, as tpp run checks it: body files, hosts (the dialog asked before any row), variables.
    const run = { environment, readFile: a.flowRuns.readerFor(a.uri), hosts: a.flowRuns.hostPolicy(a.env), variables: a.flowRuns.variablesOf(a.env, a.uri) };
    error = await backfillRefusal(a.flow, run);
    if (!error) summary = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      token.onCancellationRequested(() => abort.abort());
      return runBackfill({
        flow: a.flow, flowText: a.text, flowPath: a.uri.fsPath, dataPath, ...run,
        onExchange: reports.onExchange,
        resume: a.resume,
        jobs: jobsSetting(a.uri),
        retryUnknown: a.choices.retryUnknown ?? false,
        confirmSkipInvalid: (total, invalid) => askInvalidRows(total, invalid, rows.state.firstInvalid, a.choices.invalidRows),
        signal: abort.signal,
        listener: {
          onInvalidRow: rows.onInvalidRow,
          onChecked: (total, invalid) => progress.report({ message: `${total} rows checked${invalid ? `, ${invalid} invalid` : ''}: sending…` }),
          onRowEnd: rows.onRowEnd,
          onProgress: progressReporter(progress, progressLines),
        },
      });
    });
  } catch (err) {
    if (!(err instanceof RowsError || err instanceof JournalError || err instanceof FlowFileAccessError)) throw err;
    earlierRun = err instanceof JournalError && err.code === 'exists';
    error = earlierRun ? earlierRunText(a.uri, data) : err instanceof FlowFileAccessError ? `Not run: # @data ${err.reason}.` : err.message;
    if (earlierRun) offerResume(a.uri, a.env, error);
  } finally {
    cancelRun.dispose();
    reports.end();
  }
  if (summary && a.resume && !a.choices.retryUnknown) offerRetryUnknown(summary, rows.state.firstCheck, resendUnknown(a.uri, a.env, RESUME_BACKFILL_COMMAND));
  const r = report(a, head, { summary, error, earlierRun, rowItems: rows.state.rowItems, more: rows.state.more, cancelled: abort.signal.aborted, durationMs: Date.now() - started, progress: progressLines });
  if (summary) announceEnd(title, r);
  return r;
}

/**
 * Why a fresh run over a data file that an earlier run journalled is refused, in the editor's words: the flow, the
 * data file and the journal named from the workspace, and what continues it (docs/backfills.md, What resume guarantees).
 */
function earlierRunText(flow: vscode.Uri, data: vscode.Uri): string {
  const rel = (u: vscode.Uri | string) => vscode.workspace.asRelativePath(u, false);
  const journal = defaultJournalPath(flow.fsPath, data.fsPath);
  return `Not run: ${rel(flow)} ran over ${rel(data)} before, and its journal (${rel(journal)}) holds the rows that run ended, which a fresh run would send again. Resume Backfill (the item's context menu) sends only the rows it did not end; to send every row again, move the journal away.`;
}

/** Says that a backfill ended: its counts, and whether rows need a look (the Test Explorer lists them). */
function announceEnd(title: string, r: BackfillTestReport): void {
  if (r.cancelled) return; // the run's own message says how to continue it
  const text = `${title}: ${r.summary?.notSent ? 'nothing sent' : 'finished'}, ${r.counts}.`;
  if (r.outcome === 'passed') void vscode.window.showInformationMessage(text);
  else void vscode.window.showWarningMessage(`${text} The Test Explorer lists the rows that need a look.`, 'Show Test Explorer').then((c) => {
    if (c) void vscode.commands.executeCommand('workbench.view.testing.focus');
  });
}

/** Tells the request items how the rows ended and returns the report. */
function report(a: BackfillItemRun, head: vscode.TestItem, r: { summary: BackfillSummary | undefined; error: string | undefined; earlierRun: boolean; rowItems: string[]; more: number; cancelled: boolean; durationMs: number; progress: string[] }): BackfillTestReport {
  const s = r.summary;
  const counts = s ? countsOf(s) : '';
  // Refused before anything was sent: not a failure of the rows, and an earlier run's counts would be no answer.
  for (const it of a.items) it.description = r.earlierRun ? 'not run: an earlier run’s journal (Resume Backfill)' : counts || undefined;
  const resumable = r.cancelled ? ` Cancelled${s?.stopped ? `: ${s.unsent} row${s.unsent === 1 ? ' was' : 's were'} not sent` : ''}: Resume Backfill (on the item, or in the Command Palette) continues it without sending a row twice.` : '';
  const text = r.error ?? (s?.notSent ? `${counts}: nothing was sent, since ${s.invalid} row${s.invalid === 1 ? ' is' : 's are'} invalid (the child items say why): correct the data file and run again.` : `${counts}.${resumable}`);
  const bad = !s || s.notSent || r.cancelled || s.refused + s.conflict + s.failed + s.skipped + s.unknown + s.changed + s.cancelled > 0;
  const outcome = r.earlierRun ? 'skipped' : bad ? 'failed' : 'passed';
  for (const it of a.items) {
    if (outcome === 'skipped') a.run.skipped(it);
    else if (outcome === 'failed') a.run.failed(it, new vscode.TestMessage(text), r.durationMs);
    else a.run.passed(it, r.durationMs);
  }
  a.run.appendOutput(`${vscode.workspace.asRelativePath(a.uri)}: ${text}\r\n`, undefined, head);
  return { id: head.id, ...(s ? { summary: s } : {}), counts, rowItems: r.more ? [...r.rowItems, `… ${r.more} more`] : r.rowItems, ...(r.error ? { error: r.error } : {}), cancelled: r.cancelled, outcome, progress: r.progress };
}

/** A journal of an earlier run refused a fresh run: offer to continue it. */
function offerResume(uri: vscode.Uri, env: EnvironmentId, message: string): void {
  void vscode.window.showWarningMessage(message, 'Resume Backfill').then((c) => {
    if (c) void vscode.commands.executeCommand(RESUME_BACKFILL_COMMAND, uri, env);
  });
}
