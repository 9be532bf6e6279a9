import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../../client/urlPolicy';
import { MAX_TIMEOUT_MS } from './limits';

/**
 * Who may call the control API (docs/testing-your-application.md, Security): it resets and rewrites every record, so
 * it answers by default only when the sandbox listens on a loopback address. On any other host it is off unless an
 * admin token is given; with a token, every control call but `health` must carry it as a Bearer token.
 *
 * Light on purpose: `tpp sandbox` reads it in the process that only starts the serving one, so nothing here may load
 * the contract or fastify (the 421 of a foreign Host is answered by ../guard.ts, in the serving process).
 */

/** The control API's options of {@link startSandbox}. */
export interface AdminOptions {
  /** false turns the control API off wherever the sandbox listens (`--no-admin`). */
  readonly enabled?: boolean;
  /** Bearer token every control call but health must carry (`--admin-token`); needed off loopback. */
  readonly token?: string;
  /** Health answers `starting` until the handle's `setReady()` (the CLI loads its sample data first). */
  readonly starting?: boolean;
  /**
   * What the 401 of a control call without the token says: which sandbox this is and how to get on (default
   * {@link CLI_TOKEN_HELP}: a `tpp sandbox` started with `--admin-token`).
   */
  readonly tokenHelp?: string;
}

/** The 401's help of a `tpp sandbox` started with an admin token. */
export const CLI_TOKEN_HELP =
  'This sandbox (tpp sandbox) was started with an admin token (--admin-token or TPP_ADMIN_TOKEN): send that token as Authorization: Bearer <token>. ' +
  'Or start a sandbox of your own for your tests: tpp sandbox --port 0 needs no token on a loopback --host (tpp docs testing).';

/** Whether the control API is on for a sandbox listening on `host`. */
export function controlEnabled(host: string, admin: AdminOptions | undefined): boolean {
  if (admin?.enabled === false) return false;
  return !!admin?.token || isLoopbackHost(host);
}

/** Whether an Authorization header carries `token` as a Bearer token, compared in constant time (over SHA-256 digests, so lengths leak nothing either). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m?.[1] ?? ''), digest(token)) && !!m;
}

/**
 * Whether a request's `Host` names this loopback-bound sandbox: a loopback address or `localhost` at `port`. A web page
 * that makes its own host name resolve to 127.0.0.1 (DNS rebinding) still sends that name as `Host`, so refusing
 * other names keeps every page in the user's browser out of the partner routes and the control API alike.
 */
export function hostIsLoopback(host: string | undefined, port: number): boolean {
  if (!host) return false;
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
 * Why a control call comes from a web page rather than a test suite, or undefined: an `Origin` other than the
 * sandbox's own loopback origin, or a `Sec-Fetch-Site` other than `same-origin`/`none`. Browsers send these on
 * cross-site requests and pages cannot remove them; curl, test suites and the editor send neither.
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

/** Media types a control call's body may have: JSON, and NDJSON for seeds. Neither is one a page can send without asking first (CORS preflight). */
export const CONTROL_BODY_TYPES: readonly string[] = ['application/json', 'application/x-ndjson', 'application/ndjson'];

/** The media type of a Content-Type value, lower-case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Time to receive a whole request, headers and body, in milliseconds: a body trickled a byte at a time holds its
 * connection no longer than this (docs/sandbox.md, Limits). A 1 MiB body needs 35 KB/s to arrive in time.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Milliseconds a connection may stay silent before it is closed: longer than the longest `timeout` fault a test may
 * schedule (control/limits.ts), so only a connection nobody uses any more is cut.
 */
export const CONNECTION_TIMEOUT_MS = MAX_TIMEOUT_MS + 60_000;
/** Connections open at once; the server refuses more (docs/sandbox.md, Limits; ../guard.ts). */
export const MAX_CONNECTIONS = 512;

/** Fastify options of the time limits above; `requestTimeoutMs` replaces {@link REQUEST_TIMEOUT_MS} (tests). */
export function timeLimits(requestTimeoutMs = REQUEST_TIMEOUT_MS): { requestTimeout: number; connectionTimeout: number; http: { connectionsCheckingInterval: number; headersTimeout: number } } {
  // Node checks request timeouts on an interval (30 s by default): a finer one makes the limit what it says. Node 20
  // enforces the request limit only when the headers' limit (60 s by default) is not longer (seen: a body trickled
  // for minutes under a 500 ms request limit), so both are the same.
  return { requestTimeout: requestTimeoutMs, connectionTimeout: CONNECTION_TIMEOUT_MS, http: { connectionsCheckingInterval: Math.min(1000, requestTimeoutMs), headersTimeout: requestTimeoutMs } };
}
