/**
 * The ECDSA curves and JWS algorithms the partner interface accepts (spec: Authentication, item 4).
 *
 * | alg   | curve |
 * |-------|-------|
 * | ES256 | P-256 |
 * | ES384 | P-384 |
 * | ES512 | P-521 |
 */
export const CURVES = ['P-256', 'P-384', 'P-521'] as const;

/** One of the three NIST curves named by the spec. */
export type Curve = (typeof CURVES)[number];

/** One of ES256, ES384, ES512. */
export type JwtAlgorithm = 'ES256' | 'ES384' | 'ES512';

/** The curve the spec's setup steps use, and this toolkit's default. */
export const DEFAULT_CURVE: Curve = 'P-256';

/** The algorithm that follows from each curve. */
export const ALG_FOR_CURVE: Readonly<Record<Curve, JwtAlgorithm>> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

/** The curve each algorithm needs. */
export const CURVE_FOR_ALG: Readonly<Record<JwtAlgorithm, Curve>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/** Length in bytes of a raw (IEEE P1363, r || s) signature for each algorithm. */
export const SIGNATURE_BYTES: Readonly<Record<JwtAlgorithm, number>> = { ES256: 64, ES384: 96, ES512: 132 };

/** OpenSSL names of the curves, as Node's `asymmetricKeyDetails.namedCurve` reports them. */
export const OPENSSL_CURVE_NAMES: Readonly<Record<string, Curve>> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** Type guard: `true` for `P-256`, `P-384` or `P-521`. */
export function isCurve(value: unknown): value is Curve {
  return typeof value === 'string' && (CURVES as readonly string[]).includes(value);
}

/** Type guard: `true` for `ES256`, `ES384` or `ES512`. */
export function isJwtAlgorithm(value: unknown): value is JwtAlgorithm {
  return value === 'ES256' || value === 'ES384' || value === 'ES512';
}

/** Spec limits on the token's times, in seconds (spec: Authentication item 5; Limits). */
export const MAX_TOKEN_AGE_SECONDS = 2 * 60 * 60;
/** exp may lie at most this many seconds after now. */
export const MAX_TOKEN_LIFETIME_SECONDS = 2 * 60 * 60;
/** Default lifetime of a minted token (setting `tpp.token.lifetimeSeconds`), in seconds. */
export const DEFAULT_LIFETIME_SECONDS = 300;
/** Clock skew tolerated for an iat in the future, in seconds. */
export const CLOCK_SKEW_SECONDS = 60;
