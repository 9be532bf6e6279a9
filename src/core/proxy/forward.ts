import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, Transform } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/**
 * Forwarding one request, streamed both ways (docs/proxy.md): the request body goes upstream as it arrives (up to
 * the size cap), the answer comes back as it arrives. Method, path, query, headers (Authorization untouched) and
 * body are sent as received, except the hop-by-hop headers of RFC 9110 section 7.6.1, which belong to each
 * connection, and Host, which names the upstream. The first {@link KEEP_BYTES} of each body are kept for the
 * diagnosis and dropped once the log entry is built. node:http(s) with keep-alive agents carries both sides: the
 * proxy costs about what a bare node:http pass-through costs (npm run bench:proxy measured undici's request path at
 * twice that).
 */


/** Bytes of each body kept for the diagnosis (the spec's bodies are JSON well under this). */
export const KEEP_BYTES = 1024 * 1024;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect']);

/** Headers without the hop-by-hop ones (and those named by Connection). */
export function endToEnd(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const named = new Set(String(headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim()).filter(Boolean));
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  return out;
}

/** The request body was larger than the proxy's cap. */
export class BodyTooLarge extends Error {}

/** What came of one forward. */
export interface Forwarded {
  /** Status the application got (the upstream's, or the proxy's own 4xx/502). */
  readonly status: number;
  readonly responseHeaders: Record<string, string | string[]>;
  /** The kept start of the request body. */
  readonly requestBody?: Buffer;
  /** The kept start of the answer, and its whole size in bytes. */
  readonly responseBody?: Buffer;
  readonly responseBytes: number;
  /** Set when the upstream failed: before answering (then `status` is the proxy's 502), or in the middle of it. */
  readonly failure?: { readonly code: string; readonly midBody: boolean };
  /** The application went away before the answer ended. */
  readonly clientGone?: boolean;
}

/** Keep-alive agents to the upstreams (one pair per proxy). */
export interface Agents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
}

/** Agents that keep connections to the upstream open between requests. */
export function newAgents(): Agents {
  return { http: new HttpAgent({ keepAlive: true, maxSockets: 64 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }) };
}

/** Options of {@link forward}. */
export interface ForwardOptions {
  readonly url: string;
  readonly maxBodyBytes: number;
  /** Longest wait for the answer to start, and longest silence in the middle of it, in milliseconds. */
  readonly timeoutMs: number;
  readonly agents: Agents;
}

/** Keeps the first KEEP_BYTES of what passes, and fails beyond `cap` bytes. */
function tap(cap: number | undefined, kept: Buffer[], count: { n: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      count.n += chunk.length;
      if (cap !== undefined && count.n > cap) return cb(new BodyTooLarge());
      if (count.n - chunk.length < KEEP_BYTES) kept.push(chunk);
      cb(null, chunk);
    },
  });
}

/** The error code of a failure, e.g. ECONNREFUSED, ENOTFOUND, UPSTREAM_TIMEOUT. */
function codeOf(err: unknown): string {
  return (err as { code?: string }).code ?? (err as Error).message ?? String(err);
}

/**
 * Sends `req` to `opts.url` and streams the answer into `res`. Resolves once the answer has ended (or failed);
 * never rejects. When the upstream fails before answering, the application gets no answer here: the caller answers
 * 502 (`failure.midBody` false; 413 for a body over the cap). When it fails in the middle of the answer, the
 * connection to the application is closed, which is how HTTP says "this answer is cut".
 */
export function forward(req: IncomingMessage, res: ServerResponse, opts: ForwardOptions): Promise<Forwarded> {
  return new Promise<Forwarded>((resolve) => {
    const reqKept: Buffer[] = [];
    const reqCount = { n: 0 };
    const url = new URL(opts.url);
    const https = url.protocol === 'https:';
    let done = false;
    let clientGone = false;
    const finish = (f: Omit<Forwarded, 'requestBody'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...f, ...(reqKept.length ? { requestBody: Buffer.concat(reqKept) } : {}) });
    };
    const up = (https ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: req.method,
      headers: { ...endToEnd(req.headers), host: url.host },
      agent: https ? opts.agents.https : opts.agents.http,
    });
    const fail = (err: unknown) => {
      if (done) return;
      up.destroy();
      req.resume();
      if (err instanceof BodyTooLarge) return finish({ status: 413, responseHeaders: {}, responseBytes: 0, failure: { code: 'BODY_TOO_LARGE', midBody: false } });
      finish({ status: 502, responseHeaders: {}, responseBytes: 0, ...(clientGone ? { clientGone } : {}), failure: { code: codeOf(err), midBody: false } });
    };
    const timer = setTimeout(() => fail(Object.assign(new Error('no answer'), { code: 'UPSTREAM_TIMEOUT' })), opts.timeoutMs);
    up.on('error', fail);
    res.once('close', () => {
      if (res.writableFinished || done) return;
      clientGone = true;
      up.destroy();
    });
    up.on('response', (answer) => {
      clearTimeout(timer);
      const headers = endToEnd(answer.headers as Record<string, string | string[]>);
      const kept: Buffer[] = [];
      const count = { n: 0 };
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.setTimeout(opts.timeoutMs, () => answer.destroy(Object.assign(new Error('silent upstream'), { code: 'UPSTREAM_TIMEOUT' })));
      // pipe() and a second 'data' listener, not pipeline() with a Transform: this is the hot path, and pipeline
      // costs an AbortController and a stream per answer (npm run bench:proxy's profile).
      answer.on('data', (chunk: Buffer) => {
        count.n += chunk.length;
        if (count.n - chunk.length < KEEP_BYTES) kept.push(chunk);
      });
      answer.pipe(res);
      const end = (failure?: unknown) => {
        // res's 'close' listener above runs first: an application that went away is known here.
        finish({ status: answer.statusCode ?? 502, responseHeaders: headers, responseBody: Buffer.concat(kept), responseBytes: count.n, ...(failure && !clientGone ? { failure: { code: codeOf(failure), midBody: true } } : {}), ...(clientGone ? { clientGone: true } : {}) });
      };
      res.once('finish', () => end());
      answer.once('error', (err) => {
        res.destroy();
        end(err);
      });
      answer.once('aborted', () => {
        res.destroy();
        end(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      });
      res.once('close', () => {
        if (res.writableFinished) return;
        answer.destroy();
        end(answer.errored ?? Object.assign(new Error('closed'), { code: 'ECONNRESET' }));
      });
    });
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody) pipeline(req, tap(opts.maxBodyBytes, reqKept, reqCount), up, (err) => err && fail(err));
    else up.end();
  });
}

/** The text of a kept body, decoded as its Content-Encoding says; undefined when it cannot be (or is over the cap). */
export function bodyText(body: Buffer | undefined, encoding: string | string[] | undefined, whole: number): string | undefined {
  if (!body || whole > KEEP_BYTES) return undefined;
  const enc = String(encoding ?? '').toLowerCase().trim();
  try {
    const plain = enc === 'gzip' || enc === 'x-gzip' ? gunzipSync(body, { maxOutputLength: KEEP_BYTES }) : enc === 'br' ? brotliDecompressSync(body, { maxOutputLength: KEEP_BYTES }) : enc === 'deflate' ? inflateSync(body, { maxOutputLength: KEEP_BYTES }) : enc === '' || enc === 'identity' ? body : undefined;
    return plain?.toString('utf8');
  } catch {
    return undefined;
  }
}
