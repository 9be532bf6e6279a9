import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isLoopbackHost } from '../../client/urlPolicy';
import { errorBody } from '../replies';
import { MAX_TIMEOUT_MS } from './limits';
import { foreignHostMessage, hostIsLoopback, MAX_CONNECTIONS, REQUEST_TIMEOUT_MS, requestTimeLimits } from '../../serverGuards/guards';

// The guards of the sandbox's server (Host, Origin, time limits, connection cap) are shared with tpp proxy
// (src/core/serverGuards); its limits are named here too, where docs/sandbox.md points.
export { MAX_CONNECTIONS, REQUEST_TIMEOUT_MS } from '../../serverGuards/guards';

/**
 * Who may call the control API (docs/testing-your-application.md, Security): it resets and rewrites every record, so
 * it answers by default only when the sandbox listens on a loopback address. On any other host it is off unless an
 * admin token is given; with a token, every control call but `health` must carry it as a Bearer token.
 */

/** The control API's options of {@link startSandbox}. */
export interface AdminOptions {
  /** false turns the control API off wherever the sandbox listens (`--no-admin`). */
  readonly enabled?: boolean;
  /** Bearer token every control call but health must carry (`--admin-token`); needed off loopback. */
  readonly token?: string;
  /** Health answers `starting` until the handle's `setReady()` (the CLI loads its sample data first). */
  readonly starting?: boolean;
}

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

/**
 * Caps connections, and on a loopback bind answers 421 to any request whose Host is not a loopback name at the
 * sandbox's port, before anything else sees it (not journalled, no body read). Off a loopback bind (a container's
 * `--host 0.0.0.0`) clients call it by any name, and the admin token guards the control API instead. Install it
 * before every other hook.
 */
export function guardServer(app: FastifyInstance, bindHost: string, portOf: () => number): void {
  app.server.maxConnections = MAX_CONNECTIONS;
  if (!isLoopbackHost(bindHost)) return;
  app.addHook('onRequest', async (req, reply) => {
    if (hostIsLoopback(req.headers.host, portOf())) return undefined;
    return reply.code(421).send(errorBody(421, foreignHostMessage('This sandbox', req.headers.host, portOf())));
  });
}
