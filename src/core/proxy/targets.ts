import { isIP } from 'node:net';
import type { BaseKind } from '../contract';

/**
 * Where `tpp proxy` listens and where it forwards (spec: Base addresses). The proxy serves the version 3 interface
 * under `/api/v3` and the version 2 record interface under `/v2/` of its own loopback origin, and forwards each to the
 * real base address it was given. The token's `aud` must still be the REAL base address (spec: Authentication,
 * claim aud), which is what the diagnosis of a 401 checks against.
 */

/** Thrown for a target or bind address the proxy refuses; the message says what to give instead. */
export class ProxyConfigError extends Error {}

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '::ffff:127.0.0.1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * Checks the interface the proxy binds to: loopback only, because the application's token passes through it and
 * no other machine may send through the proxy.
 * @throws ProxyConfigError for any other address (0.0.0.0, a LAN address, a host name other than localhost)
 */
export function checkBindHost(host: string): string {
  if (!isLoopbackHost(host)) {
    throw new ProxyConfigError(`tpp proxy listens on loopback only (127.0.0.1, ::1 or localhost), not ${JSON.stringify(host)}: the tokens of your application pass through it`);
  }
  return host;
}

/**
 * A base address to forward to, without a trailing slash. `https://` is required except on loopback (a second
 * `tpp sandbox` in tests, a local server of the administrator's).
 * @param option the option name, for the message (`--target`)
 * @throws ProxyConfigError for a malformed URL, another scheme, `http://` off loopback, a query or fragment
 */
export function parseTarget(option: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProxyConfigError(`${option} must be an absolute base address such as https://sandbox.example.com/api/v3, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ProxyConfigError(`${option} must start with https://, not ${url.protocol}//`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ProxyConfigError(`${option} must be an https:// address (plain http:// is accepted only on loopback): ${JSON.stringify(value)} would send your application's tokens unencrypted`);
  }
  if (url.search || url.hash) throw new ProxyConfigError(`${option} is a base address without query or fragment, not ${JSON.stringify(value)}`);
  if (url.username || url.password) throw new ProxyConfigError(`${option} must not carry a user name or password`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Where one request to the proxy goes. */
export interface Route {
  readonly base: Extract<BaseKind, 'v3' | 'v2'>;
  /** The upstream URL (target base, the path below the proxy's base, the query). */
  readonly url: string;
  /** Path below the base, without the query (what the endpoint table matches). */
  readonly relPath: string;
  /** The real base address: the `aud` the upstream checks. */
  readonly audience: string;
}

/** The proxy's targets: the version 3 base, and the version 2 base when given. */
export interface Targets {
  readonly v3: string;
  readonly v2?: string;
}

/** The version 3 prefix of the proxy's own addresses (as on the Local sandbox). */
export const V3_PREFIX = '/api/v3';

/**
 * The route of a request path (with query) to the proxy, or a sentence saying why it has none (the proxy answers
 * 404 with it).
 */
export function routeOf(targets: Targets, pathAndQuery: string): Route | string {
  const q = pathAndQuery.indexOf('?');
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const query = q < 0 ? '' : pathAndQuery.slice(q);
  if (path === V3_PREFIX || path.startsWith(`${V3_PREFIX}/`)) {
    const rel = path.slice(V3_PREFIX.length);
    return { base: 'v3', url: `${targets.v3}${rel}${query}`, relPath: rel, audience: targets.v3 };
  }
  if (path.startsWith('/v2/')) {
    if (!targets.v2) return 'This proxy was started without --v2-target: version 2 requests (/v2/...) have nowhere to go. Start it with --v2-target <the version 2 base address>.';
    return { base: 'v2', url: `${targets.v2}${path}${query}`, relPath: path, audience: targets.v2 };
  }
  return `tpp proxy forwards version 3 requests under ${V3_PREFIX}/ and version 2 requests under /v2/; ${JSON.stringify(path.slice(0, 100))} is neither.`;
}
