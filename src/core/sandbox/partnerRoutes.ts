import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointDef, EndpointId } from '../contract';
import { errorBody, installMethodNotAllowed } from './replies';
import { handlers, HandlerContext, writeScopeOf } from './handlers';
import { OpsContext } from './ops/common';
import { chooseAndParseBody, parseQuery, routeGroups, successStatus } from './routes';
import { markFault } from './requestLogHooks';
import { AFTER_BODY, garble, strike } from './control/faults';
import { MALFORMED_KINDS } from './control/limits';
import { announcingWrites } from './db/answerCache';
import { scheduledBefore, type GatedRequest, type PartnerGate } from './gate';
import type { SandboxState } from './state';

/**
 * The partner interface's routes (spec: Endpoints), one per method and path of the contract's endpoint table, each
 * behind the gate (./gate.ts); a path with another method answers 405 with `Allow`.
 */

/** The handler of one route: parse, run the endpoint's handler, answer (or let an after-commit fault answer). */
async function answer(s: SandboxState, pg: PartnerGate, group: EndpointDef[], req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if ((req as GatedRequest).tpp?.scheduleAfterBody) {
    // A scheduled fault that matches on body fields: decided on the body as sent, before it is checked.
    const f = s.schedule?.take({ method: req.method, url: req.url, partner: (req as GatedRequest).tpp?.partner?.id, body: req.body });
    // A reply is a thenable: awaited, it gives no reply back; `sent` says whether the fault answered.
    if (f && f !== AFTER_BODY) await scheduledBefore(f, req as GatedRequest, reply, pg);
    if (reply.sent) return reply;
  }
  const { endpoint, body } = chooseAndParseBody(group, req.body);
  const query = parseQuery(endpoint, (req.query ?? {}) as Record<string, unknown>);
  const gate = (req as GatedRequest).tpp;
  const partner = gate?.partner;
  const params = (req.params ?? {}) as Record<string, string>;
  // A write that says what it changes drops only that from the answer cache (handlers.ts, writeScopeOf).
  const scope = s.answers && endpoint.method !== 'GET' ? writeScopeOf(endpoint.id as EndpointId, partner?.id, params) : undefined;
  const c = scope && s.answers ? new OpsContext(announcingWrites(s.storage, s.answers, scope), s.now, s.context.termMonths) : s.context;
  const ctx: HandlerContext = { c, partner, params, query, body, endpoint, answers: s.answers };
  const result = await handlers[endpoint.id as EndpointId](ctx);
  const status = result.status ?? successStatus(endpoint);
  // A scheduled or injected after-commit fault: the write above is committed; only its answer is lost.
  const after = gate?.scheduledAfter && status < 300 ? gate.scheduledAfter : undefined;
  if (after?.fault !== undefined && MALFORMED_KINDS.includes(String(after.fault))) {
    await strike(after, req, reply, true, pg);
    if (reply.sent) return reply;
    return garble(after, reply, status, result.json ?? (result.body === undefined ? '' : JSON.stringify(result.body)));
  }
  if (after) await strike(after, req, reply, true, pg);
  if (reply.sent) return reply;
  if (gate?.faultAfterCommit && status < 300) {
    markFault(req, { by: 'fault-rate', fault: 500, when: 'after-commit' });
    return reply.code(500).send(errorBody(500, 'Injected fault (500) after the request was processed and stored'));
  }
  if (status === 204) return reply.code(204).send();
  // Built as JSON text by the handler: sent as it is (fastify's content type for JSON, no serialisation).
  if (result.json !== undefined) return reply.code(status).type('application/json; charset=utf-8').send(result.json);
  return reply.code(status).send(result.body);
}

/** Registers every partner route of the endpoint table on `s.app`, behind `pg`'s gate. */
export function installPartnerRoutes(s: SandboxState, pg: PartnerGate): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const [key, group] of routeGroups()) {
    const [method, url] = key.split(' ') as [EndpointDef['method'], string];
    methodsByPath.set(url, (methodsByPath.get(url) ?? new Set<string>()).add(method));
    s.app.route({
      method,
      url,
      onRequest: async (req, reply) => pg.gate(group, req as GatedRequest, reply),
      handler: async (req, reply) => answer(s, pg, group, req, reply),
    });
  }
  installMethodNotAllowed(s.app, methodsByPath);
}
