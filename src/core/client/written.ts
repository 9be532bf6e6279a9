/**
 * What the transport does for a request as written (docs/flows.md, How requests are sent), so that it leaves as REST
 * Client and httpyac send it through got 11: the headers a file writes (a repeated name on lines of its own, as
 * httpyac sends them), the cookies of the run's jar, and redirects followed by got's rules (a 303 becomes GET without
 * a body; another host or port gets neither the written Authorization, Cookie nor Host). Contract calls share the
 * header and cookie rules for the headers a flow adds to them.
 */
import { PolicyError } from './errors';
import type { CookieJarLike, Dispatcher, RedirectHop, RedirectPolicy, WrittenHeader } from './types';

/** Header values as undici takes them: a repeated name is a list, sent as lines of its own. */
export type HeaderRecord = Record<string, string | string[]>;

/** Redirect answers got 11 follows when they carry a Location (its `redirectCodes`). */
export const WRITTEN_REDIRECT_STATUSES: readonly number[] = [300, 301, 302, 303, 304, 307, 308];
/** got's `maxRedirects` default. */
export const DEFAULT_WRITTEN_REDIRECTS = 10;

/** One hop of a request as written: what it sends. */
export interface WrittenHop {
  readonly method: string;
  readonly headers: readonly WrittenHeader[];
  readonly body?: string | Uint8Array;
}

/** Adds `h` to `out` (a repeated name becomes a list; Cookie lines are joined, one Cookie header as RFC 6265 wants). */
function addHeader(out: HeaderRecord, h: WrittenHeader): void {
  const key = Object.keys(out).find((k) => k.toLowerCase() === h.name.toLowerCase());
  if (key === undefined) out[h.name] = h.value;
  else if (h.name.toLowerCase() === 'cookie') out[key] = `${String(out[key])}; ${h.value}`;
  else out[key] = [...[out[key] as string | string[]].flat(), h.value];
}

/**
 * The headers of a hop as written: each line as the file has it, a token when given. Content-Length is left to the
 * transport, as REST Client does (it removes a written one so the body's own length is sent).
 */
export function writtenHeaders(list: readonly WrittenHeader[], token: string | undefined): HeaderRecord {
  const out: HeaderRecord = {};
  for (const h of list) if (h.name.toLowerCase() !== 'content-length') addHeader(out, h);
  if (token !== undefined) out.Authorization = `Bearer ${token}`;
  return out;
}

/** A contract call's headers with a flow's own added: a name the flow writes replaces the client's, but never its token or Content-Length. */
export function withExtraHeaders(base: Record<string, string>, extra: readonly WrittenHeader[] | undefined): HeaderRecord {
  if (!extra || extra.length === 0) return base;
  const out: HeaderRecord = { ...base };
  const written = new Set(extra.map((h) => h.name.toLowerCase()));
  for (const k of Object.keys(out)) if (written.has(k.toLowerCase()) && k.toLowerCase() !== 'authorization') delete out[k];
  for (const h of extra) if (!['authorization', 'content-length'].includes(h.name.toLowerCase())) addHeader(out, h);
  return out;
}

/**
 * Adds the jar's cookies for `url` to `headers`, as got does before every request and hop.
 * @throws PolicyError (`cookies-refused`) when the request writes its own Cookie header and the jar also has cookies
 *   for it (REST Client would send only the jar's, httpyac both), or whatever the jar throws.
 */
export async function addJarCookies(headers: HeaderRecord, jar: CookieJarLike, url: URL, method: string): Promise<void> {
  const fromJar = await jar.cookieHeader(url);
  if (fromJar === undefined || fromJar === '') return;
  const own = Object.keys(headers).find((k) => k.toLowerCase() === 'cookie');
  if (own !== undefined) {
    throw new PolicyError({
      reason: 'cookies-refused',
      method,
      url: url.href,
      message: `${method} ${url.href} writes a Cookie header and the cookie jar of this run holds cookies for ${url.host}: REST Client would send only the jar's and httpyac both, so tpp sends neither; write # @no-cookie-jar above the request to send only yours`,
    });
  }
  headers.cookie = fromJar;
}

/** Keeps an answer's Set-Cookie lines in the jar (a jar that cannot keep one ignores it, as got's tough-cookie does). */
export async function keepJarCookies(jar: CookieJarLike, url: URL, headers: Dispatcher.ResponseData['headers']): Promise<void> {
  const set = headers['set-cookie'];
  const lines = set === undefined ? [] : Array.isArray(set) ? set : [set];
  if (lines.length > 0) await jar.store(url, lines).catch(() => undefined);
}

const without = (headers: readonly WrittenHeader[], names: readonly string[]): WrittenHeader[] => headers.filter((h) => !names.includes(h.name.toLowerCase()));

/**
 * The next hop of a request as written after `res`, or undefined when `res` is the answer (not a redirect, no
 * Location, or the policy does not follow).
 * @throws PolicyError for one hop too many, a Location that is not an http(s) URL, or a hop `beforeHop` refuses.
 */
export async function nextWrittenHop(res: Dispatcher.ResponseData, current: URL, hop: WrittenHop, hops: number, policy: RedirectPolicy | undefined): Promise<{ url: URL; hop: WrittenHop } | undefined> {
  const location = res.headers.location;
  const where = Array.isArray(location) ? location[0] : location;
  if (!policy?.follow || !where || !WRITTEN_REDIRECT_STATUSES.includes(res.statusCode)) return undefined;
  const status = res.statusCode;
  const max = policy.max ?? DEFAULT_WRITTEN_REDIRECTS;
  if (hops >= max) throw new PolicyError({ reason: 'too-many-redirects', method: hop.method, url: current.href, location: where, status, message: `${hop.method} ${current.href} was redirected more than ${max} times` });
  let to: URL;
  try {
    to = new URL(where, current);
  } catch {
    throw new PolicyError({ reason: 'redirect-refused', method: hop.method, url: current.href, location: where, status, message: `${hop.method} ${current.href} answered ${status} with a Location that is not a URL: ${where}` });
  }
  if (to.protocol !== 'http:' && to.protocol !== 'https:') throw new PolicyError({ reason: 'redirect-refused', method: hop.method, url: current.href, location: where, status, message: `${hop.method} ${current.href} answered ${status} redirecting to ${to.protocol} (only http and https are followed)` });
  // got 11 (methodRewriting): only a 303 to anything but GET or HEAD becomes GET, its body and Content-Length dropped.
  const toGet = status === 303 && hop.method !== 'GET' && hop.method !== 'HEAD';
  const crossSite = to.hostname !== current.hostname || to.port !== current.port;
  const next: WrittenHop = {
    method: toGet ? 'GET' : hop.method,
    headers: without(hop.headers, [...(toGet ? ['content-length'] : []), ...(crossSite ? ['authorization', 'cookie', 'host'] : [])]),
    ...(!toGet && hop.body !== undefined ? { body: hop.body } : {}),
  };
  const info: RedirectHop = { from: current, to, status, method: next.method, keepsBody: next.body !== undefined, crossSite };
  const refused = policy.beforeHop ? await policy.beforeHop(info) : undefined;
  if (refused) throw new PolicyError({ reason: 'redirect-refused', method: hop.method, url: current.href, location: to.href, status, message: `${hop.method} ${current.href} answered ${status} redirecting to ${to.href}: not followed: ${refused}` });
  return { url: to, hop: next };
}
