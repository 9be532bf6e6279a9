import Fastify, { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointDef, EndpointId } from '../contract';
import { UNAUTHORIZED_BODY, PartnerKey, TokenRejected, VerifiedTokenCache, checkEligibilityToken, importPartnerKey, verifyPartnerToken } from './auth';
import { SandboxDb } from './db/database';
import { errorBody, installErrorReplies, installMethodNotAllowed, logSafe } from './replies';
import { openStorage } from './db/open';
import { handlers, HandlerContext, writeScopeOf } from './handlers';
import { OpsContext } from './ops/common';
import { PartnerRecord, allPartners, findPartner, upsertPartner } from './ops/partners';
import { FaultInjector, RateLimiter } from './realism';
import { BASE_PREFIX, chooseAndParseBody, parseQuery, routeGroups, successStatus } from './routes';
import { loadSampleData } from './seed';
import { RequestLog } from './requestLog';
import { faultOf, installRequestLog, markFault } from './requestLogHooks';
import { select } from './ops/registrations';
import { DEFAULT_TERM_MONTHS } from './model';
import type { SandboxHandle, SandboxOptions } from './sandboxTypes';
import { SandboxClock } from './control/clock';
import { FaultSchedule, ScheduledFault, strike } from './control/faults';
import { JOURNAL_LIMIT } from './control/journal';
import { CONTROL_PREFIX, installControl, installHealth } from './control/routes';
import { controlEnabled, guardServer, timeLimits } from './control/security';
import { callableOrigin, sandboxAddresses } from './addresses';
import { AnswerCache, announcingWrites } from './db/answerCache';
import { AnswerWarmer } from './answerWarmer';

export { BASE_PREFIX } from './routes';
export { MAX_RESPONSE_BYTES, logSafe } from './replies';
export { zodIssues } from './routes';
export { writePgliteTemplate } from './db/pglite';
export type { PartnerSpec, SandboxHandle, SandboxOptions } from './sandboxTypes';

/**
 * The Local sandbox HTTP server (spec: Endpoints; Authentication; Errors). Routes come from the contract's endpoint
 * table; records live in a real database (PGlite in memory or under a data directory, or a PostgreSQL server).
 * Every request is authenticated before its body is read; every write is one transaction; a storage failure answers
 * 503 with Retry-After and stores nothing.
 */

/** Largest request body, in bytes (413 beyond). */
export const MAX_BODY_BYTES = 1024 * 1024;

interface Gate {
  group: EndpointDef[];
  partner?: PartnerRecord;
  startedAt: number;
  /** An injected fault (`faults.mode` after-commit) replaces the success answer by a 500. */
  faultAfterCommit?: boolean;
  /** A scheduled fault (control API) that replaces the success answer once the write is committed. */
  scheduledAfter?: ScheduledFault;
}
type GatedRequest = FastifyRequest & { tpp?: Gate };

/**
 * Starts the Local sandbox. Resolves once it listens; rejects when the port is taken, the data directory is in use
 * (Error named 'DataDirInUse'), corrupt or of an unknown schema version ('SandboxDataError'), the database server is
 * unreachable, or a partner key is invalid. The caller must `close()` it.
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  // One clock for everything time-dependent; the control API moves it (control/clock.ts).
  const clock = new SandboxClock(opts.now ?? Date.now);
  const now = clock.now;
  const log = opts.log ? (line: string) => opts.log?.(logSafe(line)) : undefined;
  const storage: SandboxDb = await openStorage({ dataDir: opts.dataDir, database: opts.database, log });
  // Answers kept between writes only where this process is the one writer (./db/answerCache.ts).
  const answers = storage.kind === 'pglite' ? new AnswerCache() : undefined;
  const db = answers ? announcingWrites(storage, answers) : storage;
  const context = new OpsContext(db, now, opts.termMonths ?? DEFAULT_TERM_MONTHS);
  const partners = new Map<string, PartnerRecord>();
  const warmer = answers ? new AnswerWarmer(context, answers, () => partners.keys()) : undefined;
  if (answers && warmer) {
    answers.afterWrite(() => warmer.schedule());
    clock.onChange(() => (answers.clear(), warmer.schedule()));
  }
  const keys = new Map<string, PartnerKey>();
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: MAX_BODY_BYTES, forceCloseConnections: true, return503OnClosing: true, routerOptions: { maxParamLength: 8192 }, ...timeLimits(opts.requestTimeoutMs) });
  guardServer(app, opts.host ?? '127.0.0.1', () => port);
  try {
    for (const p of await allPartners(context)) {
      partners.set(p.id, p);
      try {
        keys.set(p.id, await importPartnerKey(p.spkiPem));
      } catch {
        // a key stored by an earlier run that no longer imports: the partner must register again
      }
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  let eligibilityToken = opts.eligibilityToken;
  const tokenCache = new VerifiedTokenCache();
  const limiter = opts.rateLimitPerSecond && opts.rateLimitPerSecond > 0 ? new RateLimiter(opts.rateLimitPerSecond) : undefined;
  const faults = opts.faults ? new FaultInjector(opts.faults) : undefined;

  const registerPartner = async (id: string, spkiPem: string, name?: string): Promise<void> => {
    if (!id || /[\s/]/.test(id)) throw new Error(`Invalid Partner ID '${id}': no spaces or slashes`);
    const key = await importPartnerKey(spkiPem);
    const existing = partners.get(id);
    const segment = name ?? existing?.name ?? id;
    if (!existing || existing.spkiPem !== spkiPem || existing.name !== segment) partners.set(id, await upsertPartner(context, id, spkiPem, segment));
    keys.set(id, key);
  };
  /** The partner of a verified token; a partner registered by another sandbox on a shared server is read on first use. */
  const partnerOf = async (id: string): Promise<PartnerRecord | undefined> => {
    const known = partners.get(id);
    if (known) return known;
    const p = await findPartner(context, id);
    if (p) partners.set(id, p);
    return p;
  };
  const lookupKey = (iss: string) => keys.get(iss);

  // What a reset goes back to (control/reset.ts): the partners given and the sample data loaded before ready.
  const startupSeeds: { partner: string; count?: number }[] = [];
  const fail = async (e: unknown) => {
    warmer?.stop();
    await app.close().catch(() => undefined);
    await db.close();
    throw e;
  };
  try {
    for (const p of opts.partners ?? []) await registerPartner(p.id, p.spkiPem, p.name);
    for (const p of opts.seedCount && opts.seedCount > 0 ? (opts.partners ?? []) : []) {
      await loadSampleData(context, partners.get(p.id) as PartnerRecord, opts.seedCount);
      startupSeeds.push({ partner: p.id, count: opts.seedCount });
    }
  } catch (err) {
    return fail(err);
  }

  // No JSON body is taken as text: a text/plain body answers 415 (docs/sandbox.md).
  app.removeContentTypeParser('text/plain');
  installErrorReplies(app, log);
  const control = controlEnabled(opts.host ?? '127.0.0.1', opts.admin) ? new FaultSchedule() : undefined;
  let ready = !opts.admin?.starting;
  // With the control API on, the log is also its journal: at least JOURNAL_LIMIT entries.
  const requestLog = opts.requestLog || control ? new RequestLog({ limit: control ? Math.max(opts.requestLog?.limit ?? 0, JOURNAL_LIMIT) : opts.requestLog?.limit }) : undefined;
  const recordUnanswered = requestLog && installRequestLog(app, requestLog, {
      now,
      audienceOf: (req, group) => (group[0]?.base === 'v3' ? `${origin(req)}${BASE_PREFIX.v3}` : origin(req)),
      keyOf: (iss) => keys.get(iss)?.key,
      partnerIds: () => [...keys.keys()],
      findRegistration: async (partner, invoiceNumber, storeNumber) => (await select(context, partner, { invoiceNumber, storeNumber }))._id,
    });

  /**
   * The stderr line of a partner request (`<method> <path> <status> <ms>ms`; `no answer` for none), then, for an
   * injected answer, a line naming the fault, as a 401 is followed by its reason.
   */
  const logLine = (req: FastifyRequest, status: number): void => {
    if (!log || req.url.startsWith(CONTROL_PREFIX)) return;
    const started = (req as GatedRequest).tpp?.startedAt ?? performance.now();
    log(`${req.method} ${req.url} ${status || 'no answer'} ${(performance.now() - started).toFixed(1)}ms`);
    const f = faultOf(req);
    if (f) log(`${status || 'no answer'} ${req.method} ${req.url.split('?')[0] ?? ''} — ${f.by === 'schedule' ? `scheduled fault #${f.id}` : '--fault-rate'}: ${f.fault}, ${f.when}`);
  };
  if (log) app.addHook('onResponse', async (req, reply) => logLine(req, reply.statusCode));
  const unanswered = (req: FastifyRequest, reply: FastifyReply): void => {
    logLine(req, 0);
    recordUnanswered?.(req, reply);
  };

  const origin = (req: FastifyRequest): string => `http://${req.headers.host ?? `${opts.host ?? '127.0.0.1'}:${port}`}`;

  /**
   * Runs before the body is read (onRequest): authenticates, rate-limits and injects faults. Answers and returns
   * false when the request ends here; an unauthenticated request therefore never has its body parsed.
   */
  const gate = async (group: EndpointDef[], req: GatedRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const e = group[0] as EndpointDef;
    const state: Gate = { group, startedAt: performance.now() };
    req.tpp = state;
    let subject: string;
    if (e.base === 'eligibility') {
      if (!checkEligibilityToken(req.headers.authorization, eligibilityToken)) {
        log?.(`401 ${req.method} ${req.url.split('?')[0] ?? ''} — eligibility token missing or wrong`);
        return reply.code(401).type('application/json').send(JSON.stringify(UNAUTHORIZED_BODY));
      }
      subject = '(eligibility)';
    } else {
      const audience = e.base === 'v3' ? `${origin(req)}${BASE_PREFIX.v3}` : origin(req);
      try {
        subject = await verifyPartnerToken(req.headers.authorization, audience, lookupKey, Math.floor(now() / 1000), tokenCache);
      } catch (err) {
        if (!(err instanceof TokenRejected)) throw err;
        log?.(`401 ${req.method} ${req.url.split('?')[0] ?? ''} — ${err.message}`);
        return reply.code(401).type('application/json').send(JSON.stringify(UNAUTHORIZED_BODY));
      }
      state.partner = await partnerOf(subject);
    }
    if (opts.driftStatusForTests) return reply.code(opts.driftStatusForTests).send(errorBody(opts.driftStatusForTests, 'An answer the spec does not describe (driftStatusForTests)'));
    if (limiter) {
      const wait = limiter.take(subject, now());
      if (wait > 0) {
        return reply.code(429).header('Retry-After', String(wait)).send(errorBody(429, `Rate limit of ${opts.rateLimitPerSecond} requests per second exceeded; retry after ${wait} s`));
      }
    }
    if (faults?.enabled) {
      const d = faults.decide();
      if (d.delayMs > 0) await new Promise((r) => setTimeout(r, d.delayMs));
      if (d.status && opts.faults?.mode === 'after-commit') state.faultAfterCommit = true;
      else if (d.status) markFault(req, { by: 'fault-rate', fault: d.status, when: 'before' });
      if (d.status && !state.faultAfterCommit) return reply.code(d.status).send(errorBody(d.status, `Injected fault (${d.status}); nothing was processed, retry later`));
    }
    const scheduled = control?.take(req.method, req.url);
    if (scheduled?.when === 'after-commit') state.scheduledAfter = scheduled;
    else if (scheduled) return strike(scheduled, req, reply, false, unanswered);
    return undefined;
  };

  if (control && requestLog) {
    installControl(app, {
      context, clock, faults: control, journal: requestLog, version: opts.version ?? 'dev', adminToken: opts.admin?.token, port: () => port,
      isReady: () => ready, partner: partnerOf, partnerIds: () => [...keys.keys()], registerPartner,
      forgetPartners: () => (partners.clear(), keys.clear()), startup: () => ({ partners: opts.partners ?? [], seeds: startupSeeds }),
    });
  } else if (opts.admin?.enabled !== false) installHealth(app, { context, version: opts.version ?? 'dev', isReady: () => ready });

  const methodsByPath = new Map<string, Set<string>>();
  for (const [key, group] of routeGroups()) {
    const [method, url] = key.split(' ') as [EndpointDef['method'], string];
    methodsByPath.set(url, (methodsByPath.get(url) ?? new Set<string>()).add(method));
    app.route({
      method,
      url,
      onRequest: async (req, reply) => gate(group, req as GatedRequest, reply),
      handler: async (req, reply) => {
        const { endpoint, body } = chooseAndParseBody(group, req.body);
        const query = parseQuery(endpoint, (req.query ?? {}) as Record<string, unknown>);
        const partner = (req as GatedRequest).tpp?.partner;
        const params = (req.params ?? {}) as Record<string, string>;
        // A write that says what it changes drops only that from the answer cache (handlers.ts, writeScopeOf).
        const scope = answers && method !== 'GET' ? writeScopeOf(endpoint.id as EndpointId, partner?.id, params) : undefined;
        const c = scope && answers ? new OpsContext(announcingWrites(storage, answers, scope), now, context.termMonths) : context;
        const ctx: HandlerContext = { c, partner, params, query, body, endpoint, answers };
        const result = await handlers[endpoint.id as EndpointId](ctx);
        const status = result.status ?? successStatus(endpoint);
        // A scheduled or injected after-commit fault: the write above is committed; only its answer is lost.
        const after = (req as GatedRequest).tpp?.scheduledAfter;
        if (after && status < 300) return strike(after, req, reply, true, unanswered);
        if ((req as GatedRequest).tpp?.faultAfterCommit && status < 300) markFault(req, { by: 'fault-rate', fault: 500, when: 'after-commit' });
        if ((req as GatedRequest).tpp?.faultAfterCommit && status < 300) return reply.code(500).send(errorBody(500, 'Injected fault (500) after the request was processed and stored'));
        if (status === 204) return reply.code(204).send();
        // Built as JSON text by the handler: sent as it is (fastify's content type for JSON, no serialisation).
        if (result.json !== undefined) return reply.code(status).type('application/json; charset=utf-8').send(result.json);
        return reply.code(status).send(result.body);
      },
    });
  }
  installMethodNotAllowed(app, methodsByPath);

  let port = opts.port ?? 0;
  try {
    await app.listen({ host: opts.host ?? '127.0.0.1', port });
  } catch (err) {
    return fail(err);
  }
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : port;
  let closed = false;
  warmer?.schedule();
  return {
    ...sandboxAddresses(callableOrigin(opts.host ?? '127.0.0.1', port)),
    context,
    requestLog,
    registerPartner,
    setReady: () => {
      ready = true;
    },
    setEligibilityToken: (token) => {
      eligibilityToken = token || undefined;
    },
    loadSampleData: async (partnerId, count) => {
      const partner = await partnerOf(partnerId);
      if (!partner) throw new Error(`Unknown partner ${partnerId}`);
      if (!ready) startupSeeds.push({ partner: partnerId, count });
      return loadSampleData(context, partner, count);
    },
    async close() {
      if (closed) return;
      closed = true;
      warmer?.stop();
      try {
        await app.close();
      } finally {
        await db.close();
      }
    },
  };
}
