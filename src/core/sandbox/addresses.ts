import { BASE_PREFIX, basesOnOrigin } from '../environments';

export { BASE_PREFIX };

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
  const b = basesOnOrigin(origin);
  return { origin, v3BaseUrl: b.v3, v2BaseUrl: b.v2, eligibilityBaseUrl: b.eligibility };
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
