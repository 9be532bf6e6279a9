import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointDef } from '../contract';
import { UNAUTHORIZED_BODY, TokenRejected, checkEligibilityToken, verifyPartnerToken } from './auth';
import { errorBody } from './replies';
import type { PartnerRecord } from './ops/partners';
import { faultOf, markFault } from './requestLogHooks';
import type { ScheduledFault } from './control/faults';
import { AFTER_BODY, strike, type StrikeHooks } from './control/faults';
import { CONTROL_PREFIX, STARTING_RETRY_AFTER_SECONDS } from './control/limits';
import type { SandboxState } from './state';

/**
 * The partner gate of the Local sandbox (spec: Authentication; Errors, 429 and 5xx): what runs before a partner
 * request's body is read. It authenticates, rate-limits and injects faults (`--fault-rate`, scheduled faults of the
 * control API), and writes the stderr lines of partner requests.
 */

/** What the gate leaves on a request for its handler and the request log. */
export interface Gate {
  group: EndpointDef[];
  partner?: PartnerRecord;
  startedAt: number;
  /** An injected fault (`faults.mode` after-commit) replaces the success answer by a 500. */
  faultAfterCommit?: boolean;
  /** A scheduled fault (control API) that replaces the success answer once the write is committed. */
  scheduledAfter?: ScheduledFault;
  /** The schedule needs the body to decide: asked again once it is parsed (./partnerRoutes.ts). */
  scheduleAfterBody?: boolean;
}
export type GatedRequest = FastifyRequest & { tpp?: Gate };

/** The gate's functions over one sandbox's state (with the waits of its faults, for {@link strike}). */
export interface PartnerGate extends StrikeHooks {
  /** Answers and returns the reply when the request ends at the gate; undefined lets it through. */
  gate(group: EndpointDef[], req: GatedRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Records a request that got no answer (a `timeout` or `close` fault) in stderr and the request log. */
  unanswered(req: FastifyRequest, reply: FastifyReply): void;
}

/**
 * The stderr line of a partner request (`<method> <path> <status> <ms>ms`; `no answer` for none), then, for an
 * injected answer, a line naming the fault, as a 401 is followed by its reason.
 */
function logLine(s: SandboxState, req: FastifyRequest, status: number): void {
  if (!s.log || req.url.startsWith(CONTROL_PREFIX)) return;
  const started = (req as GatedRequest).tpp?.startedAt ?? performance.now();
  s.log(`${req.method} ${req.url} ${status || 'no answer'} ${(performance.now() - started).toFixed(1)}ms`);
  const f = faultOf(req);
  if (f) s.log(`${status || 'no answer'} ${req.method} ${req.url.split('?')[0] ?? ''} — ${f.by === 'schedule' ? `scheduled fault #${f.id}` : '--fault-rate'}: ${f.fault}, ${f.when}${f.clientClosed ? ', the client closed the connection first' : ''}`);
}

/** 401 with the spec's body; the reason goes to stderr only (spec: Authentication step 6). */
function refuse(s: SandboxState, req: FastifyRequest, reply: FastifyReply, reason: string): FastifyReply {
  s.log?.(`401 ${req.method} ${req.url.split('?')[0] ?? ''} — ${reason}`);
  return reply.code(401).type('application/json').send(JSON.stringify(UNAUTHORIZED_BODY));
}

/** The subject of a request's token (the Partner ID, or `(eligibility)`), or the 401 reply that ended it. */
async function authenticate(s: SandboxState, e: EndpointDef, state: Gate, req: FastifyRequest, reply: FastifyReply): Promise<string | FastifyReply> {
  if (e.base === 'eligibility') {
    return checkEligibilityToken(req.headers.authorization, s.eligibilityToken) ? '(eligibility)' : refuse(s, req, reply, 'eligibility token missing or wrong');
  }
  try {
    const subject = await verifyPartnerToken(req.headers.authorization, s.audienceOf(req, state.group), (iss) => s.keys.get(iss), Math.floor(s.now() / 1000), s.tokenCache);
    state.partner = await s.partnerOf(subject);
    return subject;
  } catch (err) {
    if (!(err instanceof TokenRejected)) throw err;
    return refuse(s, req, reply, err.message);
  }
}

/** Rate limit and `--fault-rate`: the reply when one of them answers. */
async function realism(s: SandboxState, subject: string, state: Gate, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const wait = s.limiter?.take(subject, s.now()) ?? 0;
  if (wait > 0) return reply.code(429).header('Retry-After', String(wait)).send(errorBody(429, `Rate limit of ${s.opts.rateLimitPerSecond} requests per second exceeded; retry after ${wait} s`));
  if (!s.injector?.enabled) return undefined;
  const d = s.injector.decide();
  if (d.delayMs > 0) await s.sleep(d.delayMs);
  if (d.status && s.opts.faults?.mode === 'after-commit') state.faultAfterCommit = true;
  else if (d.status) markFault(req, { by: 'fault-rate', fault: d.status, when: 'before' });
  if (d.status && !state.faultAfterCommit) return reply.code(d.status).send(errorBody(d.status, `Injected fault (${d.status}); nothing was processed, retry later`));
  return undefined;
}

/**
 * A scheduled fault taken before the request is processed: strikes now (`before`), or is kept on the request to
 * strike once its write is committed. Undefined lets the request go on (a `delayMs` alone: it has waited).
 */
export async function scheduledBefore(f: ScheduledFault, req: GatedRequest, reply: FastifyReply, hooks: StrikeHooks): Promise<FastifyReply | undefined> {
  if (f.when !== 'after-commit') return strike(f, req, reply, false, hooks);
  if (req.tpp) req.tpp.scheduledAfter = f;
  return undefined;
}

/**
 * 503 with `Retry-After` while the sandbox is not ready yet (it loads its sample data, docs/testing-your-application.md,
 * The fixture pattern): nothing is read or stored.
 */
function starting(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .header('Retry-After', String(STARTING_RETRY_AFTER_SECONDS))
    .send(errorBody(503, `The Local sandbox is starting (loading its sample data): nothing was processed; retry after ${STARTING_RETRY_AFTER_SECONDS} s, or wait until GET /__tpp/health answers ready`));
}

/** Installs the stderr line of every answer and builds the gate of `s`. */
export function installGate(s: SandboxState, recordUnanswered?: (req: FastifyRequest, reply: FastifyReply) => void): PartnerGate {
  if (s.log) s.app.addHook('onResponse', async (req, reply) => logLine(s, req, reply.statusCode));
  const unanswered = (req: FastifyRequest, reply: FastifyReply): void => {
    logLine(s, req, 0);
    recordUnanswered?.(req, reply);
  };
  const hooks: StrikeHooks = { sleep: s.sleep, unanswered };
  const gate = async (group: EndpointDef[], req: GatedRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const state: Gate = { group, startedAt: performance.now() };
    req.tpp = state;
    if (!s.ready) return starting(reply);
    const subject = await authenticate(s, group[0] as EndpointDef, state, req, reply);
    if (typeof subject !== 'string') return subject;
    const drift = s.opts.driftStatusForTests;
    if (drift) return reply.code(drift).send(errorBody(drift, 'An answer the spec does not describe (driftStatusForTests)'));
    // Only when asked for (`--rate-limit`, `--fault-rate`, `--slow-rate`): no promise per request otherwise.
    if (s.limiter || s.injector?.enabled) {
      const early = await realism(s, subject, state, req, reply);
      if (early) return early;
    }
    const scheduled = s.schedule?.take({ method: req.method, url: req.url, partner: state.partner?.id });
    if (scheduled === AFTER_BODY) state.scheduleAfterBody = true;
    else if (scheduled) return scheduledBefore(scheduled, req, reply, hooks);
    return undefined;
  };
  return { gate, sleep: s.sleep, unanswered };
}
