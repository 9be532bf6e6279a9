/**
 * The three environments an integrator works against (spec: Authentication, item 3 — Partner ID and
 * program identifiers are distinct per environment; Versioning — sandbox and production).
 *
 * - `local`: the embedded Local sandbox, the default; works with no setup (its Partner ID is generated).
 * - `sandbox`: the administrator's test address ({sandbox_url}).
 * - `production`: the administrator's production address ({base_url}).
 *
 * Each environment's traits are in {@link ENVIRONMENTS}, and the rule that places its three base addresses on one
 * origin is {@link deriveBaseUrls}: nothing else compares an environment's name or builds its addresses.
 */
import type { BaseKind } from './contract/types';

export const ENVIRONMENT_IDS = ['local', 'sandbox', 'production'] as const;

/** One of `local`, `sandbox`, `production`. */
export type EnvironmentId = (typeof ENVIRONMENT_IDS)[number];

/** Static description of an environment. */
export interface EnvironmentInfo {
  readonly id: EnvironmentId;
  /** Human label, as shown in the tree and the status bar. */
  readonly label: string;
  /** True for the administrator's servers, which need a Partner ID and a registered public key. */
  readonly remote: boolean;
  /** True where a data-changing request must be confirmed by typing the environment's name. */
  readonly guarded: boolean;
  /**
   * The name in logs and lists of traffic (the Integration Log, Watch My Application, `tpp proxy`): Production's in
   * capitals, so that live traffic is never mistaken for a test.
   */
  readonly logLabel: string;
  /** A short warning beside its name where one is picked (`live data`), if any. */
  readonly caution?: string;
  readonly description: string;
}

export const DEFAULT_ENVIRONMENT: EnvironmentId = 'local';

export const ENVIRONMENTS: Readonly<Record<EnvironmentId, EnvironmentInfo>> = {
  local: {
    id: 'local',
    label: 'Local',
    remote: false,
    guarded: false,
    logLabel: 'Local',
    description: 'Embedded sandbox on this machine; works offline with no setup.',
  },
  sandbox: {
    id: 'sandbox',
    label: 'Sandbox',
    remote: true,
    guarded: false,
    logLabel: 'Sandbox',
    description: "The administrator's test environment.",
  },
  production: {
    id: 'production',
    label: 'Production',
    remote: true,
    guarded: true,
    logLabel: 'PRODUCTION',
    caution: 'live data',
    description: "The administrator's production environment: real data.",
  },
};

/** Type guard: `true` when `value` names one of the three environments. */
export function isEnvironmentId(value: unknown): value is EnvironmentId {
  return typeof value === 'string' && (ENVIRONMENT_IDS as readonly string[]).includes(value);
}

/** The environments of the administrator's servers (those an application can be watched on, docs/proxy.md). */
export const REMOTE_ENVIRONMENT_IDS = ENVIRONMENT_IDS.filter((id) => ENVIRONMENTS[id].remote) as readonly Exclude<EnvironmentId, 'local'>[];

/** The environments in display order (Local first). */
export function listEnvironments(): EnvironmentInfo[] {
  return ENVIRONMENT_IDS.map((id) => ENVIRONMENTS[id]);
}

/** Path of each base address on its origin (spec: Base addresses; Versioning): v3 at /api/v3, v2 at the root, eligibility at /api/v1. */
export const BASE_PREFIX: Readonly<Record<BaseKind, string>> = { v3: '/api/v3', v2: '', eligibility: '/api/v1' };

/** The three base addresses of an origin (no trailing slash), by the rule of {@link BASE_PREFIX}. */
export function basesOnOrigin(origin: string): Record<BaseKind, string> {
  return { v3: `${origin}${BASE_PREFIX.v3}`, v2: `${origin}${BASE_PREFIX.v2}`, eligibility: `${origin}${BASE_PREFIX.eligibility}` };
}

/**
 * The version 2 and eligibility addresses of a version 3 base address: the same origin, by {@link BASE_PREFIX}.
 * @throws Error when `v3` is not an absolute http(s) address ending in /api/v3 (the JWT `aud`).
 */
export function deriveBaseUrls(v3: string): Record<BaseKind, string> {
  let url: URL;
  try {
    url = new URL(v3);
  } catch {
    throw new Error(`--base-url must be an absolute address ending in /api/v3, not '${v3}'`);
  }
  const clean = url.href.replace(/\/+$/, '');
  if (!/^https?:$/.test(url.protocol) || !clean.endsWith(BASE_PREFIX.v3)) throw new Error(`--base-url must be an http(s) address ending in /api/v3 (the JWT aud), not '${v3}'`);
  return { ...basesOnOrigin(url.origin), v3: clean };
}

/** An environment's addresses as a run is given them: the v3 base, and the others when they differ from the rule. */
export interface EnvironmentAddresses {
  /** Version 3 base address, ending in /api/v3 (the JWT `aud`). */
  readonly baseUrl: string;
  /** Version 2 host (default: the origin of `baseUrl`). */
  readonly v2BaseUrl?: string;
  /** Eligibility lookup base (default: the origin of `baseUrl` + /api/v1). */
  readonly eligibilityBaseUrl?: string;
}

const basesOf = new WeakMap<EnvironmentAddresses, { key: string; bases: [BaseKind, string][] }>();

/**
 * An environment's base addresses by kind, without trailing slashes, in the order a URL is matched against them:
 * v3, eligibility, then the version 2 host (its root holds the others). Those not given follow the rule of
 * {@link BASE_PREFIX} from the origin of `baseUrl`; a `baseUrl` that is not a URL gives only itself.
 */
export function environmentBases(e: EnvironmentAddresses): [BaseKind, string][] {
  // Asked for each request a flow or a backfill row sends: kept per object while its addresses stay the same.
  const key = `${e.baseUrl}\n${e.v2BaseUrl ?? ''}\n${e.eligibilityBaseUrl ?? ''}`;
  const known = basesOf.get(e);
  if (known?.key === key) return known.bases;
  let origin: Record<BaseKind, string> | undefined;
  try {
    origin = basesOnOrigin(new URL(e.baseUrl).origin);
  } catch {
    // a base address that is not a URL matches nothing but itself
  }
  const list: [BaseKind, string | undefined][] = [
    ['v3', e.baseUrl],
    ['eligibility', e.eligibilityBaseUrl ?? origin?.eligibility],
    ['v2', e.v2BaseUrl ?? origin?.v2],
  ];
  const bases = list.flatMap(([k, b]) => (b ? [[k, b.replace(/\/+$/, '')] as [BaseKind, string]] : []));
  basesOf.set(e, { key, bases });
  return bases;
}
