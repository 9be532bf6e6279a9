import type { IncomingMessage } from 'node:http';
import { crossSiteReason, foreignHostMessage, hostIsLoopback } from '../serverGuards/guards';

/**
 * What `tpp proxy` answers itself, forwarding nothing (docs/proxy.md, What it refuses): the Local sandbox's guards
 * against web pages (src/core/serverGuards), and paths whose meaning depends on who resolves them. The application's
 * token passes through the proxy, and the proxy sends it on to the real Sandbox or Production: a page in the user's
 * browser must not be able to use it, nor a path reach another resource upstream than the one the proxy diagnosed.
 */

/** A request refused before anything is forwarded: the status the application gets and why. */
export interface Refusal {
  readonly status: 400 | 403 | 421;
  readonly why: string;
}

/** Percent-encodings of `.`, `/`, `\` and `%`: the only ones that can hide a dot segment (`%25` for one more round). */
const DOT_PARTS = /%(2e|2f|5c|25)/gi;
/** Rounds of decoding looked through: the path as written, decoded once (as a server does), and once more. */
const DECODE_ROUNDS = 3;

/**
 * Whether a request path (without its query) has a `.` or `..` segment (RFC 3986 section 5.2.4), written or
 * percent-encoded (`%2e%2e`, `.%2E`, `%252e%252e`), between `/` or `\` (some servers read both as separators, also
 * encoded as `%2f`/`%5c`), with or without `;` parameters (`..;`). Work is bounded by the path's length.
 */
export function hasDotSegment(path: string): boolean {
  if (!path.includes('.') && !path.includes('%')) return false; // the paths of the spec: nothing to look through
  let p = path;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    if (p.split(/[/\\]/).some((segment) => /^\.\.?(;|$)/.test(segment))) return true;
    const decoded = p.replace(DOT_PARTS, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
    if (decoded === p) return false;
    p = decoded;
  }
  return false;
}

/**
 * Why the proxy listening at `port` refuses `req` before reading any of it, or undefined: a Host that is not a
 * loopback name at `port` (421: a web page whose host name was made to resolve to this machine, DNS rebinding), a
 * cross-site `Origin` or `Sec-Fetch-Site` (403: a web page), a path with a dot segment (400).
 */
export function refusalOf(req: IncomingMessage, port: number): Refusal | undefined {
  if (!hostIsLoopback(req.headers.host, port)) return { status: 421, why: foreignHostMessage('tpp proxy', req.headers.host, port) };
  const crossSite = crossSiteReason(req.headers, port);
  if (crossSite) return { status: 403, why: `tpp proxy refuses requests from web pages (${crossSite}): your application's HTTP client sends neither header; nothing was forwarded.` };
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (hasDotSegment(path)) {
    return { status: 400, why: `tpp proxy refuses a path with a "." or ".." segment (written or percent-encoded): ${JSON.stringify(path.slice(0, 100))} would reach another path once resolved; nothing was forwarded.` };
  }
  return undefined;
}
