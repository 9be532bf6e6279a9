// Tokens of the sandbox benchmark: ES256 JWTs minted with node:crypto, a new one for every request (no cache), as
// the toolkit's client does (spec: Authentication). The signing key is imported once.
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const HEADER = enc({ alg: 'ES256', typ: 'JWT' });

/** A fresh ES256 JWT: iss = partner, aud = the v3 base address, iat now, exp now + 300 s. */
export function mint(key: KeyObject, iss: string, aud: string): string {
  const now = Math.floor(Date.now() / 1000);
  const input = `${HEADER}.${enc({ iss, aud, iat: now, exp: now + 300 })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** The private key of a PKCS#8 PEM, imported once. */
export const privateKeyOf = (pem: string): KeyObject => createPrivateKey(pem);
