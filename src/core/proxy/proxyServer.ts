import type { KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TIMEOUT_MS } from '../client/attempt';
import { importPartnerKey } from '../jwt/partnerKey';
import { RequestLog, type RawRequest, type RequestLogOptions } from '../requestLog/requestLog';
import { forward, newUpstreams, type Forwarded } from './forward';
import { undiagnosed } from './proxyDiagnosis';
import { OrderedLog, ProxyLogEntry } from './proxyLog';
import { buildEntry, failureText, type EntryContext } from './proxyEntry';
import { checkBindHost, parseTarget, ProxyConfigError, routeOf, V3_PREFIX, type Route, type Targets } from './targets';
import { refusalOf } from './requestGuard';
import { MAX_CONNECTIONS, REQUEST_TIMEOUT_MS, requestTimeLimits } from '../serverGuards/guards';

/**
 * `tpp proxy`: a loopback-only reverse proxy in front of the administrator's Sandbox or Production (docs/proxy.md).
 * The application calls the proxy; each request is forwarded unchanged and streamed, its answer comes back
 * unchanged and streamed, and the exchange goes into a request log with the Local sandbox's diagnosis (401: the
 * JWT checklist against the registered key and the REAL base address; 400: the payload diagnostics) and a check of
 * the answer against the contract. Nothing is ever resent, and nothing is stored beyond the masked log.
 */

/** Largest request body forwarded, in bytes (the Local sandbox's limit: docs/sandbox.md). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** How long the upstream may take to start its answer, and to send each part of it: the client's limit (docs/sending.md, Limits). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = DEFAULT_TIMEOUT_MS;

/** Options of {@link startProxy}. */
export interface ProxyOptions {
  /** The version 3 base address to forward to (`https://…/api/v3`; `http://` only on loopback). */
  readonly target: string;
  /** The version 2 base address ({legacy_base_url}); without it version 2 requests answer 404. */
  readonly v2Target?: string;
  /** Environment label of the entries (default `sandbox`). */
  readonly environment?: string;
  /** Registered public keys: Partner ID and SPKI PEM (the 401 checklist verifies the signature with them). */
  readonly partners?: readonly { readonly id: string; readonly spkiPem: string }[];
  /** Loopback interface (default 127.0.0.1). */
  readonly host?: string;
  /** Port (default 0: a free one). */
  readonly port?: number;
  readonly maxBodyBytes?: number;
  readonly upstreamTimeoutMs?: number;
  /** Time to receive a whole request, headers and body, in milliseconds (default `REQUEST_TIMEOUT_MS`, 30 000). */
  readonly requestTimeoutMs?: number;
  /** Connections open at once; more are refused (default `MAX_CONNECTIONS`, 512). */
  readonly maxConnections?: number;
  readonly requestLog?: RequestLogOptions;
  /** Clock in milliseconds since epoch (tests). */
  readonly now?: () => number;
  /** How to give the proxy a public key, said in a 401's diagnosis when none was given (default: `--partner`). */
  readonly missingKeyHint?: string;
}

/** A running proxy. */
export interface ProxyHandle {
  /** e.g. http://127.0.0.1:8787: the version 2 base address the application calls. */
  readonly origin: string;
  /** origin + /api/v3: the version 3 base address the application calls (TPP_BASE_URL). */
  readonly v3BaseUrl: string;
  readonly environment: string;
  readonly targets: Targets;
  /** Every exchange, in the order the answers ended. */
  readonly log: RequestLog;
  /** Stops listening and closes every connection. Safe to call twice. */
  close(): Promise<void>;
}

/** The `error` of the proxy's own answers, by status. */
const OWN_ERRORS: Readonly<Record<number, string>> = { 400: 'bad_request', 403: 'forbidden', 404: 'not_found', 408: 'request_timeout', 413: 'payload_too_large', 421: 'misdirected_request' };

/** The proxy's own answer (JSON, like the spec's error bodies), marked with x-tpp-proxy. */
function answerOwn(res: ServerResponse, status: number, message: string): Record<string, string> {
  const headers = { 'content-type': 'application/json', 'x-tpp-proxy': 'error', connection: 'close' };
  if (!res.headersSent) res.writeHead(status, headers).end(JSON.stringify({ error: OWN_ERRORS[status] ?? 'bad_gateway', message }));
  return headers;
}

/**
 * Whether node:http closed `socket` (a request's, taken when the request came: a request lets go of its socket once
 * answered) because the request did not arrive whole in time; it answered 408 if no answer had begun.
 */
function timedOut(socket: IncomingMessage['socket'] | null): boolean {
  return (socket?.errored as NodeJS.ErrnoException | null | undefined)?.code === 'ERR_HTTP_REQUEST_TIMEOUT';
}

/** The recorder of a proxy's exchanges: `record` takes an exchange's place in the log, `flush` builds what waits. */
interface EntryRecorder {
  /** Takes the exchange's place in the log's order now, as its answer has ended; its entry is built soon after. */
  record(req: IncomingMessage, route: Route | undefined, f: Forwarded, started: number, ownProblem?: string): void;
  /** Builds every entry still waiting (on close: the entries of answers that already went out are not lost). */
  flush(): void;
}

function entryRecorder(entries: EntryContext, now: () => number): EntryRecorder {
  // Entries are built together after the answers of the current turn of the event loop have gone out (setImmediate
  // runs after the poll phase): building one never delays forwarding an answer that is already waiting.
  let queue: (() => void)[] = [];
  let building: NodeJS.Immediate | undefined;
  const flush = (): void => {
    clearImmediate(building);
    const jobs = queue;
    queue = [];
    building = undefined;
    for (const job of jobs) job();
  };
  const record: EntryRecorder['record'] = (req, route, f, started, ownProblem) => {
    const ticket = entries.ordered.take();
    const end = now();
    const ms = performance.now() - started;
    queue.push(() => {
      try {
        buildEntry(entries, { ticket, end, ms, req, route, f, ownProblem });
      } catch (err) {
        // The place must be filled, or every later entry would wait for it.
        const raw: RawRequest = { method: req.method ?? 'GET', url: route?.url ?? '', path: req.url ?? '', headers: {}, status: f.status, responseHeaders: {}, ms };
        entries.ordered.put(ticket, new ProxyLogEntry(raw, [undiagnosed(f.status, err)], end, { environment: entries.environment, kind: 'request', responseBytes: f.responseBytes }));
      }
    });
    building ??= setImmediate(flush);
  };
  return { record, flush };
}

/**
 * Starts the proxy. Resolves once it listens.
 * @throws ProxyConfigError for a non-loopback host, a target that is not https:// (except loopback), a bad partner
 *   key, or a port that is taken (the message names the port and the choices)
 */
export async function startProxy(opts: ProxyOptions): Promise<ProxyHandle> {
  const host = checkBindHost(opts.host ?? '127.0.0.1');
  const targets: Targets = { v3: parseTarget('--target', opts.target), ...(opts.v2Target ? { v2: parseTarget('--v2-target', opts.v2Target) } : {}) };
  const keys = await importKeys(opts.partners ?? []);
  const environment = opts.environment ?? 'sandbox';
  const now = opts.now ?? Date.now;
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = opts.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const requestTimeoutMs = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const log = new RequestLog(opts.requestLog);
  const upstreams = newUpstreams(timeoutMs);
  const ordered = new OrderedLog(log);
  const entries: EntryContext = { host, port: 0, environment, timeoutMs, keys, ordered, missingKeyHint: opts.missingKeyHint };

  const { record, flush } = entryRecorder(entries, now);

  /** Answers the application itself (`status`, `why`), forwarding nothing, and logs it. */
  const refuse = (req: IncomingMessage, res: ServerResponse, started: number, status: number, why: string, route?: Route): void => {
    req.resume();
    const headers = answerOwn(res, status, why);
    return record(req, route, { status, responseHeaders: headers, responseBytes: 0 }, started, why);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const socket = req.socket;
    // Before anything is read or forwarded: the Local sandbox's guards against web pages, and dot segments.
    const refused = refusalOf(req, entries.port);
    if (refused) return refuse(req, res, started, refused.status, refused.why);
    const route = routeOf(targets, req.url ?? '/');
    if (typeof route === 'string') return refuse(req, res, started, 404, route);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) {
      return refuse(req, res, started, 413, `tpp proxy: the request body of ${declared} bytes is over the proxy's limit of ${maxBody} bytes; it was not forwarded.`, route);
    }
    const f = await forward(req, res, { url: route.url, maxBodyBytes: maxBody, timeoutMs, upstreams });
    if (timedOut(socket)) {
      const why = `tpp proxy: the request did not arrive whole within ${requestTimeoutMs / 1000} s; the application got 408 (unless its answer had begun) and its connection was closed, and the request upstream was cancelled.`;
      const unanswered = f.failure !== undefined && !f.failure.midBody;
      return record(req, undefined, { ...f, ...(unanswered ? { status: 408, responseHeaders: {} } : {}) }, started, why);
    }
    if (f.failure && !f.failure.midBody && !f.clientGone) {
      const why = f.failure.code === 'BODY_TOO_LARGE' ? `tpp proxy: the request body is over the proxy's limit of ${maxBody} bytes; the upstream got a cut request, and its answer was dropped.` : failureText(route, f.failure, timeoutMs, 0);
      const headers = answerOwn(res, f.status, why);
      return record(req, route, { ...f, responseHeaders: headers }, started, why);
    }
    return record(req, route, f, started);
  };

  // The Local sandbox's limits (docs/sandbox.md, Limits): slow headers and trickled bodies are cut, connections capped.
  const server = createServer({ keepAliveTimeout: 5_000, ...requestTimeLimits(requestTimeoutMs) }, (req, res) => {
    handle(req, res).catch((err: unknown) => answerOwn(res, 502, `tpp proxy: internal error: ${(err as Error).message}`));
  });
  server.maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  await listen(server, host, opts.port);
  const port = (entries.port = (server.address() as AddressInfo).port);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closed: Promise<void> | undefined;
  return {
    origin,
    v3BaseUrl: `${origin}${V3_PREFIX}`,
    environment,
    targets,
    log,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        // The entries of answers that already went out are built and logged now, not lost with the process.
        flush();
        server.close(() => resolve());
        server.closeAllConnections();
        void upstreams.destroy().catch(() => undefined);
      })),
  };
}

/** Reads each partner's public key (SPKI PEM). @throws ProxyConfigError naming the partner whose key is unusable */
async function importKeys(partners: NonNullable<ProxyOptions['partners']>): Promise<Map<string, KeyObject>> {
  const keys = new Map<string, KeyObject>();
  for (const p of partners) {
    try {
      keys.set(p.id, (await importPartnerKey(p.spkiPem)).key);
    } catch (err) {
      throw new ProxyConfigError(`The public key of partner ${p.id}: ${(err as Error).message}`);
    }
  }
  return keys;
}

/** Listens on host:port. @throws ProxyConfigError when the port is taken or cannot be bound */
function listen(server: Server, host: string, port: number | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new ProxyConfigError(`Port ${port} on ${host} is taken by another program (another proxy?): choose another --port, or --port 0 for any free port.`));
      else reject(new ProxyConfigError(`Cannot listen on ${host}:${port ?? 0}: ${err.message}`));
    });
    server.listen(port ?? 0, host, () => resolve());
  });
}
