import * as vscode from 'vscode';
import type { HostPolicy } from '../../core/flows/carried';
import { checkFlowForRun } from '../../core/flows/check';
import { requestsToRun } from '../../core/flows/run';
import type { FlowEnvironment, FlowFile, FlowProblem, FlowRequest, RequestResult } from '../../core/flows/types';
import { environmentVariablesOf } from '../../core/flows/variables';

/** What the editor's run of a flow will have: the same as it hands core's runner (FlowRuns.run). */
export interface FlowRunContext {
  readonly environment: FlowEnvironment;
  readonly variables: Readonly<Record<string, string>>;
  /** The reader of the flow's files (FlowRuns.readerFor: its workspace folder and `tpp.flows.allowRead`). */
  readonly readFile: (path: string) => Promise<string>;
  /** The run's host policy (FlowRuns.hostPolicy): the same object the run uses, so an answer holds for both. */
  readonly hosts: HostPolicy;
  /** The process environment `{{$processEnv}}` reads; absent: not read by this run (a backfill). */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  readonly only?: readonly number[];
}

/** True when the 1-based `line` lies in request `r`'s lines. */
const within = (r: FlowRequest, line: number) => line >= r.line && line <= Math.max(r.line, r.endLine);

/**
 * What refuses a flow before the editor sends its first request, as `tpp run` refuses it before sending anything
 * (docs/flows.md, What a flow may do; core's check.ts): a body file outside the workspace folder or unreadable, a
 * request known to carry your values to a host you did not allow (the dialog naming the host is asked here, once,
 * before anything goes), an unknown variable, a `$processEnv` or `$dotenv` not set. Only the requests that would run
 * are judged (`only` and the named requests they read). `{{row.<column>}}` of a backfill is left to its rows reader,
 * which checks it against the data file's columns.
 * @returns the errors, each at its line and column; none when the flow may run.
 */
async function problemsBeforeRun(flow: FlowFile, c: FlowRunContext, rows: boolean): Promise<FlowProblem[]> {
  const given = Object.entries(environmentVariablesOf(c.environment)).flatMap(([k, v]) => (v !== undefined ? [k] : []));
  const problems = await checkFlowForRun(flow, {
    names: new Set([...given, ...Object.keys(c.variables)]),
    readFile: c.readFile,
    ...(c.processEnv ? { processEnv: c.processEnv } : {}),
    environmentId: c.environment.id,
    hosts: { environment: c.environment, variables: c.variables, policy: c.hosts },
    // A backfill asks nothing: a # @prompt's value comes from tpp.variables, as tpp run's from --var.
    ...(rows ? { rows, prompts: 'from-variables' as const } : {}),
  });
  return problems.filter((p) => p.severity === 'error');
}

/** The problems as one sentence, each with the flow's path (from the workspace), line and column. */
const sentence = (flow: FlowFile, problems: readonly FlowProblem[]) => problems.map((p) => `${vscode.workspace.asRelativePath(vscode.Uri.parse(flow.file))}:${p.line}:${p.column}: ${p.message}`).join(' ');

/**
 * Checks a flow before its run (see {@link problemsBeforeRun}). A file with parse errors is left to the runner, which
 * sends none of it either.
 * @returns one errored result per request that would run, naming each problem's file, line and column; undefined when
 *   the flow may run.
 */
export async function refusedBeforeRun(flow: FlowFile, c: FlowRunContext): Promise<RequestResult[] | undefined> {
  if (flow.problems.some((p) => p.severity === 'error')) return undefined;
  const wanted = requestsToRun(flow, c.only);
  const judged: FlowFile = { ...flow, requests: flow.requests.filter((r) => wanted.has(r.index)) };
  const problems = await problemsBeforeRun(judged, c, false);
  const first = problems[0];
  if (!first) return undefined;
  const message = `Not sent: nothing of this flow is sent until it is corrected: ${sentence(flow, problems)}`;
  return judged.requests.map((r) => {
    const p = problems.find((x) => within(r, x.line)) ?? first;
    return { file: flow.file, request: r, outcome: 'errored', assertions: [], durationMs: 0, message, at: { line: p.line, column: p.column } };
  });
}

/**
 * Checks a data-driven flow before its first row is sent, as `tpp run` checks it (see {@link problemsBeforeRun}).
 * @returns why no row is sent, or undefined when the backfill may run.
 */
export async function backfillRefusal(flow: FlowFile, c: FlowRunContext): Promise<string | undefined> {
  const problems = await problemsBeforeRun(flow, c, true);
  return problems.length ? `Not run: no row is sent until the flow is corrected: ${sentence(flow, problems)}` : undefined;
}
