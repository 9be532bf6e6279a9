/**
 * Address policy of the client: every request carries a bearer JWT (spec: Authentication), so plain http is refused
 * except to this machine (the Local sandbox), where nothing crosses a network; and a redirect (spec: Errors, 301/302)
 * is followed only to the same origin, so the Authorization header never reaches another host.
 */
import { isIP } from 'node:net';

/**
 * True when `hostname` (as `URL.hostname` gives it, IPv6 in brackets) is this machine:
 * `localhost` / `*.localhost`, `127.0.0.0/8`, `::1`.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const ip = isIP(host);
  if (ip === 4) return host.startsWith('127.');
  if (ip === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(host);
  return false;
}

/**
 * Why `url` may not be called, or `undefined` when it may: only `https:`, or `http:` to a loopback host;
 * no user name or password in the address (they would be sent as credentials).
 */
export function insecureUrlProblem(url: URL): string | undefined {
  if (url.username || url.password) return 'addresses with a user name or password are not accepted';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname)
      ? undefined
      : `plain http is refused for ${url.host}: use https (http is allowed only for loopback addresses such as 127.0.0.1)`;
  }
  return `the ${url.protocol.replace(/:$/, '')} scheme is not supported: use https`;
}

/** True when `a` and `b` have the same scheme, host and port. */
export function sameOrigin(a: URL, b: URL): boolean {
  return a.origin === b.origin;
}
