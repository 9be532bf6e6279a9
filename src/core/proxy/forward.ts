import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Transform } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Dispatcher } from 'undici';

/**
 * Forwarding one request, streamed both ways (docs/proxy.md): the request body goes upstream as it arrives (up to
 * the size cap), the answer comes back as it arrives. Method, path, query, headers (Authorization untouched) and
 * body are sent as received, except the hop-by-hop headers of RFC 9110 section 7.6.1, which belong to each
 * connection, and Host, which names the upstream. The first {@link KEEP_BYTES} of each body are kept for the
 * diagnosis and dropped once the log entry is built.
 */

// undici is loaded with the first request, as in the client (../client/attempt.ts).
const undici = (): typeof import('undici') => require('undici') as typeof import('undici');

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

/** Options of {@link forward}. */
export interface ForwardOptions {
  readonly url: string;
  readonly maxBodyBytes: number;
  readonly timeoutMs: number;
  readonly dispatcher?: Dispatcher;
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

/** The error code undici (or node) gives a failure, e.g. ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT. */
function codeOf(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.cause?.code ?? e.code ?? (err as Error).message ?? String(err);
}

/**
 * Sends `req` to `opts.url` and streams the answer into `res`. Resolves once the answer has ended (or failed);
 * never rejects. When the upstream fails before answering, the application gets no answer here: the caller answers
 * 502 (`failure.midBody` false). When it fails in the middle of the answer, the connection to the application is
 * closed, which is how HTTP says "this answer is cut".
 */
export function forward(req: IncomingMessage, res: ServerResponse, opts: ForwardOptions): Promise<Forwarded> {
  return new Promise<Forwarded>((resolve) => {
    const reqKept: Buffer[] = [];
    const reqCount = { n: 0 };
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    // undici takes an EventEmitter as its abort signal: cheaper than an AbortController on every request.
    const abort = new EventEmitter();
    let aborted = false;
    let done = false;
    const finish = (f: Omit<Forwarded, 'requestBody'>) => {
      if (done) return;
      done = true;
      resolve({ ...f, ...(reqKept.length ? { requestBody: Buffer.concat(reqKept) } : {}) });
    };
    res.once('close', () => {
      if (res.writableFinished) return;
      aborted = true;
      abort.emit('abort');
    });
    let body: Transform | undefined;
    if (hasBody) {
      body = tap(opts.maxBodyBytes, reqKept, reqCount);
      pipeline(req, body, () => undefined);
    }
    undici()
      .request(opts.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: endToEnd(req.headers),
        body,
        signal: abort,
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        dispatcher: opts.dispatcher,
      })
      .then(
        (up) => {
          const headers = endToEnd(up.headers as Record<string, string | string[]>);
          const kept: Buffer[] = [];
          const count = { n: 0 };
          res.writeHead(up.statusCode, headers);
          pipeline(up.body, tap(undefined, kept, count), res, (err) => {
            const responseBody = Buffer.concat(kept);
            const clientGone = aborted;
            finish({ status: up.statusCode, responseHeaders: headers, responseBody, responseBytes: count.n, ...(err && !clientGone ? { failure: { code: codeOf(err), midBody: true } } : {}), ...(clientGone ? { clientGone } : {}) });
          });
        },
        (err: unknown) => {
          req.resume();
          if (err instanceof BodyTooLarge || (err as { cause?: unknown }).cause instanceof BodyTooLarge) {
            return finish({ status: 413, responseHeaders: {}, responseBytes: 0, failure: { code: 'BODY_TOO_LARGE', midBody: false } });
          }
          finish({ status: 502, responseHeaders: {}, responseBytes: 0, ...(aborted ? { clientGone: true } : {}), failure: { code: codeOf(err), midBody: false } });
        },
      );
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
