// Independent JWT implementation for the tests: Node's own crypto (sign/verify with IEEE P1363 signatures),
// no jose, so tokens made here check the toolkit's minting and checklist from the outside.
import { createHash, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';

export type TestCurve = 'P-256' | 'P-384' | 'P-521';
export const HASH: Record<string, string> = { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' };
export const ALG: Record<TestCurve, string> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

export interface TestKey {
  curve: TestCurve;
  alg: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  pkcs8Pem: string;
  spkiPem: string;
}

export function nodeKey(curve: TestCurve): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
  return {
    curve,
    alg: ALG[curve],
    privateKey,
    publicKey,
    pkcs8Pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    spkiPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Signs header and claims with Node's crypto.sign (dsaEncoding ieee-p1363 unless `der`). `alg` picks the hash. */
export function nodeToken(key: TestKey, header: Record<string, unknown>, claims: Record<string, unknown>, opts: { der?: boolean; hashAlg?: string } = {}): string {
  const input = `${b64(header)}.${b64(claims)}`;
  const hash = HASH[opts.hashAlg ?? (header.alg as string)] ?? HASH[key.alg]!;
  const sig = sign(hash, Buffer.from(input), { key: key.privateKey, dsaEncoding: opts.der ? 'der' : 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}

/** Verifies a compact JWS with Node's crypto.verify (IEEE P1363). */
export function nodeVerify(token: string, publicKey: KeyObject): boolean {
  const [h, p, s] = token.split('.');
  const header = JSON.parse(Buffer.from(h!, 'base64url').toString()) as { alg: string };
  return verify(HASH[header.alg]!, Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s!, 'base64url'));
}

export function decodePart(token: string, i: number): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[i]!, 'base64url').toString()) as Record<string, unknown>;
}

export function spkiSha256Hex(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex');
}
