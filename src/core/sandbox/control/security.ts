import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../../client/urlPolicy';
import { MAX_TIMEOUT_MS } from './limits';
import { REQUEST_TIMEOUT_MS, requestTimeLimits } from '../../serverGuards/guards';

// The guards of the sandbox's server (Host, Origin, time limits, connection cap) are shared with tpp proxy
// (src/core/serverGuards); its limits are named here too, where docs/sandbox.md points.
export { MAX_CONNECTIONS, REQUEST_TIMEOUT_MS } from '../../serverGuards/guards';

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

/** Media types a control call's body may have: JSON, and NDJSON for seeds. Neither is one a page can send without asking first (CORS preflight). */
export const CONTROL_BODY_TYPES: readonly string[] = ['application/json', 'application/x-ndjson', 'application/ndjson'];

/** The media type of a Content-Type value, lower-case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Milliseconds a connection may stay silent before it is closed: longer than the longest `timeout` fault a test may
 * schedule (control/limits.ts), so only a connection nobody uses any more is cut.
 */
export const CONNECTION_TIMEOUT_MS = MAX_TIMEOUT_MS + 60_000;

/** Fastify options of the time limits (docs/sandbox.md, Limits); `requestTimeoutMs` replaces {@link REQUEST_TIMEOUT_MS} (tests). */
export function timeLimits(requestTimeoutMs = REQUEST_TIMEOUT_MS): { requestTimeout: number; connectionTimeout: number; http: { connectionsCheckingInterval: number; headersTimeout: number } } {
  const { requestTimeout, headersTimeout, connectionsCheckingInterval } = requestTimeLimits(requestTimeoutMs);
  return { requestTimeout, connectionTimeout: CONNECTION_TIMEOUT_MS, http: { connectionsCheckingInterval, headersTimeout } };
}
