import { ENDPOINTS } from '../contract/endpoints';
import type { BaseKind, EndpointDef } from '../contract/types';
import type { Exchange } from '../exchange/types';

/**
 * The base addresses a recorded request went to (spec: Base addresses), so that a flow writes `{{baseUrl}}`,
 * `{{v2BaseUrl}}` or `{{eligibilityBaseUrl}}` and never a host: those the caller knows (an environment's addresses),
 * the Local sandbox's one-origin layout for what it logged, and, for the rest, what the requests to the contract's
 * endpoints show (the part of their URL before the endpoint's path).
 */

/** Base addresses of one environment, absolute, without a trailing slash. */
export interface BaseAddresses {
  readonly v3?: string;
  readonly v2?: string;
  readonly eligibility?: string;
}

/** A request's URL under a base: which base, the path after it (`/…` or empty) and the query (without `?`). */
export interface Located {
  readonly kind: BaseKind;
  readonly path: string;
  readonly query: string;
}

/** The flow variable of each base (docs/flows.md, Variables). */
export const BASE_VARIABLES: Readonly<Record<BaseKind, string>> = { v3: '{{baseUrl}}', v2: '{{v2BaseUrl}}', eligibility: '{{eligibilityBaseUrl}}' };

/**
 * The one-origin layout of the Local sandbox (docs/sandbox.md, Addresses) and of `tpp proxy` (docs/proxy.md): version 3
 * at `/api/v3`, the eligibility lookup at `/api/v1`, version 2 at the origin itself.
 */
export function oneOriginBases(origin: string): BaseAddresses {
  return { v3: `${origin}/api/v3`, v2: origin, eligibility: `${origin}/api/v1` };
}

/** Whether an exchange was answered by a Local sandbox (its journal, its Integration Log, the editor's Local sends). */
const isLocal = (x: Exchange) => x.source === 'sandbox-log' || x.env === 'local';

/** Each endpoint's path template as the end of a URL path, the part before it captured. */
let suffixes: { def: EndpointDef; re: RegExp }[] | undefined;
function endpointSuffixes(): { def: EndpointDef; re: RegExp }[] {
  return (suffixes ??= Object.values(ENDPOINTS).map((def) => ({
    def,
    re: new RegExp(`^(.*?)${def.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+')}/?$`),
  })));
}

function splitUrl(url: string): { origin: string; pathname: string; search: string } | undefined {
  try {
    const u = new URL(url);
    return { origin: u.origin, pathname: u.pathname, search: u.search.replace(/^\?/, '') };
  } catch {
    return undefined;
  }
}

/** The base addresses known for one recording, looked up by the longest one a URL starts with. */
export class BaseIndex {
  private readonly prefixes: { kind: BaseKind; prefix: string }[] = [];

  /** Adds an environment's addresses (a trailing slash is dropped). */
  add(bases: BaseAddresses): void {
    for (const kind of ['v3', 'v2', 'eligibility'] as const) {
      const url = bases[kind];
      const at = url ? splitUrl(url) : undefined;
      if (!at) continue;
      const prefix = `${at.origin}${at.pathname.replace(/\/+$/, '')}`;
      if (!this.prefixes.some((p) => p.prefix === prefix)) this.prefixes.push({ kind, prefix });
    }
  }

  /**
   * Learns the bases an exchange shows: a Local one's origin in the sandbox's layout; another's from the endpoint
   * its path ends with (the longest template; not from a 404 or 405, which may be a path the table does not have).
   */
  learn(x: Exchange): void {
    const at = splitUrl(x.request.url);
    if (!at) return;
    if (isLocal(x)) return this.add(oneOriginBases(at.origin));
    const status = x.response?.status;
    if (status === 404 || status === 405) return;
    const method = x.request.method.toUpperCase();
    let best: { def: EndpointDef; before: string } | undefined;
    for (const { def, re } of endpointSuffixes()) {
      if (def.method !== method || (best && best.def.path.length >= def.path.length)) continue;
      const m = re.exec(at.pathname);
      if (m) best = { def, before: m[1] ?? '' };
    }
    if (best) this.add({ [best.def.base]: `${at.origin}${best.before}` });
  }

  /** Where `url` is: under the longest known base it starts with; `undefined` when under none. */
  locate(url: string): Located | undefined {
    const at = splitUrl(url);
    if (!at) return undefined;
    const whole = `${at.origin}${at.pathname}`;
    let best: { kind: BaseKind; prefix: string } | undefined;
    for (const p of this.prefixes) {
      const under = whole === p.prefix || whole.startsWith(`${p.prefix}/`);
      if (under && (!best || p.prefix.length > best.prefix.length)) best = p;
    }
    return best ? { kind: best.kind, path: whole.slice(best.prefix.length), query: at.search } : undefined;
  }
}
