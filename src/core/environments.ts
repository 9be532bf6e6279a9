/**
 * The three environments an integrator works against (spec: Authentication, item 3 — Partner ID and
 * program identifiers are distinct per environment; Versioning — sandbox and production).
 *
 * - `local`: the embedded Local sandbox, the default; works with no setup (its Partner ID is generated).
 * - `sandbox`: the administrator's test address ({sandbox_url}).
 * - `production`: the administrator's production address ({base_url}).
 */
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
  readonly description: string;
}

export const DEFAULT_ENVIRONMENT: EnvironmentId = 'local';

export const ENVIRONMENTS: Readonly<Record<EnvironmentId, EnvironmentInfo>> = {
  local: {
    id: 'local',
    label: 'Local',
    remote: false,
    guarded: false,
    description: 'Embedded sandbox on this machine; works offline with no setup.',
  },
  sandbox: {
    id: 'sandbox',
    label: 'Sandbox',
    remote: true,
    guarded: false,
    description: "The administrator's test environment.",
  },
  production: {
    id: 'production',
    label: 'Production',
    remote: true,
    guarded: true,
    description: "The administrator's production environment: real data.",
  },
};

/** Type guard: `true` when `value` names one of the three environments. */
export function isEnvironmentId(value: unknown): value is EnvironmentId {
  return typeof value === 'string' && (ENVIRONMENT_IDS as readonly string[]).includes(value);
}

/** The environments in display order (Local first). */
export function listEnvironments(): EnvironmentInfo[] {
  return ENVIRONMENT_IDS.map((id) => ENVIRONMENTS[id]);
}
