import type { KeyObject } from 'node:crypto';
import { CLOCK_SKEW_SECONDS, Curve } from './algorithms';

/**
 * The checklist of a partner JWT (spec: Authentication): its rules in display order, their statements, and the
 * shapes of a check's result and of an inspection. The checks themselves are in inspect.ts.
 */

/** Outcome of one rule: `skip` when it cannot be checked (nothing to compare with, or an earlier rule failed). */
export type CheckStatus = 'pass' | 'fail' | 'skip';

/** The rules of spec section Authentication, one check each, in display order. */
export const CHECK_IDS = [
  'format',
  'typ',
  'alg',
  'algMatchesKey',
  'claimsPresent',
  'seconds',
  'iatNotFuture',
  'iatRecent',
  'expFuture',
  'expWithinLimit',
  'iss',
  'aud',
  'signature',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** Short statement of each rule, as listed in the checklist. */
export const CHECK_RULES: Readonly<Record<CheckId, string>> = {
  format: 'Three dot-separated base64url parts',
  typ: 'typ is JWT',
  alg: 'alg is ES256, ES384 or ES512',
  algMatchesKey: "alg matches the key's curve",
  claimsPresent: 'iat, iss, aud and exp present',
  seconds: 'Times in seconds, not milliseconds',
  iatNotFuture: `iat not in the future (${CLOCK_SKEW_SECONDS} s skew allowed)`,
  iatRecent: 'iat within the last 2 hours',
  expFuture: 'exp after now',
  expWithinLimit: 'exp at most 2 hours ahead',
  iss: "iss is the environment's Partner ID",
  aud: "aud is the environment's base address",
  signature: "Signature verifies with the environment's public key",
};

/** One line of the checklist. `detail` is a one-line explanation; it may quote claim values (render it as text). */
export interface CheckResult {
  readonly id: CheckId;
  readonly rule: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

/** What to check the token against. Anything left out is reported as `skip` with the matching `why*` text. */
export interface InspectOptions {
  /** Current Unix time in seconds (default: the clock). */
  readonly now?: number;
  /** The environment's Partner ID (expected `iss`). */
  readonly iss?: string;
  /** The environment's base address (expected `aud`), e.g. https://host/api/v3. */
  readonly aud?: string;
  /** The environment's public key: SPKI PEM (a private key PEM is accepted and reduced to its public half) or a KeyObject. */
  readonly publicKey?: string | KeyObject;
  /** Why `iss` is not known (shown on the skipped check), e.g. "pass --iss to check". */
  readonly whyNoIss?: string;
  readonly whyNoAud?: string;
  readonly whyNoKey?: string;
}

/** The decoded token and its checklist. */
export interface JwtInspection {
  /** Decoded JOSE header, when the first part is base64url JSON. */
  readonly header?: Record<string, unknown>;
  /** Decoded claims, when the second part is base64url JSON. */
  readonly claims?: Record<string, unknown>;
  readonly checks: readonly CheckResult[];
  /** True when no check failed (skipped checks do not count). */
  readonly ok: boolean;
  /** The `now` the checks used (Unix seconds). */
  readonly now: number;
  /** Curve and fingerprint of the public key checked against, if any. */
  readonly key?: { readonly curve: Curve; readonly fingerprint: string };
}
