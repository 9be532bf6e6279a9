import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import { DEFAULT_LIFETIME_SECONDS, JwtAlgorithm, MAX_TOKEN_LIFETIME_SECONDS } from './algorithms';
import { KeyError, KeyMaterial } from './keys';

/** Who the token is for (spec: Authentication, item 5). Local gets both from the Local sandbox. */
export interface MintClaims {
  /** The Partner ID (the `iss` claim). */
  readonly iss: string;
  /** The environment's base address, for version 3 ending in /api/v3 (the `aud` claim). */
  readonly aud: string;
  /** Lifetime in seconds: exp = iat + lifetime. Default 300; capped at 7200 (2 hours). */
  readonly lifetimeSeconds?: number;
  /** Current Unix time in seconds (default: the clock). Tests pass a fixed value. */
  readonly now?: number;
}

/** Thrown for an unusable iss, aud or lifetime; the message says which and why. */
export class MintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MintError';
  }
}

/** Current Unix time in whole seconds (not milliseconds). */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * Normalises a token lifetime in seconds: default 300 when absent, an integer capped at 7200 (spec:
 * exp at most 2 hours ahead). Throws {@link MintError} for zero, negative or non-numeric values.
 */
export function effectiveLifetime(lifetimeSeconds: number | undefined): number {
  if (lifetimeSeconds === undefined) return DEFAULT_LIFETIME_SECONDS;
  if (!Number.isFinite(lifetimeSeconds) || lifetimeSeconds < 1) throw new MintError(`Token lifetime must be a positive number of seconds (got ${String(lifetimeSeconds)}).`);
  return Math.min(Math.floor(lifetimeSeconds), MAX_TOKEN_LIFETIME_SECONDS);
}

/**
 * Signs partner tokens. Imports each private key once (cached by its PEM, up to 8 keys) and then mints a
 * fresh JWT per call: header exactly `{alg, typ: 'JWT'}`, claims `iat` = now, `iss`, `aud`,
 * `exp` = now + lifetime, all times in seconds (spec: Authentication, items 4, 5 and 7).
 */
export class TokenMinter {
  private readonly cache = new Map<string, Promise<CryptoKey>>();

  /**
   * Returns a compact JWS (`header.payload.signature`). Throws {@link MintError} for an empty iss, an aud that
   * is not an absolute http(s) address or a bad lifetime, and {@link KeyError} when the key cannot be imported.
   */
  async mint(key: Pick<KeyMaterial, 'pkcs8Pem' | 'alg'>, claims: MintClaims): Promise<string> {
    const iss = claims.iss.trim();
    if (!iss) throw new MintError('No Partner ID (iss): enter the Partner ID the administrator returned.');
    const aud = claims.aud.trim();
    if (!isHttpUrl(aud)) throw new MintError('The base address (aud) must be an absolute http(s) address ending in /api/v3.');
    const lifetime = effectiveLifetime(claims.lifetimeSeconds);
    const now = claims.now ?? nowSeconds();
    const cryptoKey = await this.importKey(key.pkcs8Pem, key.alg);
    return new SignJWT({ iss, aud, iat: now, exp: now + lifetime }).setProtectedHeader({ alg: key.alg, typ: 'JWT' }).sign(cryptoKey);
  }

  /** How many imported keys are cached (for tests and diagnostics). */
  get cachedKeyCount(): number {
    return this.cache.size;
  }

  /** Drops cached imported keys (all, or the one for `pkcs8Pem`), e.g. after a key was deleted or replaced. */
  forget(pkcs8Pem?: string): void {
    if (pkcs8Pem === undefined) this.cache.clear();
    else for (const k of [...this.cache.keys()]) if (k.endsWith(`\n${pkcs8Pem}`)) this.cache.delete(k);
  }

  private importKey(pem: string, alg: JwtAlgorithm): Promise<CryptoKey> {
    const cacheKey = `${alg}\n${pem}`;
    let hit = this.cache.get(cacheKey);
    if (!hit) {
      hit = importPKCS8(pem, alg).catch(() => {
        this.cache.delete(cacheKey);
        throw new KeyError(`The stored private key could not be imported for ${alg} (wrong curve or damaged key).`);
      });
      if (this.cache.size >= 8) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(cacheKey, hit);
    }
    return hit;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
