import Fastify, { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ENDPOINTS } from '../contract';
import { UNAUTHORIZED_BODY, PartnerKey, TokenRejected, VerifiedTokenCache, checkEligibilityToken, importPartnerKey, verifyPartnerToken } from './auth';
import { ApiError, Issue, MAX_PAGE_SIZE, SandboxOperations, errorName } from './operations';
import type { EndpointDef, EndpointId } from '../contract';
import { FaultInjector, FaultOptions, RateLimiter } from './realism';
import { PartnerRecord, SandboxStore } from './store';
import { loadSampleData, SampleSummary } from './seed';
import { maskSecrets } from '../log/mask';
import { handlers, HandlerContext } from './handlers';

/**
 * The Local sandbox HTTP server (spec: Endpoints; Authentication; Errors). Routes are registered from the
 * contract's ENDPOINTS table: method + base prefix + path, bodies and queries validated with the endpoint's zod
 * schemas. One origin serves all three bases (see {@link BASE_PREFIX}).
 */

/** Path prefix of each base under the sandbox origin: v3 at /api/v3, v2 at the origin, eligibility at /api/v1. */
export const BASE_PREFIX: Readonly<Record<EndpointDef['base'], string>> = { v3: '/api/v3', v2: '', eligibility: '/api/v1' };

/** A partner to register at start: Partner ID, SPKI PEM public key, optional v2 name segment. */
export interface PartnerSpec {
  readonly id: string;
  readonly spkiPem: string;
  readonly name?: string;
}

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** Port (default 0: a free port). */
  readonly port?: number;
  /** Data directory; absent = in memory only. */
  readonly dataDir?: string;
  /** Partners to register at start. */
  readonly partners?: readonly PartnerSpec[];
  /** The dedicated eligibility-lookup token; when absent every eligibility call answers 401. */
  readonly eligibilityToken?: string;
  /** Per-partner rate limit in requests per second (absent or 0 = off). */
  readonly rateLimitPerSecond?: number;
  /** Fault injection (off by default). */
  readonly faults?: FaultOptions;
  /** Program term in months (default 36). */
  readonly termMonths?: number;
  /** Called with one line per request (method, path, status, milliseconds); tokens are masked. */
  readonly log?: (line: string) => void;
  /** Clock in milliseconds since epoch (tests). */
  readonly now?: () => number;
  /** Journal lines between snapshots (default 50,000). */
  readonly snapshotEvery?: number;
}

/** A running sandbox. */
export interface SandboxHandle {
  /** e.g. http://127.0.0.1:43117 */
  readonly origin: string;
  /** {sandbox_url}: origin + /api/v3 (the v3 JWT aud). */
  readonly v3BaseUrl: string;
  /** {legacy_base_url}: the origin (the v2 JWT aud). */
  readonly v2BaseUrl: string;
  /** {rsa_base_url}: origin + /api/v1. */
  readonly eligibilityBaseUrl: string;
  /** The store (for seeding and benchmarks). */
  readonly operations: SandboxOperations;
  /**
   * Registers (or replaces) a partner's public key. `name` (default: the Partner ID) is the v2 path segment
   * and the verify-token name. Rejects when the PEM is not a P-256/P-384/P-521 SPKI public key.
   */
  registerPartner(id: string, spkiPem: string, name?: string): Promise<void>;
  /** Sets (or with undefined, removes) the dedicated eligibility-lookup token. */
  setEligibilityToken(token: string | undefined): void;
  /** Loads sample data for a registered partner (spec: seed data). Throws when the partner is unknown. */
  loadSampleData(partnerId: string, count?: number): SampleSummary;
  /** Stops listening, closes connections and the journal. Safe to call twice. */
  close(): Promise<void>;
}

/** The 401 answer of the spec, exactly. */
function unauthorized(reply: FastifyReply): FastifyReply {
  return reply.code(401).type('application/json').send(JSON.stringify(UNAUTHORIZED_BODY));
}

function errorBody(status: number, message: string, issues?: readonly Issue[], extra?: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { error: errorName(status), statusCode: status, message, ...(issues ? { issues } : {}), ...(extra ?? {}) };
}

/** Zod issues as `{path, message}` with dotted paths prefixed by `prefix` (e.g. "query."). */
export function zodIssues(err: z.ZodError, prefix = ''): Issue[] {
  const out: Issue[] = [];
  const seen = new Set<string>();
  for (const i of flatten(err.issues as readonly RawIssue[], [])) {
    const path = prefix + i.path.join('.');
    const key = `${path}\u0000${i.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ path, message: i.message });
    }
  }
  return out;
}

interface RawIssue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly errors?: readonly (readonly RawIssue[])[];
}

/**
 * Replaces each union failure by the issues of the branch that got furthest (deepest issue path), so that
 * `{"Registrations":[{…bad…}]}` reports the bad Registrations fields rather than "no union branch matched".
 * When every branch fails at the same depth (none fits), all their issues are kept.
 */
function flatten(issues: readonly RawIssue[], base: readonly PropertyKey[]): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  for (const i of issues) {
    const path = [...base, ...i.path];
    if (i.code === 'invalid_union' && i.errors && i.errors.length > 0) {
      const depth = (branch: readonly RawIssue[]) => Math.max(0, ...branch.map((x) => x.path.length));
      const best = Math.max(...i.errors.map(depth));
      const chosen = i.errors.filter((branch) => depth(branch) === best);
      if (best > 0 || chosen.length < i.errors.length) {
        for (const branch of chosen.length === i.errors.length ? chosen : chosen.slice(0, 1)) out.push(...flatten(branch, path));
        continue;
      }
    }
    out.push({ path: path.map(String), message: i.message });
  }
  return out;
}

/** Endpoints grouped by method and full path (motor-club PATCH update and cancel share one). */
function routeGroups(): Map<string, EndpointDef[]> {
  const groups = new Map<string, EndpointDef[]>();
  for (const e of Object.values(ENDPOINTS) as EndpointDef[]) {
    const key = `${e.method} ${BASE_PREFIX[e.base]}${e.path}`;
    const g = groups.get(key);
    if (g) g.push(e);
    else groups.set(key, [e]);
  }
  return groups;
}

/** A raw query value by name, trying the aliases and then a case-insensitive match. */
function rawQuery(query: Record<string, unknown>, name: string, aliases: readonly string[] = []): unknown {
  for (const n of [name, ...aliases]) if (query[n] !== undefined) return query[n];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(query)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/**
 * Validates the query of `e`: each declared parameter is taken (with its aliases, case-insensitively),
 * defaulted, and parsed with its schema. Returns the parsed values or throws a 400 naming every bad parameter.
 */
function parseQuery(e: EndpointDef, query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const [name, def] of Object.entries(e.query)) {
    let raw = rawQuery(query, name, def.aliases);
    if (raw === undefined && def.default !== undefined) raw = String(def.default);
    if (raw === undefined) {
      if (def.required) issues.push({ path: `query.${name}`, message: 'required query parameter is missing' });
      continue;
    }
    if (Array.isArray(raw)) {
      issues.push({ path: `query.${name}`, message: 'given more than once' });
      continue;
    }
    const r = def.schema.safeParse(raw);
    if (r.success) out[name] = r.data;
    else for (const i of zodIssues(r.error)) issues.push({ path: i.path ? `query.${name}.${i.path}` : `query.${name}`, message: i.message });
  }
  if (typeof out.pageSize === 'number' && out.pageSize > MAX_PAGE_SIZE) {
    issues.push({ path: 'query.pageSize', message: `at most ${MAX_PAGE_SIZE}` });
  }
  if (issues.length > 0) throw new ApiError(400, 'bad_request', `Invalid query: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  return out;
}

/** Picks the endpoint of a group for this body (motor-club PATCH: customer vs cancelledOn) and validates it. */
function chooseAndParseBody(group: readonly EndpointDef[], body: unknown): { endpoint: EndpointDef; body: unknown } {
  const first = group[0] as EndpointDef;
  if (group.length === 1) {
    if (!first.body) return { endpoint: first, body: undefined };
    return { endpoint: first, body: parseBody(first.body, body) };
  }
  let firstError: ApiError | undefined;
  const keys = body !== null && typeof body === 'object' ? Object.keys(body) : [];
  // Try the endpoints whose body schema mentions a key present in the body first.
  const ordered = [...group].sort((a, b) => Number(mentions(b, keys)) - Number(mentions(a, keys)));
  for (const e of ordered) {
    try {
      return { endpoint: e, body: e.body ? parseBody(e.body, body) : undefined };
    } catch (err) {
      firstError ??= err as ApiError;
    }
  }
  throw firstError ?? new ApiError(400, 'bad_request', 'Invalid body');
}

function mentions(e: EndpointDef, keys: readonly string[]): boolean {
  const shape = (e.body as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return !!shape && keys.some((k) => k in shape);
}

function parseBody(schema: z.ZodType, body: unknown): unknown {
  if (body === undefined) throw new ApiError(400, 'bad_request', 'A JSON body is required (Content-Type: application/json)', [{ path: '', message: 'body is missing' }]);
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issues = zodIssues(r.error);
  throw new ApiError(400, 'bad_request', `Invalid body: ${issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ')}`, issues);
}

/** Success status of an endpoint: 201 for a POST that may answer 201, else the lowest 2xx of its contract responses. */
function successStatus(e: EndpointDef): number {
  if (e.method === 'POST' && 201 in e.responses) return 201;
  const codes = Object.keys(e.responses)
    .map(Number)
    .filter((c) => c >= 200 && c < 300)
    .sort((a, b) => a - b);
  return codes[0] ?? 200;
}

/**
 * Starts the Local sandbox. Resolves once it listens; rejects when the port is taken, the data directory is
 * unreadable or a partner key is invalid. The caller must `close()` it.
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const now = opts.now ?? Date.now;
  const store = SandboxStore.open({ dataDir: opts.dataDir, snapshotEvery: opts.snapshotEvery });
  const operations = new SandboxOperations(store, { termMonths: opts.termMonths, now });
  const keys = new Map<string, PartnerKey>();
  for (const p of store.partners.values()) {
    try {
      keys.set(p.id, await importPartnerKey(p.spkiPem));
    } catch {
      // a key stored by an earlier run that no longer imports: the partner must register again
    }
  }
  let eligibilityToken = opts.eligibilityToken;
  const tokenCache = new VerifiedTokenCache();
  const limiter = opts.rateLimitPerSecond && opts.rateLimitPerSecond > 0 ? new RateLimiter(opts.rateLimitPerSecond) : undefined;
  const faults = opts.faults ? new FaultInjector(opts.faults) : undefined;

  const registerPartner = async (id: string, spkiPem: string, name?: string): Promise<void> => {
    if (!id || /[\s/]/.test(id)) throw new Error(`Invalid Partner ID '${id}': no spaces or slashes`);
    const key = await importPartnerKey(spkiPem);
    const existing = store.partners.get(id);
    const segment = name ?? existing?.name ?? id;
    if (!existing || existing.spkiPem !== spkiPem || existing.name !== segment) {
      store.commit({ t: 'partner', r: { id, name: segment, num: existing?.num ?? (/^\d{1,9}$/.test(id) ? Number(id) : store.takePartnerNum()), spkiPem } });
    }
    keys.set(id, key);
  };
  try {
    for (const p of opts.partners ?? []) await registerPartner(p.id, p.spkiPem, p.name);
  } catch (err) {
    store.close();
    throw err;
  }

  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 1024 * 1024, forceCloseConnections: true, return503OnClosing: true });

  app.addHook('onRequest', async (req) => {
    (req as FastifyRequest & { startedAt?: number }).startedAt = performance.now();
  });
  if (opts.log) {
    const log = opts.log;
    app.addHook('onResponse', async (req, reply) => {
      const started = (req as FastifyRequest & { startedAt?: number }).startedAt ?? performance.now();
      log(maskSecrets(`${req.method} ${req.url} ${reply.statusCode} ${(performance.now() - started).toFixed(1)}ms`));
    });
  }

  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send(errorBody(404, `No endpoint at ${req.method} ${req.url.split('?')[0] ?? ''}`));
  });
  app.setErrorHandler((err: FastifyError, _req, reply) => {
    if (err instanceof ApiError) {
      void reply.code(err.statusCode).send(errorBody(err.statusCode, err.message, err.issues, err.extra));
      return;
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) opts.log?.(maskSecrets(`internal error: ${err.stack ?? err.message}`));
    const message = status === 500 ? 'Internal error of the Local sandbox' : err.message;
    const issues = status === 400 ? [{ path: '', message: err.message }] : undefined;
    void reply.code(status).send(errorBody(status, message, issues));
  });

  const origin = (req: FastifyRequest): string => `http://${req.headers.host ?? `${opts.host ?? '127.0.0.1'}:${port}`}`;

  /** Authenticates, rate-limits and fault-injects; returns the partner id ('' for eligibility) or undefined when answered. */
  const gate = async (e: EndpointDef, req: FastifyRequest, reply: FastifyReply): Promise<string | undefined> => {
    let subject: string;
    if (e.base === 'eligibility') {
      if (!checkEligibilityToken(req.headers.authorization, eligibilityToken)) {
        unauthorized(reply);
        return undefined;
      }
      subject = '(eligibility)';
    } else {
      const audience = e.base === 'v3' ? `${origin(req)}${BASE_PREFIX.v3}` : origin(req);
      try {
        subject = await verifyPartnerToken(req.headers.authorization, audience, (iss) => keys.get(iss), Math.floor(now() / 1000), tokenCache);
      } catch (err) {
        if (err instanceof TokenRejected) {
          opts.log?.(`401 ${req.method} ${req.url.split('?')[0] ?? ''}: ${err.message}`);
          unauthorized(reply);
          return undefined;
        }
        throw err;
      }
    }
    if (limiter) {
      const wait = limiter.take(subject, now());
      if (wait > 0) {
        void reply.code(429).header('Retry-After', String(wait)).send(errorBody(429, `Rate limit of ${opts.rateLimitPerSecond} requests per second exceeded; retry after ${wait} s`));
        return undefined;
      }
    }
    if (faults?.enabled) {
      const d = faults.decide();
      if (d.delayMs > 0) await new Promise((r) => setTimeout(r, d.delayMs));
      if (d.status) {
        void reply.code(d.status).send(errorBody(d.status, `Injected fault (${d.status}); nothing was processed, retry later`));
        return undefined;
      }
    }
    return subject;
  };

  const groups = routeGroups();
  const methodsByPath = new Map<string, Set<string>>();
  for (const [key, group] of groups) {
    const [method, url] = key.split(' ') as [EndpointDef['method'], string];
    const set = methodsByPath.get(url) ?? new Set<string>();
    set.add(method);
    methodsByPath.set(url, set);
    app.route({
      method,
      url,
      handler: async (req, reply) => {
        const subject = await gate(group[0] as EndpointDef, req, reply);
        if (subject === undefined) return reply;
        const { endpoint, body } = chooseAndParseBody(group, req.body);
        const query = parseQuery(endpoint, (req.query ?? {}) as Record<string, unknown>);
        const partner = endpoint.base === 'eligibility' ? undefined : store.partners.get(subject);
        const ctx: HandlerContext = {
          ops: operations,
          partner,
          params: (req.params ?? {}) as Record<string, string>,
          query,
          body,
          endpoint,
        };
        const handler = handlers[endpoint.id as EndpointId];
        const result = handler(ctx);
        const status = result.status ?? successStatus(endpoint);
        if (status === 204) return reply.code(204).send();
        return reply.code(status).send(result.body);
      },
    });
  }
  // 405 for a known path called with another method.
  const ALL = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'];
  for (const [url, methods] of methodsByPath) {
    const others = ALL.filter((m) => !methods.has(m) && !(m === 'HEAD' && methods.has('GET')));
    app.route({
      method: others as ('GET' | 'POST')[],
      url,
      handler: async (req, reply) =>
        reply
          .code(405)
          .header('Allow', [...methods].join(', '))
          .send(errorBody(405, `${req.method} is not allowed here; use ${[...methods].join(' or ')}`)),
    });
  }

  let port = opts.port ?? 0;
  try {
    await app.listen({ host: opts.host ?? '127.0.0.1', port });
  } catch (err) {
    store.close();
    throw err;
  }
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : port;
  const host = opts.host ?? '127.0.0.1';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const base = `http://${hostForUrl}:${port}`;
  let closed = false;
  return {
    origin: base,
    v3BaseUrl: `${base}${BASE_PREFIX.v3}`,
    v2BaseUrl: `${base}${BASE_PREFIX.v2}`,
    eligibilityBaseUrl: `${base}${BASE_PREFIX.eligibility}`,
    operations,
    registerPartner,
    setEligibilityToken: (token) => {
      eligibilityToken = token || undefined;
    },
    loadSampleData: (partnerId, count) => {
      if (!store.partners.has(partnerId)) throw new Error(`Unknown partner ${partnerId}`);
      const partner = store.partners.get(partnerId) as PartnerRecord;
      return store.batch(() => loadSampleData(operations, partner, count));
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await app.close();
      } finally {
        store.close(true);
      }
    },
  };
}
