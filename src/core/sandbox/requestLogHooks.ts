import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointDef } from '../contract';
import { decodeJwt } from '../jwt/inspect';
import { RequestLog, RequestLogEntry, type InjectedFault, type RawRequest } from '../requestLog/requestLog';
import { diagnose } from '../requestLog/requestLogDiagnosis';

/**
 * Feeds the Local sandbox's {@link RequestLog} from fastify. What a request costs the log when
 * it succeeds: the raw JSON body text is kept by the JSON parser (same parser and limits as fastify's own), the
 * answer's text is referenced in `onSend`, and one entry is built in `onResponse`, after the answer has gone out.
 * Masking and capping wait until an entry's exchange is asked for; a diagnosis is computed only for a failure.
 */

/** What the sandbox's gate leaves on a request (server.ts `Gate`), as far as the log reads it. */
interface GateState {
  readonly group?: readonly EndpointDef[];
  readonly partner?: { readonly id: string };
}

type LoggedRequest = FastifyRequest & { tpp?: GateState; tppBody?: string; tppAnswer?: string; tppFault?: InjectedFault };

/** Marks `req` as answered by an injected fault: its log entry, `--log json` line and stderr line say which. */
export function markFault(req: FastifyRequest, fault: InjectedFault): void {
  (req as LoggedRequest).tppFault = fault;
}

/** The injected fault that answered `req`, when one did. */
export function faultOf(req: FastifyRequest): InjectedFault | undefined {
  return (req as LoggedRequest).tppFault;
}

/**
 * The JSON body parser of `app` (fastify's own, with its limits), but for an empty body, which is no body: a POST that
 * sends only its `Content-Type` is answered as one without a body (a 404 where no route is, a 400 naming the missing
 * body where one is needed), never as malformed JSON (docs/testing-your-application.md, Security). With `keepText`,
 * the text is kept for the request log.
 */
export function installJsonBodies(app: FastifyInstance, keepText: boolean): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') return done(null, undefined);
    if (keepText) (req as LoggedRequest).tppBody = body as string;
    parseJson(req, body as string, done);
  });
}

/** The sandbox's view of partners and addresses, as the diagnosis needs it. */
export interface RequestLogContext {
  /** Clock in milliseconds since epoch (the sandbox's). */
  readonly now: () => number;
  /**
   * What that clock read when a request that took `elapsedMs` arrived (a frozen clock: its instant, which the records
   * written meanwhile carry too); absent: now minus `elapsedMs`.
   */
  readonly arrivedAt?: (elapsedMs: number) => number;
  /** The base address the `aud` of a token must equal on a route of `group`, for this request's Host. */
  audienceOf(req: FastifyRequest, group: readonly EndpointDef[]): string;
  /** The registered public key of a Partner ID. */
  keyOf(iss: string): KeyObject | undefined;
  /** Registered Partner IDs. */
  partnerIds(): readonly string[];
  /** Id of the partner's registration with that invoice (and store) number, if exactly one exists. */
  findRegistration?(partner: string, invoiceNumber: string, storeNumber: string | undefined): Promise<string | undefined>;
}

/** The `iss` a refused token claims, when readable (never the token itself). */
function claimedIss(authorization: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)/i.exec(authorization ?? '');
  const iss = m?.[1] ? decodeJwt(m[1]).claims?.iss : undefined;
  return typeof iss === 'string' ? iss.slice(0, 200) : undefined;
}

/**
 * Installs the log's hooks on `app` (before its routes are added). Call after the error replies are installed, so
 * that the logged answer is the one sent. Returns the recorder of a request that gets no answer (a `timeout` or
 * `close` fault: fastify runs no onResponse hook for it), logged with status 0.
 */
export function installRequestLog(app: FastifyInstance, log: RequestLog, ctx: RequestLogContext): (req: FastifyRequest, reply: FastifyReply) => void {
  installJsonBodies(app, true);
  /** Takes the request's place in the log now, as its answer has gone out, and publishes its entry once built. */
  const record = (request: FastifyRequest, reply: FastifyReply, unanswered = false): void => {
    // First, before the log takes any place for this request: the control API is never partner traffic
    // (control/routes.ts).
    if (request.url.startsWith('/__tpp')) return;
    // The place in the log is taken now, in the order answers went out; a diagnosis below may finish later.
    const publish = log.reserve();
    const req = request as LoggedRequest;
    const end = ctx.now();
    const status = unanswered ? 0 : reply.statusCode;
    const state = req.tpp;
    const fault = req.tppFault;
    const authorization = req.headers.authorization;
    const ms = reply.elapsedTime;
    const raw: RawRequest = {
      method: req.method,
      url: `http://${req.headers.host ?? 'localhost'}${req.url}`,
      path: req.url,
      headers: req.headers,
      body: req.tppBody,
      status,
      responseHeaders: unanswered ? {} : reply.getHeaders(),
      responseBody: unanswered ? undefined : req.tppAnswer,
      ms,
      atMs: ctx.arrivedAt?.(ms),
      partner: state?.partner?.id ?? (status === 401 ? claimedIss(authorization) : undefined),
      fault,
    };
    if (status < 400 && !fault) {
      publish(new RequestLogEntry(raw, [], end));
      return;
    }
    const group = state?.group;
    const partner = state?.partner?.id;
    diagnose({
      status,
      method: req.method,
      group,
      params: (req.params ?? {}) as Record<string, string>,
      authorization,
      userAgent: req.headers['user-agent'],
      audience: group ? ctx.audienceOf(req, group) : undefined,
      body: req.tppBody,
      responseBody: req.tppAnswer,
      nowSeconds: Math.floor(end / 1000),
      keyOf: (iss) => ctx.keyOf(iss),
      partnerIds: () => ctx.partnerIds(),
      fault,
      findRegistration: partner && ctx.findRegistration ? (inv, store) => ctx.findRegistration?.(partner, inv, store) ?? Promise.resolve(undefined) : undefined,
    })
      // Published even when the diagnosis failed, so that its place never holds back the entries after it.
      .then((diagnosis) => publish(new RequestLogEntry(raw, diagnosis, end)), () => publish(new RequestLogEntry(raw, [], end)));
  };

  // Both hooks take fastify's callback form: no promise per request, and nothing waits for an entry's diagnosis.
  app.addHook('onSend', (req, _reply, payload, done) => {
    if (typeof payload === 'string') (req as LoggedRequest).tppAnswer = payload;
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    record(request, reply);
    done();
  });
  return (req, reply) => record(req, reply, true);
}
