import { timingSafeEqual, verify } from 'node:crypto';
import { SIGNATURE_BYTES } from '../jwt/algorithms';
import type { PartnerKey } from '../jwt/partnerKey';

/**
 * Partner token verification of the Local sandbox (spec: Authentication).
 *
 * A token is accepted when all of these hold, otherwise the caller answers 401 with exactly
 * `{"error":"unauthorized","statusCode":401}`:
 * - header `alg` is the one matching the curve of the partner's registered key (ES256/P-256, ES384/P-384,
 *   ES512/P-521) and `typ` is exactly `JWT` (the spec's value; `jwt` or `application/jwt` are refused);
 * - the signature is the raw (IEEE P1363) r||s pair that JWS requires, not DER;
 * - `iss` names a registered partner and the signature verifies with that partner's public key;
 * - `iat`, `exp`, `iss`, `aud` are all present; `iat` is at most 2 hours old and not in the future;
 *   `exp` is in the future and at most 2 hours ahead; `aud` equals the base address that was called.
 * A clock skew of {@link CLOCK_SKEW_SECONDS} is tolerated on each time check.
 * Verification uses node:crypto with each partner key imported once (a fresh token per request is the norm).
 */

/** Maximum JWT age (iat) and maximum lifetime ahead (exp), in seconds (spec: Limits). */
export const MAX_TOKEN_WINDOW_SECONDS = 2 * 60 * 60;
/** Tolerated clock difference between partner and sandbox, in seconds. */
export const CLOCK_SKEW_SECONDS = 60;

/** The 401 body of the spec, exactly. */
export const UNAUTHORIZED_BODY = Object.freeze({ error: 'unauthorized', statusCode: 401 });

const HASH = { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' } as const;

/** Why a token was refused (for the request log only; never sent to the client, never containing the token). */
export class TokenRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TokenRejected';
  }
}

/**
 * Verifies the Authorization header value against the partner named by the token's `iss`.
 * `lookup(iss)` returns that partner's key, or undefined. `audience` is the base address that was called.
 * `nowSeconds` is the current Unix time in seconds. Resolves to the Partner ID; rejects with
 * {@link TokenRejected} on any failure.
 */
export async function verifyPartnerToken(
  authorization: string | undefined,
  audience: string,
  lookup: (iss: string) => PartnerKey | undefined,
  nowSeconds: number,
  cache?: VerifiedTokenCache,
): Promise<string> {
  const m = /^Bearer\s+([A-Za-z0-9_\-.]+)\s*$/.exec(authorization ?? '');
  if (!m || !m[1]) throw new TokenRejected(authorization ? 'malformed Authorization header' : 'missing Authorization header');
  const token = m[1];
  const cached = cache?.check(token, audience, lookup, nowSeconds);
  if (cached) return cached;
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenRejected('malformed token: expected header.payload.signature');
  const header = decodePart(parts[0] as string, 'header');
  const payload = decodePart(parts[1] as string, 'payload');
  if (header.typ !== 'JWT') throw new TokenRejected(`typ is ${JSON.stringify(header.typ)}, must be "JWT"`);
  const iss = payload.iss;
  if (typeof iss !== 'string') throw new TokenRejected('iss missing');
  const partner = lookup(iss);
  if (!partner) throw new TokenRejected('unknown iss');
  if (header.alg !== partner.alg) throw new TokenRejected(`alg ${JSON.stringify(header.alg)} does not match the partner key's curve (${partner.alg})`);
  const signature = Buffer.from(parts[2] as string, 'base64url');
  if (signature.length !== SIGNATURE_BYTES[partner.alg]) throw new TokenRejected(`signature is ${signature.length} bytes, not the ${SIGNATURE_BYTES[partner.alg]}-byte raw r||s of ${partner.alg} (DER-encoded?)`);
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  if (!verify(HASH[partner.alg], signed, { key: partner.key, dsaEncoding: 'ieee-p1363' }, signature)) throw new TokenRejected('signature does not verify with the registered key');
  for (const claim of ['iat', 'exp', 'aud'] as const) if (payload[claim] === undefined) throw new TokenRejected(`${claim} missing`);
  const { iat, exp } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number') throw new TokenRejected('iat and exp must be numbers of seconds');
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS) throw new TokenRejected(iat > 1e11 ? 'iat is in milliseconds, must be seconds' : 'iat in the future');
  if (nowSeconds - iat > MAX_TOKEN_WINDOW_SECONDS + CLOCK_SKEW_SECONDS) throw new TokenRejected('iat more than 2 hours old');
  if (exp <= nowSeconds - CLOCK_SKEW_SECONDS) throw new TokenRejected('exp has passed');
  if (exp > nowSeconds + MAX_TOKEN_WINDOW_SECONDS + CLOCK_SKEW_SECONDS) throw new TokenRejected(exp > 1e11 ? 'exp is in milliseconds, must be seconds' : 'exp more than 2 hours ahead');
  if (payload.aud !== audience) throw new TokenRejected('aud is not the called base address'); // an array aud is refused
  cache?.remember(token, { iss, key: partner, aud: audience, iat, exp });
  return iss;
}

/** The JSON object of a base64url token part; rejects anything else. */
function decodePart(part: string, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new TokenRejected(`malformed token: the ${what} is not a base64url JSON object`);
}

interface VerifiedToken {
  readonly iss: string;
  /** The key the signature was verified with: a replaced key invalidates the entry. */
  readonly key: PartnerKey;
  readonly aud: string;
  readonly iat: number;
  readonly exp: number;
}

/**
 * Remembers tokens whose signature has been verified, so that a token reused for several requests is not
 * verified again (ECDSA verification dominates the cost of a small request). On every use the time claims and
 * the audience are checked again against the current clock, and the entry counts only while the partner's
 * registered key is still the one it was verified with. Holds at most `capacity` tokens (oldest dropped first).
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedToken>();

  constructor(private readonly capacity = 10_000) {}

  /** The Partner ID when `token` was verified before and is still valid now for `audience`; else undefined. */
  check(token: string, audience: string, lookup: (iss: string) => PartnerKey | undefined, nowSeconds: number): string | undefined {
    const e = this.entries.get(token);
    if (!e) return undefined;
    const valid =
      e.aud === audience &&
      lookup(e.iss) === e.key &&
      e.exp > nowSeconds - CLOCK_SKEW_SECONDS &&
      nowSeconds - e.iat - CLOCK_SKEW_SECONDS <= MAX_TOKEN_WINDOW_SECONDS &&
      e.iat <= nowSeconds + CLOCK_SKEW_SECONDS;
    if (!valid) {
      if (e.aud === audience) this.entries.delete(token);
      return undefined;
    }
    return e.iss;
  }

  remember(token: string, entry: VerifiedToken): void {
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, entry);
  }
}

/**
 * Checks the dedicated eligibility token (spec: Vehicle eligibility lookup): `Authorization: Bearer <token>`
 * equal, in constant time, to `expected`. Returns false when no token is configured.
 */
export function checkEligibilityToken(authorization: string | undefined, expected: string | undefined): boolean {
  if (!expected) return false;
  const m = /^Bearer\s+(\S+)\s*$/.exec(authorization ?? '');
  if (!m || !m[1]) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
