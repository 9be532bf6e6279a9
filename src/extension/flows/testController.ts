import * as vscode from 'vscode';
import type { FlowFile, RequestResult } from '../../core/flows/types';
import { dataDirectiveOf } from '../../core/backfill/directive';
import { ENVIRONMENT_IDS, ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import type { Logger } from '../log';
import type { FlowIndex } from '../services/flowIndex';
import type { ExplorerRunOptions, FlowRuns } from '../services/flowRuns';
import { UserCancelled } from '../services/userCancelled';
import { readText } from '../services/flowIndex';
import { dataFileOf, runBackfillItems, type BackfillTestReport } from './backfillRun';
import { declaredProblems } from '../../core/flows/declared';
import { ENVIRONMENT_NAMES } from './diagnostics';
import { confirmFlowRun } from './guard';
import { reportResult, type FlowTestReport } from './testReport';

/** The Test Explorer controller's id (the `controllerId` of `when` clauses). */
export const FLOW_CONTROLLER_ID = 'tpp.flows';

/** What the controller needs of the container. */
export interface FlowTestServices {
  readonly flows: FlowIndex;
  readonly flowRuns: FlowRuns;
  readonly log: Logger;
}

/** One file of a run: its parsed flow, and the requests picked (`only` absent: all). */
interface PlannedFile {
  readonly uri: vscode.Uri;
  readonly flow: FlowFile;
  readonly only?: number[];
}

/** Context key: the test ids (files and their requests) of the flows that name a data file (Resume Backfill's menu). */
export const BACKFILL_ITEMS_CONTEXT = 'tpp.backfillItems';

/** The test item id of request `index` (0-based) of the file `uri`. */
export const requestItemId = (uri: vscode.Uri | string, index: number) => `${uri.toString()}#${index}`;

/**
 * The flows in the Test Explorer (docs/flows-editor.md): one item per workspace `.http`/`.rest` file, one child per
 * request, ranged over its lines. Files are found when the Test Explorer first asks (`resolveHandler`), then kept
 * current from {@link FlowIndex}'s events, one file at a time. One run profile per environment (Local the default),
 * each behind the Production guard; a run sends through {@link FlowRuns} and reports each request as it ends.
 * `FlowFeatures` (src/extension/flowFeatures.ts) creates it on first use and lets commands run files through it.
 */
export class FlowTestController implements vscode.Disposable {
  readonly controller: vscode.TestController;
  private readonly profiles = new Map<EnvironmentId, vscode.TestRunProfile>();
  private readonly disposables: vscode.Disposable[] = [];
  /** What the last run reported, per request (tests: the API cannot read the Test Explorer's results). */
  lastRun: readonly FlowTestReport[] = [];
  /** What the last data-driven flow reported (tests, as {@link lastRun}). */
  lastBackfill: BackfillTestReport | undefined;
  /** The test ids of each flow file that names a data file (see {@link BACKFILL_ITEMS_CONTEXT}). */
  private readonly backfillItems = new Map<string, readonly string[]>();

  constructor(private readonly services: FlowTestServices) {
    const controller = vscode.tests.createTestController(FLOW_CONTROLLER_ID, 'Tire Protection Flows');
    this.controller = controller;
    controller.resolveHandler = (item) => this.resolve(item);
    controller.refreshHandler = async () => {
      for (const uri of await services.flows.discover()) this.upsert(uri);
    };
    for (const env of ENVIRONMENT_IDS) {
      const label = ENVIRONMENTS[env].label;
      const profile = controller.createRunProfile(`Run on ${label}`, vscode.TestRunProfileKind.Run, (req, token) => void this.run(env, req, token).catch(() => undefined), env === 'local');
      this.profiles.set(env, profile);
    }
    this.disposables.push(
      controller,
      ...this.profiles.values(),
      services.flows.onDidChange((uri) => this.upsert(uri)),
      services.flows.onDidDelete((uri) => {
        controller.items.delete(uri.toString());
        if (this.backfillItems.delete(uri.toString())) this.publishBackfillItems();
      }),
    );
  }

  private async resolve(item: vscode.TestItem | undefined): Promise<void> {
    if (!item) {
      for (const uri of await this.services.flows.discover()) this.upsert(uri);
      return;
    }
    if (item.uri) this.upsert(item.uri, await this.services.flows.load(item.uri));
  }

  /** The file's item with one child per request (created, or updated in place), from the parsed file. */
  private upsert(uri: vscode.Uri, flow = this.services.flows.get(uri)): vscode.TestItem | undefined {
    if (!flow || uri.scheme === 'untitled') return undefined;
    const id = uri.toString();
    const item = this.controller.items.get(id) ?? this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
    item.canResolveChildren = false;
    const errors = flow.problems.filter((p) => p.severity === 'error');
    item.error = errors.length ? `${errors.length} problem${errors.length === 1 ? '' : 's'} stop this file from running: line ${errors[0]!.line}: ${errors[0]!.message}` : undefined;
    item.children.replace(
      flow.requests.map((r) => {
        const child = item.children.get(requestItemId(uri, r.index)) ?? this.controller.createTestItem(requestItemId(uri, r.index), r.label, uri);
        child.label = r.label;
        child.range = new vscode.Range(r.line - 1, 0, Math.max(r.line, r.endLine) - 1, 0);
        child.sortText = String(r.index).padStart(6, '0');
        return child;
      }),
    );
    if (!this.controller.items.get(id)) this.controller.items.add(item);
    this.noteBackfill(uri, flow);
    return item;
  }

  /** Notes whether the flow `uri` names a data file, so that only a backfill's items offer Resume Backfill. */
  private noteBackfill(uri: vscode.Uri, flow: FlowFile): void {
    const id = uri.toString();
    void readText(uri).then((text) => {
      if (dataDirectiveOf(text) !== undefined) this.backfillItems.set(id, [id, ...flow.requests.map((r) => requestItemId(uri, r.index))]);
      else if (!this.backfillItems.delete(id)) return;
      this.publishBackfillItems();
    }, () => undefined);
  }

  private publishBackfillItems(): void {
    void vscode.commands.executeCommand('setContext', BACKFILL_ITEMS_CONTEXT, [...this.backfillItems.values()].flat());
  }

  /**
   * Runs the file `uri` on `env` as a Test Explorer run of its item; resolves to every request's result (none for a
   * data-driven flow: see {@link lastBackfill}), or `undefined` when the Production guard or a missing prerequisite
   * stopped the run (the user has been told). `resume`: continue a data-driven flow's journal, `invalidRows` and
   * `retryUnknown` its choices given in advance (ExplorerRunOptions); `token` cancels.
   */
  async runFile(uri: vscode.Uri, env: EnvironmentId, options: ExplorerRunOptions & { token?: vscode.CancellationToken } = {}): Promise<readonly RequestResult[] | undefined> {
    const item = this.upsert(uri, await this.services.flows.load(uri));
    if (!item) throw new Error(`${vscode.workspace.asRelativePath(uri)} is not a flow file on disk: save it as a .http file first.`);
    const source = new vscode.CancellationTokenSource();
    const relay = options.token?.onCancellationRequested(() => source.cancel());
    try {
      return await this.run(env, new vscode.TestRunRequest([item], undefined, this.profiles.get(env)), source.token, options);
    } catch (err) {
      if (err instanceof UserCancelled) return undefined;
      throw err;
    } finally {
      relay?.dispose();
      source.dispose();
    }
  }

  /** The files and requests a run request names: included items (all files when none), less the excluded. */
  private async plan(request: vscode.TestRunRequest): Promise<PlannedFile[]> {
    if (!request.include) for (const uri of await this.services.flows.discover()) this.upsert(uri);
    const include = request.include ?? [...iterate(this.controller.items)];
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const byFile = new Map<string, { uri: vscode.Uri; whole: boolean; only: Set<number> }>();
    for (const item of include) {
      if (excluded.has(item.id) || !item.uri) continue;
      const file = item.parent ?? item;
      const entry = byFile.get(file.id) ?? { uri: item.uri, whole: false, only: new Set<number>() };
      if (item === file) entry.whole = true;
      else entry.only.add(Number(item.id.slice(item.id.lastIndexOf('#') + 1)));
      byFile.set(file.id, entry);
    }
    const plan: PlannedFile[] = [];
    for (const { uri, whole, only } of byFile.values()) {
      const flow = await this.services.flows.load(uri);
      const picked = flow.requests.map((r) => r.index).filter((i) => (whole || only.has(i)) && !excluded.has(requestItemId(uri, i)));
      if (picked.length) plan.push({ uri, flow, ...(picked.length === flow.requests.length ? {} : { only: picked }) });
    }
    return plan;
  }

  /**
   * One Test Explorer run on `env`: files missing a `# @var` name refused, the guard, then each planned file in turn
   * (a data-driven one through backfillRun.ts, `options.resume` continuing its journal); cancellation stops sending.
   * @throws UserCancelled when the guard stopped the run (its requests are reported skipped).
   */
  private async run(env: EnvironmentId, request: vscode.TestRunRequest, token: vscode.CancellationToken, options: ExplorerRunOptions = {}): Promise<RequestResult[]> {
    const run = this.controller.createTestRun(request, `Flows on ${ENVIRONMENTS[env].label}`, true);
    const reports: FlowTestReport[] = [];
    const results: RequestResult[] = [];
    const pending = new Map<string, vscode.TestItem>();
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    let refused: UserCancelled | undefined;
    try {
      const plan = await this.plan(request);
      for (const p of plan) for (const child of iterate(this.controller.items.get(p.uri.toString())?.children)) if (!p.only || p.only.includes(indexOf(child))) pending.set(child.id, (run.enqueued(child), child));
      const runnable = plan.filter((p) => !this.refuseDeclared(run, p, env, pending, reports));
      if (runnable.length) await confirmFlowRun(env, runnable);
      for (const p of runnable) {
        if (token.isCancellationRequested) break;
        const item = (index: number) => this.controller.items.get(p.uri.toString())?.children.get(requestItemId(p.uri, index));
        const text = await readText(p.uri);
        if (options.resume && !dataFileOf(p.uri, text)) {
          // Resume continues a backfill's journal: a flow without a data file has none, and is not run again.
          const message = `${vscode.workspace.asRelativePath(p.uri)} names no data file (# @data): nothing to resume, nothing sent.`;
          for (const r of p.flow.requests) {
            const it = item(r.index);
            if (it) run.errored(it, new vscode.TestMessage(message));
            if (it) pending.delete(it.id);
          }
          run.appendOutput(`${message}\r\n`);
          continue;
        }
        if (dataFileOf(p.uri, text)) {
          const items = p.flow.requests.flatMap((r) => item(r.index) ?? []);
          for (const it of items) pending.delete(it.id);
          this.lastBackfill = await runBackfillItems({ run, controller: this.controller, items, uri: p.uri, flow: p.flow, text, env, flowRuns: this.services.flowRuns, resume: options.resume ?? false, choices: { ...(options.invalidRows ? { invalidRows: options.invalidRows } : {}), ...(options.retryUnknown ? { retryUnknown: true } : {}) }, token });
          continue;
        }
        const ran = await this.services.flowRuns.run({
          flow: p.flow,
          env,
          ...(p.only ? { only: p.only } : {}),
          signal: abort.signal,
          listener: {
            onRequestStart: (_file, r) => void (item(r.index) && run.started(item(r.index)!)),
            onRequestEnd: (r) => {
              const it = item(r.request.index);
              if (!it) return;
              pending.delete(it.id);
              reports.push(reportResult(run, it, p.uri, r));
            },
          },
        });
        results.push(...ran);
      }
    } catch (err) {
      if (err instanceof UserCancelled) refused = err;
      else {
        const message = err instanceof Error ? err.message : String(err);
        this.services.log.warn(`Flows on ${ENVIRONMENTS[env].label} not run: ${message}`);
        for (const it of pending.values()) run.errored(it, new vscode.TestMessage(message));
        pending.clear();
        run.appendOutput(`Not run: ${message}\r\n`);
      }
    } finally {
      for (const it of pending.values()) run.skipped(it);
      cancel.dispose();
      run.end();
      this.lastRun = reports;
    }
    if (refused) throw refused;
    return results;
  }

  /**
   * Refuses a file on `env` as `tpp run` refuses it before sending (exit 2): a name declared with `# @var` that the
   * environment's `tpp.variables` does not give, or that the file also defines (core's declared.ts). Its requests are
   * reported errored with why, and a warning says it, before any question is asked.
   * @returns whether the file was refused.
   */
  private refuseDeclared(run: vscode.TestRun, p: PlannedFile, env: EnvironmentId, pending: Map<string, vscode.TestItem>, reports: FlowTestReport[]): boolean {
    if (!p.flow.declared) return false;
    const given = new Set([...ENVIRONMENT_NAMES(), ...Object.keys(this.services.flowRuns.variablesOf(env, p.uri))]);
    const problems = declaredProblems(p.flow, given);
    if (!problems.length) return false;
    const why = problems.map((x) => `line ${x.line}: ${x.message}`).join(' ');
    const file = this.controller.items.get(p.uri.toString());
    for (const r of p.flow.requests) {
      const it = file?.children.get(requestItemId(p.uri, r.index));
      if (!it || !pending.delete(it.id)) continue;
      run.errored(it, new vscode.TestMessage(why));
      reports.push({ id: it.id, label: it.label, outcome: 'errored', durationMs: 0, messages: [{ message: why, line: problems[0]?.line }] });
    }
    run.appendOutput(`${vscode.workspace.asRelativePath(p.uri)}: not run: ${why}\r\n`);
    void vscode.window.showWarningMessage(`${vscode.workspace.asRelativePath(p.uri)} was not run: ${why}`);
    return true;
  }

  dispose(): void {
    for (const d of this.disposables.reverse()) d.dispose();
  }
}

/** The items of a collection (none when absent). */
function* iterate(items: vscode.TestItemCollection | undefined): Generator<vscode.TestItem> {
  if (!items) return;
  const all: vscode.TestItem[] = [];
  items.forEach((i) => void all.push(i));
  yield* all;
}

/** The 0-based request index of a request item. */
function indexOf(item: vscode.TestItem): number {
  return Number(item.id.slice(item.id.lastIndexOf('#') + 1));
}
