import { isLoopbackHost } from '../client/urlPolicy';

/**
 * What the toolkit's own HTTP servers on this machine, the Local sandbox and `tpp proxy`, refuse before any request
 * reaches them (docs/sandbox.md, Limits; docs/testing-your-application.md, Security; docs/proxy.md): a request
 * addressed by another host name, one from a web page, more connections than a cap, headers or a body that take too
 * long to arrive. A web page in the user's browser can reach any loopback port; these keep it out, and keep a client
 * from holding the server's connections.
 */

/**
 * Time to receive a whole request, headers and body, in milliseconds: a body trickled a byte at a time holds its
 * connection no longer than this (docs/sandbox.md, Limits). A 1 MiB body needs 35 KB/s to arrive in time.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Connections open at once; the server refuses more (docs/sandbox.md, Limits). */
export const MAX_CONNECTIONS = 512;

/** node:http server options of the request time limit: the whole request, headers and body, within `requestTimeoutMs`. */
export interface RequestTimeLimits {
  readonly requestTimeout: number;
  readonly headersTimeout: number;
  readonly connectionsCheckingInterval: number;
}

/** The node:http options that make {@link REQUEST_TIMEOUT_MS} (or `requestTimeoutMs`, tests) hold. */
export function requestTimeLimits(requestTimeoutMs = REQUEST_TIMEOUT_MS): RequestTimeLimits {
  // Node checks request timeouts on an interval (30 s by default): a finer one makes the limit what it says. Node 20
  // enforces the request limit only when the headers' limit (60 s by default) is not longer (seen: a body trickled
  // for minutes under a 500 ms request limit), so both are the same. A connection that sends nothing is held no
  // longer than the headers' limit either.
  return { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs) };
}

/**
 * Whether a request's `Host` names this loopback-bound server: a loopback address or `localhost` at `port`. A web page
 * that makes its own host name resolve to 127.0.0.1 (DNS rebinding) still sends that name as `Host`, so refusing
 * other names keeps every page in the user's browser out.
 */
export function hostIsLoopback(host: string | undefined, port: number): boolean {
  if (!host) return false;
  if (host === `127.0.0.1:${port}` || host === `localhost:${port}`) return true; // what clients send, without parsing a URL per request
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search) return false;
  return isLoopbackHost(url.hostname) && (url.port || '80') === String(port);
}

/**
 * The message of the 421 a loopback-bound server answers to a request whose Host is not a loopback name at `port`
 * ({@link hostIsLoopback}); `who` names the server ("This sandbox", "tpp proxy").
 */
export function foreignHostMessage(who: string, host: string | undefined, port: number): string {
  const named = JSON.stringify(String(host ?? '').slice(0, 100));
  return `${who} answers only requests addressed to it by a loopback name (127.0.0.1:${port} or localhost:${port}), not Host ${named}: a web page whose address was made to point at this machine is refused`;
}

/**
 * Why a request comes from a web page rather than a program, or undefined: an `Origin` other than the server's own
 * loopback origin, or a `Sec-Fetch-Site` other than `same-origin`/`none`. Browsers send these on cross-site requests
 * and pages cannot remove them; curl, test suites, applications' HTTP clients and the editor send neither.
 */
export function crossSiteReason(headers: Readonly<Record<string, string | string[] | undefined>>, port: number): string | undefined {
  const site = String(headers['sec-fetch-site'] ?? '').toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is ${JSON.stringify(site)}`;
  const origin = headers.origin === undefined ? undefined : String(headers.origin);
  if (origin === undefined) return undefined;
  try {
    const url = new URL(origin);
    if (url.protocol === 'http:' && hostIsLoopback(url.host, port)) return undefined;
  } catch {
    // `null` (a sandboxed frame, a file page) or garbage: refused below
  }
  return `Origin is ${JSON.stringify(origin.slice(0, 100))}`;
}
