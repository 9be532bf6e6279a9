/**
 * One row of a backfill sent (docs/backfills.md, Sending): the flow's requests in order, each resolved with the
 * row's values and sent through the partner client (docs/sending.md: fresh JWT per attempt, retries, duplicate-safe
 * creates). A row resumed from a journal that had started it is sent carefully: before a write is sent again, the
 * client's own duplicate check (client/repeat.ts: registrations by `invoiceNumber`, claims by
 * `serviceInvoiceNumber`) looks for it; a write that has no such check is not sent again but reported as
 * "outcome unknown" with what to check, unless the user said to (`retryUnknown`).
 */
import type { PartnerClient } from '../client/client';
import { endpointsOf } from '../client/clientFor';
import { CHECKABLE_CREATES, repeatPolicyFor, type ReadForCheck } from '../client/repeat';
import { ENDPOINTS } from '../contract/endpoints';
import { changesData } from '../contract/methods';
import type { EndpointDef, EndpointId } from '../contract/types';
import { prepareRequest, FlowBodyFileError, FlowVariableError } from '../flows/prepare';
import { assertAll } from '../flows/run';
import { sendFlowRequest, type FlowSendContext, type PreparedRequest } from '../flows/send';
import type { FlowFile, FlowRequest } from '../flows/types';
import type { FlowAnswer, FlowScope } from '../flows/variables';
import type { Gate, RowScope } from './context';
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

const MAX_MESSAGE = 300;
const cut = (s: string): string => (s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}…` : s);

/** The server's words in an error body (`message`, `error`), cut short. */
function serverSaid(body: string): string {
  try {
    const v = JSON.parse(body) as Record<string, unknown>;
    const m = v.message ?? v.error ?? v.Message;
    if (typeof m === 'string') return cut(m);
  } catch {
    // not JSON
  }
  return cut(body.trim());
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

/** Looks for the write before sending it again (resume); `undefined`: nothing found, send it. */
async function checkFirst(client: PartnerClient, def: EndpointDef, params: Record<string, string>, body: unknown, ctx: RowSendContext): Promise<Step | undefined> {
  const readId = CHECKABLE_CREATES[def.id as EndpointId];
  const read: ReadForCheck = async (readDef, p, query) => {
    const res = await client.call(readDef.id as EndpointId, p as never, undefined as never, { query: query as never });
    return { body: res.body, url: res.url };
  };
  const policy = repeatPolicyFor(def, params, body, undefined, readId ? ENDPOINTS[readId] : undefined, read, 50);
  if (policy.kind === 'safe') return undefined;
  if (policy.kind === 'unsafe') return ctx.retryUnknown ? undefined : { end: { status: 'unknown', message: `outcome unknown: check ${policy.howToCheck ?? 'the record'} (then resume with --retry-unknown to send it again)` } };
  try {
    const found = await policy.check(undefined, undefined);
    if (!found.landed) return undefined;
    return { answer: answerOf(200, JSON.stringify(found.body), 0), recovered: true, endpoints: [def] };
  } catch (err) {
    return { end: { status: 'unknown', message: cut(`outcome unknown: the duplicate check failed (${(err as Error).message}); check: ${policy.howToCheck ?? 'the record'}`) } };
  }
}

/** Resolves and sends one request through the run's client (client/clientFor.ts), a resumed write checked first. */
async function step(r: FlowRequest, scope: FlowScope, ctx: RowSendContext, careful: boolean): Promise<Step> {
  let req: PreparedRequest;
  try {
    req = await prepareRequest(r, scope, ctx.read);
  } catch (err) {
    const reason = err instanceof FlowVariableError || err instanceof FlowBodyFileError ? `line ${err.position.line}: ${err.reason}` : (err as Error).message;
    return { end: { status: 'failed', message: cut(`${r.label}: not sent: ${reason}`) } };
  }
  await ctx.gate.pass();
  const client = ctx.send.client;
  const first = endpointsOf(req.method, req.url, client.environment, req.json).matches[0];
  if (careful && first && changesData(first.def.method) && !req.headers.some((h) => h.name.toLowerCase() === 'authorization')) {
    const checked = await checkFirst(client.partner(first.def.base), first.def, first.params, req.json?.value, ctx);
    if (checked) return checked;
  }
  const sent = await sendFlowRequest(req, ctx.send);
  if (sent.answer) return { answer: sent.answer, recovered: sent.recovered ?? false, endpoints: sent.endpoints };
  const unknown = changesData(req.method) && sent.outcomeUnknown === true;
  return { end: { status: unknown ? 'unknown' : 'failed', message: cut(`${unknown ? 'outcome unknown: ' : ''}${sent.error ?? 'no answer'}`) } };
}

/**
 * Sends the flow's requests for one row, in order.
 * @param careful the journal had started this row: check each write before it is sent again (module comment).
 * @returns how the row ended; never throws for a request's failure.
 */
export async function sendRow(scope: RowScope, ctx: RowSendContext, careful: boolean): Promise<RowOutcome> {
  let id: string | undefined;
  let recoveredAny = false;
  let lastStatus: number | undefined;
  for (const r of ctx.flow.requests) {
    if (ctx.signal?.aborted) return { status: 'cancelled', message: 'the run was cancelled before this request; --resume checks and continues it' };
    scope.dynamic.now.setTime(Date.now());
    const s = await step(r, scope, ctx, careful);
    if ('end' in s) return s.end;
    const { answer, recovered, endpoints } = s;
    lastStatus = answer.status;
    if (r.name !== undefined) scope.answers.set(r.name, answer);
    if (recovered) recoveredAny = true;
    else {
      const failed = assertAll(r, answer, endpoints, scope).filter((a) => !a.passed);
      if (answer.status >= 500 || answer.status === 429) {
        // Retries ran out (docs/sending.md): a checked create was looked for first, others say outcome unknown. Not final: --resume tries it again carefully.
        return { status: 'failed', http: answer.status, message: cut(`${r.label}: ${serverSaid(answer.body) || `answered ${answer.status}`} (retries ran out)`) };
      }
      if (failed.length > 0 || answer.status >= 400) {
        const said = answer.status >= 400 ? serverSaid(answer.body) : '';
        return { status: 'refused', http: answer.status, message: cut(`${r.label}: ${[said, ...failed.map((a) => a.message)].filter(Boolean).join(' ')}`) };
      }
    }
    if (changesData(r.method)) id = idOf(answer.body) ?? id;
  }
  return { status: recoveredAny ? 'recovered' : 'created', ...(id !== undefined ? { id } : {}), ...(lastStatus !== undefined ? { http: lastStatus } : {}) };
}
