/**
 * One attempt of a call (spec: Errors — redirects 301/302; Authentication — a new JWT per request): the request
 * and any same-origin redirect hops under the attempt timer (a request as written: the hops written.ts allows), the
 * run's cookies on each, and the classification of network failures by undici's error codes (sent or not, fatal or
 * not). transport.ts decides whether to repeat.
 */
import type { Dispatcher } from 'undici';

// undici is loaded on the first request, not with the client: the editor's core bundle (dist/core.js) keeps it in
// dist/undici.js, so validating a payload or minting a token never loads it (scripts/lazy-core.mjs).
const undici = (): typeof import('undici') => require('undici') as typeof import('undici');
import type { IncomingHttpHeaders } from 'node:http';
import { CancelledError, PolicyError } from './errors';
import { REDIRECT_STATUSES } from './status';
import type { TransportEvent, TransportOptions, TransportRequest } from './types';
import { insecureUrlProblem, sameOrigin } from './urlPolicy';
import { addJarCookies, keepJarCookies, nextWrittenHop, withExtraHeaders, writtenHeaders, type WrittenHop } from './written';
import { maskSecrets } from '../log/mask';

/** Codes of failures that happen before a request is written: repeating cannot duplicate anything. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);


/** Codes that no repeat will fix (certificate and TLS configuration problems, bad arguments). */
function isFatalCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS') ||
    code.startsWith('CERT_') ||
    code.startsWith('ERR_SSL') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
    code === 'UND_ERR_INVALID_ARG' ||
    code === 'ERR_INVALID_URL'
  );
}

/** Default largest response body read (TransportOptions.maxResponseBytes): 16 MiB (docs/sending.md, Limits). */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Default time limit of one attempt (TransportOptions.timeoutMs): 30 000 ms (docs/sending.md, Limits). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** What one attempt ended with: an answer (any status), an answer too large to read, or a network failure. */
export type AttemptResult =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; rawBody: string; url: URL }
  /** `size`: the Content-Length when `declared`, else the bytes read when reading stopped. */
  | { kind: 'too-large'; status: number; headers: IncomingHttpHeaders; size: number; declared: boolean; limit: number; url: URL }
  | { kind: 'network'; code: string; detail: string; timedOut: boolean; sent: boolean; fatal: boolean; cause: unknown; url: URL };

/**
 * Parses and checks a URL against the address policy.
 * @throws PolicyError (`insecure-url`) for plain http off loopback, other schemes, or credentials in the URL;
 *   TypeError-free: an unparseable URL is reported the same way.
 */
export function checkUrl(method: string, url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PolicyError({ reason: 'insecure-url', method, url, message: `"${url}" is not an absolute URL` });
  }
  const problem = insecureUrlProblem(parsed);
  if (problem) throw new PolicyError({ reason: 'insecure-url', method, url, message: `${method} ${url} refused: ${problem}` });
  return parsed;
}

/** The per-attempt time limit of `options` in milliseconds (30 000 when absent or unusable). */
export function attemptTimeoutMs(options: TransportOptions): number {
  return options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs) && options.timeoutMs > 0 ? options.timeoutMs : DEFAULT_TIMEOUT_MS;
}

/**
 * One attempt: the request and any same-origin redirect hops, bounded by the attempt timer (`timeoutMs`, already
 * cut to what is left of the call's total), the body read up to `options.maxResponseBytes`.
 */
export async function attemptOnce(
  options: TransportOptions,
  req: TransportRequest,
  origin: URL,
  bodyText: string | undefined,
  setUrl: (u: URL) => void,
  aborted: () => CancelledError,
  emit: (event: TransportEvent) => void,
  timeoutMs: number,
): Promise<AttemptResult> {
  const controller = new AbortController();
  let timedOut = false;
  let userAborted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no complete answer within ${timeoutMs} ms`));
  }, timeoutMs);
  const onUserAbort = () => {
    userAborted = true;
    controller.abort(req.signal?.reason);
  };
  if (req.signal?.aborted) onUserAbort();
  req.signal?.addEventListener('abort', onUserAbort, { once: true });

  let current = origin;
  setUrl(current);
  const written = req.asWritten;
  let hop: WrittenHop | undefined = written ? { method: req.method, headers: written.headers, ...(written.body !== undefined ? { body: written.body } : {}) } : undefined;
  try {
    for (let hops = 0; ; hops++) {
      // A token is made for the environment's origin: a request as written carries none to a hop elsewhere.
      const token = req.token && (!hop || current.origin === origin.origin) ? await req.token() : undefined;
      if (userAborted) throw aborted();
      const headers = hop ? writtenHeaders(hop.headers, token) : withExtraHeaders(clientHeaders(options, token, bodyText !== undefined), req.extraHeaders);
      if (req.cookies) await addJarCookies(headers, req.cookies, current, hop?.method ?? req.method);
      let res: Dispatcher.ResponseData;
      try {
        res = await undici().request(current, {
          method: (hop?.method ?? req.method) as Dispatcher.HttpMethod,
          headers,
          body: hop ? hop.body : bodyText,
          signal: controller.signal,
          dispatcher: options.dispatcher,
        });
      } catch (err) {
        return classifyNetworkError(err, current, timedOut, userAborted, timeoutMs, aborted);
      }
      if (req.cookies) await keepJarCookies(req.cookies, current, res.headers);

      const next = hop ? await nextWrittenHop(res, current, hop, hops, written?.redirects).catch(async (err: unknown) => {
        await res.body.dump().catch(() => undefined);
        throw err;
      }) : undefined;
      if (next || (!hop && REDIRECT_STATUSES.includes(res.statusCode))) {
        await res.body.dump().catch(() => undefined);
        const target = next ? next.url : redirectTarget(req.method, res, current, origin, hops, options.maxRedirects ?? 5);
        emit({ type: 'redirect', method: hop?.method ?? req.method, url: maskSecrets(current.href), location: maskSecrets(target.href), status: res.statusCode });
        if (next) hop = next.hop;
        current = target;
        setUrl(current);
        continue;
      }
      try {
        return await readAnswer(res, options, current);
      } catch (err) {
        return classifyNetworkError(err, current, timedOut, userAborted, timeoutMs, aborted);
      }
    }
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onUserAbort);
  }
}

/** The headers of a contract call: a fresh token, JSON, the client's User-Agent. */
function clientHeaders(options: TransportOptions, token: string | undefined, json: boolean): Record<string, string> {
  return {
    ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'tpp-toolkit',
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}

/**
 * Parses a URL of a request sent as written: any http or https address.
 * @throws PolicyError (`insecure-url`) for a URL that is not absolute or has another scheme.
 */
export function checkWrittenUrl(method: string, url: string): URL {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // refused below
  }
  if (!parsed) throw new PolicyError({ reason: 'insecure-url', method, url, message: `'${url}' is not an absolute URL` });
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new PolicyError({ reason: 'insecure-url', method, url, message: `Only http and https URLs are sent, not ${parsed.protocol}` });
  return parsed;
}

/**
 * Where a redirect answer leads: a URL of the same origin, within `maxRedirects` hops.
 * @throws PolicyError for an answer without a Location, to another origin or an insecure URL, or one hop too many
 */
function redirectTarget(method: string, res: Dispatcher.ResponseData, current: URL, origin: URL, hops: number, maxRedirects: number): URL {
  const location = res.headers.location;
  const where = Array.isArray(location) ? location[0] : location;
  const status = res.statusCode;
  if (!where) {
    throw new PolicyError({ reason: 'redirect-without-location', method, url: current.href, status, message: `${method} ${current.href} answered ${status} without a Location header` });
  }
  let target: URL;
  try {
    target = new URL(where, current);
  } catch {
    target = new URL('invalid:');
  }
  if (!sameOrigin(target, origin) || insecureUrlProblem(target)) {
    throw new PolicyError({
      reason: 'cross-origin-redirect',
      method,
      url: current.href,
      location: where,
      status,
      message:
        `${method} ${current.href} answered ${status} redirecting to ${where}, another origin than ${origin.origin}: ` +
        'not followed (requests and their Authorization header are only sent to the configured origin)',
    });
  }
  if (hops >= maxRedirects) {
    throw new PolicyError({ reason: 'too-many-redirects', method, url: current.href, location: where, status, message: `${method} ${origin.href} was redirected more than ${maxRedirects} times` });
  }
  return target;
}

/**
 * Reads an answer's body up to `options.maxResponseBytes` (a declared or counted size over it: `too-large`, the
 * body dropped). Throws what the body stream throws.
 */
async function readAnswer(res: Dispatcher.ResponseData, options: TransportOptions, url: URL): Promise<AttemptResult> {
  const limit = options.maxResponseBytes !== undefined && options.maxResponseBytes > 0 ? options.maxResponseBytes : DEFAULT_MAX_RESPONSE_BYTES;
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    res.body.destroy();
    return { kind: 'too-large', status: res.statusCode, headers: res.headers, size: declared, declared: true, limit, url };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      res.body.destroy();
      return { kind: 'too-large', status: res.statusCode, headers: res.headers, size, declared: false, limit, url };
    }
    chunks.push(chunk);
  }
  return { kind: 'response', status: res.statusCode, headers: res.headers, rawBody: Buffer.concat(chunks, size).toString('utf8'), url };
}

function classifyNetworkError(
  err: unknown,
  url: URL,
  timedOut: boolean,
  userAborted: boolean,
  timeoutMs: number,
  aborted: () => CancelledError,
): AttemptResult {
  if (userAborted) throw aborted();
  if (timedOut) {
    return { kind: 'network', code: 'TIMEOUT', detail: `no complete answer within ${timeoutMs} ms`, timedOut: true, sent: true, fatal: false, cause: err, url };
  }
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : 'UNKNOWN';
  const detail = `${code}${typeof e?.message === 'string' && e.message ? ` (${e.message})` : ''}`;
  const isTimeout = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
  return { kind: 'network', code, detail, timedOut: isTimeout, sent: !NOT_SENT_CODES.has(code), fatal: isFatalCode(code), cause: err, url };
}
