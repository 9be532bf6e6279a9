/**
 * The runner of flows (docs/flows.md, Running): each file's requests in order, one at a time, each resolved
 * (prepare.ts), sent (send.ts: contract endpoints through the partner client, docs/sending.md) and checked
 * (assert.ts). A request that fails or errors stops the rest of its own file (`skipped`); `bail` stops the run.
 * Files run one after the other; a file's named answers are its own.
 */
import type { RetrySettings } from '../client/backoff';
import { clientFor } from '../client/clientFor';
import type { Dispatcher } from '../client/types';
import { assertAll } from './assert';
import { promptsOf } from './carried';
import { prepareRequest } from './prepare';
import { flowRefs } from './refs';
import { sendFlowRequest, type FlowSendContext } from './send';
import { FlowCookieJar } from './cookies';
import { readDotenv, readsDotenv } from './dotenv';
import type { FlowFile, FlowRequest, FlowRunOptions, RequestResult } from './types';
import { environmentVariablesOf, FlowPositionError, type FlowAnswer, type FlowScope } from './variables';

/** Options of a run beyond the shared {@link FlowRunOptions}: the client's limits (docs/sending.md, Limits). */
export interface FlowRunLimits {
  /** Time limit of one attempt, in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Largest answer read, in bytes (default 16 MiB). */
  readonly maxResponseBytes?: number;
  readonly retry?: Partial<RetrySettings>;
  readonly dispatcher?: Dispatcher;
}

/** The names of the requests a request's texts read (`{{reg.response…}}`), file variables included. */
function requestsRead(r: FlowRequest, file: FlowFile): Set<string> {
  const texts = [r.url, ...r.headers.map((h) => h.value), r.body?.kind === 'inline' ? r.body.text : '', ...r.assertions.map((a) => a.expected ?? '')];
  const vars = new Map(file.variables.map((v) => [v.name, v.value]));
  const out = new Set<string>();
  const seen = new Set<string>();
  while (texts.length > 0) {
    for (const ref of flowRefs(texts.pop() as string)) {
      if (ref.ref.kind === 'response') out.add(ref.ref.request);
      else if (ref.ref.kind === 'name' && vars.has(ref.ref.name) && !seen.has(ref.ref.name)) {
        seen.add(ref.ref.name);
        texts.push(vars.get(ref.ref.name) as string);
      }
    }
  }
  return out;
}

/** The request indexes to run for `only`: those, and the named requests they read from (transitively). */
export function requestsToRun(file: FlowFile, only: readonly number[] | undefined): Set<number> {
  if (!only) return new Set(file.requests.map((r) => r.index));
  const byName = new Map(file.requests.flatMap((r) => (r.name !== undefined ? [[r.name, r.index] as const] : [])));
  const out = new Set<number>();
  const todo = only.filter((i) => file.requests[i] !== undefined);
  while (todo.length > 0) {
    const i = todo.pop() as number;
    if (out.has(i)) continue;
    out.add(i);
    for (const name of requestsRead(file.requests[i] as FlowRequest, file)) {
      const j = byName.get(name);
      if (j !== undefined && j < i) todo.push(j);
    }
  }
  return out;
}

/** The values of a request's `# @prompt` lines, asked through `options.prompt`; undefined when the user cancelled. */
async function promptedValues(r: FlowRequest, options: FlowRunOptions): Promise<Map<string, string> | undefined> {
  const out = new Map<string, string>();
  if (!options.prompt || !r.prompts) return out;
  for (const p of r.prompts) {
    const value = await options.prompt(r, p, options.variables?.[p.name]);
    if (value === undefined) return undefined;
    out.set(p.name, value);
  }
  return out;
}

/** Runs one request: resolve, send, check. */
async function runRequest(file: FlowFile, r: FlowRequest, scope: FlowScope, answers: Map<string, FlowAnswer>, ctx: FlowSendContext, options: FlowRunOptions): Promise<RequestResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const prompted = await promptedValues(r, options);
  if (!prompted) return { file: file.file, request: r, outcome: 'skipped', assertions: [], durationMs: elapsed(), message: `Not sent: the value of # @prompt ${r.prompts?.map((p) => p.name).join(', ')} was not given.` };
  let prepared;
  try {
    const readBytes = options.readBytes;
    prepared = await prepareRequest(r, prompted.size > 0 ? { ...scope, prompted } : scope, (path) => options.readFile(path, file.file), readBytes ? (path) => readBytes(path, file.file) : undefined);
  } catch (err) {
    const where = err instanceof FlowPositionError ? `${file.file}:${err.position.line}:${err.position.column}: ${err.reason}` : `${file.file}:${r.line}:${r.column}: ${(err as Error).message}`;
    return { file: file.file, request: r, outcome: 'errored', assertions: [], durationMs: elapsed(), message: `Not sent: ${where}` };
  }
  const sent = await sendFlowRequest(prepared, ctx);
  if (!sent.answer) return { file: file.file, request: r, outcome: 'errored', assertions: [], exchange: sent.exchange, durationMs: elapsed(), message: sent.error ?? 'No answer.' };
  if (r.name !== undefined) answers.set(r.name, sent.answer);
  const assertions = assertAll(r, sent.answer, sent.endpoints, scope);
  const failed = assertions.filter((a) => !a.passed);
  return {
    file: file.file,
    request: r,
    outcome: failed.length === 0 ? 'passed' : 'failed',
    assertions,
    exchange: sent.exchange,
    durationMs: elapsed(),
    ...(failed.length > 0 ? { message: failed.map((a) => a.message).join(' ') } : {}),
  };
}

/** The variables of one file's run: the environment, the file's own, the outside ones, `.env` when it reads one. */
async function fileScope(file: FlowFile, options: FlowRunOptions): Promise<FlowScope> {
  return {
    environment: environmentVariablesOf(options.environment),
    fileVariables: new Map(file.variables.map((v) => [v.name, v])),
    // Only a run that asks (the editor) gives a # @prompt its answer; tpp run's --var loses to a file variable.
    ...(options.prompt ? { prompts: promptsOf(file) } : {}),
    outside: options.variables ?? {},
    answers: new Map(),
    resolved: new Map(),
    dynamic: { now: new Date(), random: Math.random },
    ...(options.processEnv ? { processEnv: options.processEnv } : {}),
    ...(readsDotenv(file) ? { dotenv: await readDotenv((path) => options.readFile(path, file.file), options.environment.id) } : {}),
  };
}

/**
 * Runs flow files one after the other (see the module comment).
 * @param files parsed files; a file with an error problem is not run (its requests are `skipped` with the first problem).
 * @param options the environment, body-file reader, outside variables, `only` (request indexes, applied to every
 *   file), `bail`, cancellation, a listener, and the client's limits.
 * @returns one result per request of every file, in order. Never throws for a request's failure.
 */
export async function runFlows(files: readonly FlowFile[], options: FlowRunOptions & FlowRunLimits): Promise<RequestResult[]> {
  const env = options.environment;
  const client =
    options.client ??
    clientFor(env, { ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}), ...(options.retry ? { retry: options.retry } : {}), ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}), userAgent: 'tpp-run' });
  const results: RequestResult[] = [];
  let bailed = false;
  for (const file of files) {
    const scope = await fileScope(file, options);
    const answers = scope.answers as Map<string, FlowAnswer>;
    // One cookie jar per file's run, as REST Client and httpyac keep one for the file (cookies.ts).
    const ctx: FlowSendContext = { client, cookies: new FlowCookieJar(env, options.hosts), ...(options.signal ? { signal: options.signal } : {}), ...(options.hosts ? { hosts: options.hosts } : {}) };
    const problem = file.problems.find((p) => p.severity === 'error');
    const wanted = requestsToRun(file, options.only);
    let stopped: string | undefined = problem ? `Not run: ${file.file}:${problem.line}:${problem.column}: ${problem.message}` : undefined;
    for (const r of file.requests) {
      if (!wanted.has(r.index)) continue;
      const why = options.signal?.aborted ? 'Not run: the run was cancelled.' : bailed ? 'Not run: an earlier request failed and --bail stops the run.' : (stopped ?? (r.disabled ? `Not sent: # @disabled (line ${r.disabled.line}).` : undefined));
      let result: RequestResult;
      if (why) result = { file: file.file, request: r, outcome: 'skipped', assertions: [], durationMs: 0, message: why };
      else {
        options.listener?.onRequestStart?.(file.file, r);
        // Dynamic values ($datetime, $timestamp) read the clock of the request they are sent with.
        result = await runRequest(file, r, { ...scope, dynamic: { now: new Date(), random: Math.random } }, answers, ctx, options);
        if (result.outcome === 'failed' || result.outcome === 'errored') {
          stopped = `Not run: ${r.label} (line ${r.line}) ${result.outcome === 'failed' ? 'failed' : 'could not be completed'}, and the requests after it in ${file.file} depend on it.`;
          if (options.bail) bailed = true;
        }
      }
      results.push(result);
      options.listener?.onRequestEnd?.(result);
    }
  }
  return results;
}

/**
 * Runs one flow file: {@link runFlows} of one.
 * @returns one result per request (those of `options.only` and the requests they read from), in order.
 */
export function runFlow(file: FlowFile, options: FlowRunOptions & FlowRunLimits): Promise<RequestResult[]> {
  return runFlows([file], options);
}
