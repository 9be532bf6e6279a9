/**
 * One row of a backfill sent (docs/backfills.md, Sending): the flow's requests in order, each resolved with the
 * row's values and sent through the partner client (docs/sending.md: fresh JWT per attempt, retries, duplicate-safe
 * creates). A row resumed from a journal that had started it is sent carefully: before a write is sent again, the
 * duplicate check (storedCheck.ts) looks for it; a write that has no such check is not sent again but reported as
 * "outcome unknown" with what to check, unless the user said to (`retryUnknown`). An answer that does not say how a
 * checkable create ended (409 or 400, a 2xx whose body cannot be read, no answer) is settled by the same check:
 * stored with the same values (`recovered`), with other values (`conflict`, both shown), or not stored.
 */
import type { PartnerClient } from '../client/client';
import { endpointsOf } from '../client/clientFor';
import { ApiError, MalformedResponseError, NetworkError } from '../client/errors';
import { howToCheck } from '../client/repeat';
import { changesData } from '../contract/methods';
import type { EndpointDef } from '../contract/types';
import { prepareRequest, FlowBodyFileError, FlowVariableError } from '../flows/prepare';
import { assertAll } from '../flows/assert';
import { sendFlowRequest, type FlowSendContext, type PreparedRequest } from '../flows/send';
import type { FlowFile, FlowRequest } from '../flows/types';
import type { FlowAnswer, FlowScope } from '../flows/variables';
import type { Gate, RowScope } from './context';
import { checkable, lookForStored, type Stored } from './storedCheck';
import type { RowStatus } from './types';

/** What sending a row needs besides the row. */
export interface RowSendContext {
  readonly flow: FlowFile;
  readonly send: FlowSendContext;
  readonly gate: Gate;
  readonly read: (path: string) => Promise<string>;
  readonly retryUnknown: boolean;
  /** Checked between requests: a cancelled run ends the row where it is (`cancelled`). */
  readonly signal?: AbortSignal;
}

/** The outcome of a row before it is timed and journalled. */
export interface RowOutcome {
  readonly status: RowStatus;
  readonly id?: string;
  readonly http?: number;
  readonly message?: string;
}

/** One request's outcome: an answer (maybe recovered), or the row's end. */
type Step = { answer: FlowAnswer; recovered: boolean; endpoints: readonly EndpointDef[] } | { end: RowOutcome };

/** The server's words are cut here; a reason of our own is kept whole up to {@link MAX_REASON}. */
const MAX_SAID = 300;
const MAX_REASON = 8000;
const cut = (s: string, max = MAX_REASON): string => (s.length > max ? `${s.slice(0, max)}…` : s);

/** Milliseconds with a fraction (a limit cut to what was left) said in whole milliseconds. */
export const roundTimes = (s: string): string => s.replace(/(\d+\.\d+) ms\b/g, (_m, ms: string) => `${Math.round(Number(ms))} ms`);

const reasonOf = (err: unknown): string => cut(roundTimes(err instanceof Error ? err.message : String(err)));

/** The server's words in an error body (`message`, `error`), cut short. */
function serverSaid(body: string): string {
  try {
    const v = JSON.parse(body) as Record<string, unknown>;
    const m = v.message ?? v.error ?? v.Message;
    if (typeof m === 'string') return cut(m, MAX_SAID);
  } catch {
    // not JSON
  }
  return cut(body.trim(), MAX_SAID);
}

/** The id in a create's answer (`id` or `_id`). */
function idOf(body: string): string | undefined {
  try {
    const v = JSON.parse(body) as Record<string, unknown>;
    const id = v.id ?? v._id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

const answerOf = (status: number, body: string, durationMs: number): FlowAnswer => ({ status, headers: {}, body, durationMs });
const recoveredStep = (s: Extract<Stored, { kind: 'same' }>, def: EndpointDef): Step => ({ answer: answerOf(200, JSON.stringify(s.id !== undefined ? { id: s.id } : {}), 0), recovered: true, endpoints: [def] });
const conflictEnd = (s: Extract<Stored, { kind: 'other' }>, http: number | undefined): Step => ({ end: { status: 'conflict', ...(http !== undefined ? { http } : {}), ...(s.id !== undefined ? { id: s.id } : {}), message: `stored already with other values (${s.differences})${s.id !== undefined ? `: record ${s.id}` : ''}` } });

/** Looks for the write before sending it again (resume); `undefined`: not stored (or nothing to check), send it. */
async function checkFirst(client: PartnerClient, def: EndpointDef, params: Record<string, string>, body: unknown, ctx: RowSendContext): Promise<Step | undefined> {
  const s = await lookForStored(client, def, params, body);
  if (s.kind === 'safe' || s.kind === 'absent') return undefined;
  if (s.kind === 'none') return ctx.retryUnknown ? undefined : { end: { status: 'unknown', message: `outcome unknown: check ${s.howToCheck} (then resume with --retry-unknown to send it again)` } };
  if (s.kind === 'same') return recoveredStep(s, def);
  if (s.kind === 'other') return conflictEnd(s, undefined);
  return { end: { status: 'unknown', message: `outcome unknown: the duplicate check failed (${roundTimes(s.reason)}); check: ${s.howToCheck}` } };
}

/**
 * A checkable create answered something that does not say how it ended: 409/400 (maybe the duplicate of an earlier
 * attempt), a 2xx that cannot be read, or no answer. The duplicate check, with time of its own, settles it.
 */
async function settle(err: unknown, client: PartnerClient, def: EndpointDef, params: Record<string, string>, body: unknown, endpoints: readonly EndpointDef[]): Promise<Step | undefined> {
  const refusal = err instanceof ApiError && (err.status === 409 || err.status === 400) && !err.outcomeUnknown;
  const unreadable = err instanceof MalformedResponseError;
  const unknown = (err instanceof ApiError || err instanceof NetworkError) && err.outcomeUnknown;
  if (!refusal && !unreadable && !unknown) return undefined;
  const s = await lookForStored(client, def, params, body);
  const http = err instanceof ApiError || err instanceof MalformedResponseError ? err.status : undefined;
  if (s.kind === 'same') return recoveredStep(s, def);
  if (s.kind === 'other') return conflictEnd(s, http);
  const e = err as ApiError | MalformedResponseError;
  if (refusal && s.kind === 'absent') return { answer: answerOf(e.status, e.rawBody, e.durationMs), recovered: false, endpoints };
  const found = s.kind === 'absent' ? 'the duplicate check found no such record' : s.kind === 'failed' ? `the duplicate check failed too (${roundTimes(s.reason)})` : 'nothing can look it up';
  const check = 'howToCheck' in s ? ` Check: ${s.howToCheck}` : '';
  if (unreadable) return { end: { status: 'unknown', ...(http !== undefined ? { http } : {}), message: `outcome unknown: ${reasonOf(err)}, so the write may have landed; ${found}.${check}` } };
  if (s.kind === 'absent') return { end: { status: 'failed', ...(http !== undefined ? { http } : {}), message: `${reasonOf(err)}; ${found} (its own time): not stored; --resume sends it again, looked up first` } };
  return { end: { status: 'unknown', ...(http !== undefined ? { http } : {}), message: `outcome unknown: ${reasonOf(err)}; ${found}.${check}` } };
}

/** Resolves (unless given ready) and sends one request through the run's client (client/clientFor.ts). */
async function step(r: FlowRequest, scope: FlowScope, ctx: RowSendContext, careful: boolean, ready: PreparedRequest | undefined): Promise<Step> {
  let req: PreparedRequest;
  try {
    req = ready ?? (await prepareRequest(r, scope, ctx.read));
  } catch (err) {
    const reason = err instanceof FlowVariableError || err instanceof FlowBodyFileError ? `line ${err.position.line}: ${err.reason}` : (err as Error).message;
    return { end: { status: 'failed', message: cut(`${r.label}: not sent: ${reason}`) } };
  }
  await ctx.gate.pass();
  const client = ctx.send.client;
  const first = endpointsOf(req.method, req.url, client.environment, req.json).matches[0];
  const ownAuth = req.headers.some((h) => h.name.toLowerCase() === 'authorization');
  // A contract write goes through the client's call (clientFor.ts); its duplicate check applies to it alone.
  const contractWrite = first && !ownAuth && (req.body === undefined || req.json) && changesData(first.def.method) ? first : undefined;
  if (careful && contractWrite) {
    const checked = await checkFirst(client.partner(contractWrite.def.base), contractWrite.def, contractWrite.params, req.json?.value, ctx);
    if (checked) return checked;
  }
  const sent = await sendFlowRequest(req, { ...ctx.send, signal: undefined });
  if (contractWrite && sent.cause !== undefined) {
    const settled = checkable(contractWrite.def) ? await settle(sent.cause, client.partner(contractWrite.def.base), contractWrite.def, contractWrite.params, req.json?.value, sent.endpoints) : undefined;
    if (settled) return settled;
    if (sent.cause instanceof MalformedResponseError) return { end: { status: 'unknown', http: sent.cause.status, message: `outcome unknown: ${reasonOf(sent.cause)}, so the write may have landed. Check: ${howToCheck(contractWrite.def, contractWrite.params, req.json?.value)}` } };
  }
  if (sent.answer) return { answer: sent.answer, recovered: sent.recovered ?? false, endpoints: sent.endpoints };
  const unknown = changesData(req.method) && sent.outcomeUnknown === true;
  const reason = sent.cause !== undefined ? reasonOf(sent.cause) : (sent.error ?? 'no answer');
  return { end: { status: unknown ? 'unknown' : 'failed', message: cut(roundTimes(`${unknown ? 'outcome unknown: ' : ''}${reason}`)) } };
}

/** How a row's answer ends it, or undefined to go on (assertions, 5xx, 4xx). */
function judge(r: FlowRequest, answer: FlowAnswer, endpoints: readonly EndpointDef[], scope: FlowScope): RowOutcome | undefined {
  const failed = assertAll(r, answer, endpoints, scope).filter((a) => !a.passed);
  if (answer.status >= 500 || answer.status === 429) {
    // Retries ran out (docs/sending.md): a checked create was looked for first, others say outcome unknown. Not final: --resume tries it again carefully.
    return { status: 'failed', http: answer.status, message: `${r.label}: ${serverSaid(answer.body) || `answered ${answer.status}`} (retries ran out)` };
  }
  if (failed.length > 0 || answer.status >= 400) {
    const said = answer.status >= 400 ? serverSaid(answer.body) : '';
    return { status: 'refused', http: answer.status, message: cut(`${r.label}: ${[said, ...failed.map((a) => a.message)].filter(Boolean).join(' ')}`) };
  }
  return undefined;
}


/**
 * Sends the flow's requests for one row, in order.
 * @param careful the journal had started this row: check each write before it is sent again (module comment).
 * @param first a request already resolved for this row (its key was read from it: rowKey.ts), if one was.
 * @returns how the row ended; never throws for a request's failure.
 */
export async function sendRow(scope: RowScope, ctx: RowSendContext, careful: boolean, first?: { readonly index: number; readonly req: PreparedRequest }): Promise<RowOutcome> {
  let id: string | undefined;
  let recoveredAny = false;
  let lastStatus: number | undefined;
  for (const r of ctx.flow.requests) {
    if (ctx.signal?.aborted) return { status: 'cancelled', message: 'the run was cancelled before this request; --resume checks and continues it' };
    scope.dynamic.now.setTime(Date.now());
    const s = await step(r, scope, ctx, careful, r.index === first?.index ? first.req : undefined);
    if ('end' in s) return s.end;
    const { answer, recovered, endpoints } = s;
    lastStatus = answer.status;
    if (r.name !== undefined) scope.answers.set(r.name, answer);
    if (recovered) recoveredAny = true;
    else {
      const end = judge(r, answer, endpoints, scope);
      if (end) return end;
    }
    if (changesData(r.method)) id = idOf(answer.body) ?? id;
  }
  return { status: recoveredAny ? 'recovered' : 'created', ...(id !== undefined ? { id } : {}), ...(lastStatus !== undefined ? { http: lastStatus } : {}) };
}
