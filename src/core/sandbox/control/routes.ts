import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OpsContext } from '../ops/common';
import { errorBody } from '../replies';
import { bad, pathOf } from './input';
import { queryJournal } from './journal';
import { CONTROL_BODY_CALLS, CONTROL_ENDPOINTS, CONTROL_PREFIX, MAX_SEED_BODY_BYTES, STARTING_RETRY_AFTER_SECONDS } from './limits';
import { installClock } from './clockRoutes';
import { noQuery, parseControl, partnersBody, requestsQuery } from './schemas';
import { installStateRoutes } from './stateRoutes';
import type { ControlDeps } from './deps';

export type { ControlDeps } from './deps';

export { CONTROL_ENDPOINTS, CONTROL_PREFIX } from './limits';
import { bearerMatches, CLI_TOKEN_HELP, CONTROL_BODY_TYPES, mediaType } from './security';
import { crossSiteReason } from '../../serverGuards/guards';

/**
 * The control API of the Local sandbox under {@link CONTROL_PREFIX} (docs/testing-your-application.md): health, reset,
 * seed, the request journal, scheduled faults, the clock and partners, for an integrator's automated tests. Its routes
 * live in their own fastify scope (their own body parsers); they never pass the partner gate (no JWT, no rate limit,
 * no faults) and are never journalled as partner traffic.
 */

/** Where the records are: `memory`, `data-dir` (PGlite under a directory) or `postgres`. */
function storageKind(c: OpsContext): string {
  return c.db.kind === 'postgres' ? 'postgres' : c.db.where === 'memory' ? 'memory' : 'data-dir';
}

/**
 * `GET /__tpp/health` on `scope`: 200 `{"status":"ready","version","storage"}` once ready; until then 503 with
 * `Retry-After` and `"status":"starting"`. Never needs a token, so a container's readiness probe can call it on any
 * bind (docs/testing-your-application.md, Security).
 */
export function installHealth(scope: FastifyInstance, deps: Pick<ControlDeps, 'context' | 'version' | 'isReady'>): void {
  scope.get(`${CONTROL_PREFIX}/health`, async (req, reply) => {
    parseControl(noQuery, req.query, 'query.');
    const body = { status: deps.isReady() ? 'ready' : 'starting', version: deps.version, storage: storageKind(deps.context) };
    if (body.status === 'ready') return body;
    return reply.code(503).header('Retry-After', String(STARTING_RETRY_AFTER_SECONDS)).send(body);
  });
}

/** Longest wait of a journal read for partner requests still being logged, in milliseconds. */
const SETTLE_LIMIT_MS = 2000;

/**
 * Answers and ends a control call that a web page could have made, or one without the admin token
 * (docs/testing-your-application.md, Security): a cross-site `Origin`/`Sec-Fetch-Site` (403), a POST whose body is not
 * JSON or NDJSON (415: a page cannot send those without asking first, and the sandbox never answers that question
 * with CORS headers), a missing or wrong admin token where one is set (401; health needs none).
 */
async function refuse(req: FastifyRequest, reply: FastifyReply, port: number, adminToken?: string, tokenHelp = CLI_TOKEN_HELP): Promise<FastifyReply | undefined> {
  const crossSite = crossSiteReason(req.headers, port);
  if (crossSite) return reply.code(403).send(errorBody(403, `The control API refuses calls from web pages (${crossSite}); call it from your test suite or a terminal`));
  if (req.method === 'POST' && !CONTROL_BODY_TYPES.includes(mediaType(req.headers['content-type']))) {
    return reply.code(415).send(errorBody(415, `A control POST must send Content-Type: application/json (application/x-ndjson for a seed), also without a body`));
  }
  if (!adminToken || req.url === `${CONTROL_PREFIX}/health`) return undefined;
  if (bearerMatches(req.headers.authorization, adminToken)) return undefined;
  return reply.code(401).send(errorBody(401, `The control API needs this sandbox's admin token, and ${req.headers.authorization ? 'the one sent is not it' : 'none was sent'}. ${tokenHelp}`));
}

/** The journal and the fault schedule. */
function installTestAids(scope: FastifyInstance, deps: ControlDeps): void {
  const { faults, journal } = deps;
  const none = (req: FastifyRequest) => parseControl(noQuery, req.query, 'query.');
  scope.get(`${CONTROL_PREFIX}/requests`, async (req) => {
    // A journal read right after a test's call sees that call: its place was taken when its answer went out, and
    // a failure's entry is written once its diagnosis is done.
    await journal.settled(SETTLE_LIMIT_MS);
    return queryJournal(journal, parseControl(requestsQuery, req.query, 'query.'));
  });
  scope.delete(`${CONTROL_PREFIX}/requests`, async (req) => {
    none(req);
    const cleared = journal.size;
    journal.clear();
    return { cleared };
  });

  scope.get(`${CONTROL_PREFIX}/faults`, async (req) => (none(req), { faults: faults.list() }));
  scope.post(`${CONTROL_PREFIX}/faults`, async (req, reply) => (none(req), reply.code(201).send({ scheduled: faults.add(req.body) })));
  scope.delete(`${CONTROL_PREFIX}/faults`, async (req) => (none(req), { cleared: faults.clear() }));
}

/** `POST /__tpp/partners`. */
function installPartners(scope: FastifyInstance, deps: ControlDeps): void {
  scope.post(`${CONTROL_PREFIX}/partners`, async (req, reply) => {
    parseControl(noQuery, req.query, 'query.');
    const { id, company_name: name, spki_pem: pem } = parseControl(partnersBody, req.body);
    if (/[\s/]/.test(id)) throw bad('id', 'must have no spaces or slashes');
    if (name !== undefined && /[\s/]/.test(name)) throw bad('company_name', 'must have no spaces or slashes');
    if (/PRIVATE KEY/.test(pem)) throw bad('spki_pem', "holds a private key; give the partner's public key (SPKI PEM)");
    try {
      await deps.registerPartner(id, pem, name);
    } catch (err) {
      throw bad('spki_pem', `is not a P-256, P-384 or P-521 public key in SPKI PEM: ${(err as Error).message}`);
    }
    const p = await deps.partner(id);
    return reply.code(201).send({ id, company_name: p?.name ?? name ?? id });
  });
}

/** Any other path under the prefix: 404 listing the control calls; a known path with another method: 405 with `Allow`. */
function installUnknown(scope: FastifyInstance): void {
  const endpointList = CONTROL_ENDPOINTS.map(([m, p]) => `${m} ${CONTROL_PREFIX}/${p}`);
  const templates = CONTROL_ENDPOINTS.map(([m, p]) => [m, new RegExp(`^${CONTROL_PREFIX}/${p.replace(/\{[^}]+\}/g, '[^/]+')}$`)] as const);
  const unknown = async (req: FastifyRequest, reply: FastifyReply) => {
    // The path as called: with a trailing slash it is no control endpoint (404), never a 405 that names the method used.
    const path = req.url.split('?')[0] ?? '';
    const allowed = templates.filter(([, p]) => p.test(path)).map(([m]) => m);
    if (allowed.length) return reply.code(405).header('Allow', allowed.join(', ')).send(errorBody(405, `${req.method} is not allowed here; use ${allowed.join(' or ')}`));
    return reply.code(404).send(errorBody(404, `No control endpoint at ${req.method} ${path || '/'}; the control endpoints are: ${endpointList.join(', ')}`, undefined, { endpoints: endpointList }));
  };
  scope.all(CONTROL_PREFIX, unknown);
  scope.all(`${CONTROL_PREFIX}/*`, unknown);
}

/**
 * Refuses a body sent to a control call that takes none (400 naming `body`), as an unknown property is refused: a
 * body that changes nothing must not look as if it did (`{"keepClock": true}` on a restore). An empty body (only the
 * Content-Type) is no body.
 */
function installNoBody(scope: FastifyInstance): void {
  const bodiless = new Set(CONTROL_ENDPOINTS.map(([m, p]) => `${m} ${p}`).filter((call) => !CONTROL_BODY_CALLS.has(call)).map((call) => call.replace(' ', ` ${CONTROL_PREFIX}/`).replace(/\{(\w+)\}/g, ':$1')));
  scope.addHook('preHandler', async (req) => {
    if (!bodiless.has(`${req.method} ${req.routeOptions.url}`)) return;
    const length = Number(req.headers['content-length'] ?? 0);
    if (req.body === undefined && !(length > 0)) return;
    throw bad('body', `${req.method} ${pathOf(req.url)} takes no body, and ${length > 0 ? `${length} bytes were sent` : 'one was sent'}: nothing was done. Send none (an empty body with its Content-Type is none)`);
  });
}

/** Registers the control API's routes on `app` (before it listens), after the request log's hooks. */
export function installControl(app: FastifyInstance, deps: ControlDeps): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(['application/x-ndjson', 'application/ndjson'], { parseAs: 'string', bodyLimit: MAX_SEED_BODY_BYTES }, (_req, body, done) => done(null, body));
    // An empty JSON body is no body (`POST /__tpp/reset` with only its Content-Type); anything else parses as fastify does.
    const json = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => (body === '' ? done(null, undefined) : json(req, body as string, done)));
    scope.addHook('onRequest', async (req, reply) => refuse(req, reply, deps.port(), deps.adminToken, deps.tokenHelp));
    installNoBody(scope);
    installHealth(scope, deps);
    installStateRoutes(scope, deps);
    installTestAids(scope, deps);
    installClock(scope, deps);
    installPartners(scope, deps);
    installUnknown(scope);
  });
}
