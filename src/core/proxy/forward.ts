import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Transform } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';

/**
 * Forwarding one request, streamed both ways (docs/proxy.md): the request body goes upstream as it arrives (up to
 * the size cap), the answer comes back as it arrives. Method, path, query, headers (Authorization untouched) and
 * body are sent as received, except the hop-by-hop headers of RFC 9110 section 7.6.1, which belong to each
 * connection, and Host, which names the upstream. The first {@link KEEP_BYTES} of each body are kept for the
 * diagnosis and dropped once the log entry is built. The upstream side is undici's dispatch() with its callbacks:
 * no stream object per answer, the keep-alive pool and both timeouts are undici's (npm run bench:proxy measured it
 * below a bare node:http pass-through's CPU per request).
 */

/** Bytes of each body kept for the diagnosis (the spec's bodies are JSON well under this). */
export const KEEP_BYTES = 1024 * 1024;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect']);

/** Headers without the hop-by-hop ones (and those named by Connection). */
export function endToEnd(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const connection = headers.connection;
  const named = connection ? new Set(String(connection).toLowerCase().split(',').map((s) => s.trim())) : undefined;
  const out: Record<string, string | string[]> = {};
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined && !HOP_BY_HOP.has(k) && !named?.has(k)) out[k] = v;
  }
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

/** Most connections kept to one upstream (more requests at once wait in undici's queue; none is resent). */
const CONNECTIONS_PER_UPSTREAM = 64;

/**
 * A keep-alive connection pool per upstream origin (one per proxy; `destroy()` it with the proxy).
 * @param connectTimeoutMs longest wait for a connection (TCP and TLS), like the wait for an answer
 */
export function newUpstreams(connectTimeoutMs: number): Dispatcher {
  return new Agent({ connections: CONNECTIONS_PER_UPSTREAM, pipelining: 1, keepAliveTimeout: 4_000, connect: { timeout: connectTimeoutMs } });
}

/** Options of {@link forward}. */
export interface ForwardOptions {
  readonly url: string;
  readonly maxBodyBytes: number;
  /** Longest wait for the answer to start, and longest silence in the middle of it, in milliseconds. */
  readonly timeoutMs: number;
  readonly upstreams: Dispatcher;
}

/** Keeps the first KEEP_BYTES of what passes, and fails beyond `cap` bytes (setting `count.over` first). */
function tap(cap: number, kept: Buffer[], count: { n: number; over: boolean }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      count.n += chunk.length;
      if (count.n > cap) {
        count.over = true;
        return cb(new BodyTooLarge());
      }
      if (count.n - chunk.length < KEEP_BYTES) kept.push(chunk);
      cb(null, chunk);
    },
  });
}

/** The error code of a failure, e.g. ECONNREFUSED, ENOTFOUND, UND_ERR_HEADERS_TIMEOUT. */
function codeOf(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.cause?.code ?? e.code ?? (err as Error).message ?? String(err);
}

/** undici's dispatch() takes the origin and the path apart: `https://host:port` and `/api/v3/...?q`. */
function split(url: string): { origin: string; path: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? { origin: url, path: '/' } : { origin: url.slice(0, slash), path: url.slice(slash) };
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
    const reqCount = { n: 0, over: false };
    const kept: Buffer[] = [];
    let bytes = 0;
    let status = 0;
    let headers: Record<string, string | string[]> = {};
    let done = false;
    let clientGone = false;
    let controller: Dispatcher.DispatchController | undefined;
    const finish = (failure?: unknown): void => {
      if (done) return;
      done = true;
      const requestBody = reqKept.length ? { requestBody: reqKept.length === 1 ? reqKept[0] : Buffer.concat(reqKept) } : {};
      const gone = clientGone ? { clientGone: true } : {};
      if (status === 0) {
        // No answer started: the caller answers the application itself.
        req.resume();
        if (reqCount.over || failure instanceof BodyTooLarge) return resolve({ status: 413, responseHeaders: {}, responseBytes: 0, ...requestBody, failure: { code: 'BODY_TOO_LARGE', midBody: false } });
        return resolve({ status: 502, responseHeaders: {}, responseBytes: 0, ...requestBody, ...gone, failure: { code: codeOf(failure), midBody: false } });
      }
      const responseBody = kept.length === 1 ? (kept[0] as Buffer) : Buffer.concat(kept);
      resolve({ status, responseHeaders: headers, responseBody, responseBytes: bytes, ...requestBody, ...(failure !== undefined && !clientGone ? { failure: { code: codeOf(failure), midBody: true } } : {}), ...gone });
    };
    res.once('close', () => {
      if (done || res.writableFinished) return;
      clientGone = true;
      controller?.abort(Object.assign(new Error('the application closed the connection'), { code: 'ECONNRESET' }));
      if (status !== 0) finish(new Error('closed'));
    });
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    let body: Transform | null = null;
    if (hasBody) {
      body = tap(opts.maxBodyBytes, reqKept, reqCount);
      // An error here reaches undici through `body` (the request fails) and finish() through reqCount.over.
      pipeline(req, body, () => undefined);
    }
    const { origin, path } = split(opts.url);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (clientGone) c.abort(new Error('the application closed the connection'));
      },
      onResponseStart(c, statusCode, upstreamHeaders) {
        if (statusCode < 200) return; // 1xx: informational, not forwarded
        status = statusCode;
        headers = endToEnd(upstreamHeaders);
        res.writeHead(statusCode, headers);
      },
      onResponseData(c, chunk) {
        bytes += chunk.length;
        if (bytes - chunk.length < KEEP_BYTES) kept.push(chunk);
        if (!res.write(chunk)) {
          c.pause();
          res.once('drain', () => c.resume());
        }
      },
      onResponseEnd() {
        res.end(() => finish());
      },
      onResponseError(_c, err) {
        if (status !== 0) res.destroy();
        finish(err);
      },
    };
    try {
      opts.upstreams.dispatch({ origin, path, method: (req.method ?? 'GET') as Dispatcher.HttpMethod, headers: endToEnd(req.headers), body, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs }, handler);
    } catch (err) {
      finish(err);
    }
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
