import type { BaseKind } from '../contract/types';

/** Path prefix of each base address on the sandbox's origin (spec: Base addresses; v2 paths start at the host). */
export const BASE_PREFIX: Readonly<Record<BaseKind, string>> = { v3: '/api/v3', v2: '', eligibility: '/api/v1' };

/**
 * Default port of the editor's Local sandbox (setting `tpp.local.port`): fixed, so that an application configured
 * for Local keeps its address across editor sessions. Outside the range browsers and tools commonly use.
 */
export const DEFAULT_LOCAL_PORT = 28463;

/** The Local sandbox's addresses on one origin (spec {sandbox_url} = v3BaseUrl, the v3 JWT `aud`). */
export interface SandboxAddresses {
  /** e.g. http://127.0.0.1:28463 */
  readonly origin: string;
  /** origin + /api/v3: the v3 base address and v3 JWT `aud`. */
  readonly v3BaseUrl: string;
  /** The origin: the v2 base address and v2 JWT `aud`. */
  readonly v2BaseUrl: string;
  /** origin + /api/v1: the retired eligibility lookup. */
  readonly eligibilityBaseUrl: string;
}

/** The addresses of a sandbox whose origin is `origin` (no trailing slash). */
export function sandboxAddresses(origin: string): SandboxAddresses {
  return { origin, v3BaseUrl: `${origin}${BASE_PREFIX.v3}`, v2BaseUrl: `${origin}${BASE_PREFIX.v2}`, eligibilityBaseUrl: `${origin}${BASE_PREFIX.eligibility}` };
}

/**
 * The origin a client on this machine calls for a sandbox listening on `host`:`port`: a wildcard bind (`0.0.0.0`,
 * `::`) is reached through loopback (`127.0.0.1`, `[::1]`), never at the wildcard itself, which no client can call
 * and no JWT `aud` can name (docs/sandbox.md, Addresses). IPv6 hosts are bracketed.
 */
export function callableOrigin(host: string, port: number): string {
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' || host === '[::]' ? '::1' : host.replace(/^\[(.*)\]$/, '$1');
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/** The addresses of a sandbox listening on 127.0.0.1:`port` (the editor's Local sandbox, `tpp sandbox`). */
export function loopbackAddresses(port: number): SandboxAddresses {
  return sandboxAddresses(`http://127.0.0.1:${port}`);
}
