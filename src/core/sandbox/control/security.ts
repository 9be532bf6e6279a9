import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../../client/urlPolicy';

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
