import { createHash, createPrivateKey, createPublicKey, KeyObject } from 'node:crypto';
import { exportPKCS8, exportSPKI, generateKeyPair as joseGenerateKeyPair } from 'jose';
import { ALG_FOR_CURVE, Curve, DEFAULT_CURVE, isCurve, JwtAlgorithm, OPENSSL_CURVE_NAMES } from './algorithms';

/**
 * An ECDSA private key as the toolkit keeps it (spec: Authentication, item 2). This record is what the
 * extension stores in SecretStorage; it is never written to settings, logs or files.
 */
export interface KeyMaterial {
  /** The private key, PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). Secret. */
  readonly pkcs8Pem: string;
  readonly curve: Curve;
  /** The JWS algorithm that follows from the curve. */
  readonly alg: JwtAlgorithm;
  /** When the key was generated or imported, ISO 8601 (UTC). */
  readonly createdAt: string;
  /** SHA-256 of the public key's SPKI DER, lowercase hex (64 characters); see {@link fingerprintOf}. */
  readonly fingerprint: string;
}

/** A key problem the user can act on (wrong curve, not a private key, unreadable PEM…). The message never quotes the key. */
export class KeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyError';
  }
}

/**
 * Generates a new key pair on `curve` (default P-256) with jose and returns the private key record.
 * `now` (a Date) only sets `createdAt`. Throws {@link KeyError} for an unknown curve.
 */
export async function generateKeyMaterial(curve: Curve = DEFAULT_CURVE, now: Date = new Date()): Promise<KeyMaterial> {
  if (!isCurve(curve)) throw new KeyError(`Unsupported curve '${String(curve)}': use P-256, P-384 or P-521.`);
  const alg = ALG_FOR_CURVE[curve];
  const { privateKey, publicKey } = await joseGenerateKeyPair(alg, { extractable: true, crv: curve });
  const pkcs8Pem = await exportPKCS8(privateKey);
  const spkiPem = await exportSPKI(publicKey);
  return { pkcs8Pem, curve, alg, createdAt: now.toISOString(), fingerprint: fingerprintOf(spkiPem) };
}

/**
 * Reads a private key from PEM text: PKCS#8 (`BEGIN PRIVATE KEY`) or SEC1 (`BEGIN EC PRIVATE KEY`, converted
 * to PKCS#8). Detects the curve and checks it is P-256, P-384 or P-521. `createdAt` is set to `now`.
 *
 * Throws {@link KeyError} with a specific reason (no PEM block, a public key, encrypted, RSA, another curve);
 * the message never contains the input.
 */
export function importPrivateKeyPem(text: string, now: Date = new Date()): KeyMaterial {
  const key = privateKeyObject(text);
  const curve = curveOfKey(key);
  const pkcs8Pem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { pkcs8Pem, curve, alg: ALG_FOR_CURVE[curve], createdAt: now.toISOString(), fingerprint: fingerprintOf(createPublicKey(key)) };
}

function privateKeyObject(text: string): KeyObject {
  if (typeof text !== 'string' || text.trim() === '') throw new KeyError('No key: the text is empty.');
  const block = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(text);
  if (!block) throw new KeyError('No PEM block found: expected a PKCS#8 private key starting with -----BEGIN PRIVATE KEY-----.');
  const kind = block[1]!;
  if (kind === 'PUBLIC KEY' || kind === 'CERTIFICATE') throw new KeyError(`This is a ${kind.toLowerCase()}, not a private key. Import the private key (PKCS#8 PEM); the public key is what you send to the administrator.`);
  if (kind === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,ENCRYPTED/.test(text))
    throw new KeyError('The private key is encrypted. Decrypt it first, e.g. `openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pkcs8.pem`.');
  if (kind === 'RSA PRIVATE KEY') throw new KeyError('This is an RSA key. The partner interface needs an ECDSA key on P-256, P-384 or P-521.');
  if (kind !== 'PRIVATE KEY' && kind !== 'EC PRIVATE KEY') throw new KeyError(`Unexpected PEM block '${kind}': expected -----BEGIN PRIVATE KEY----- (PKCS#8).`);
  try {
    return createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new KeyError('The PEM block could not be read as a private key (damaged or truncated base64?).');
  }
}

/** The spec curve of an EC key object; throws {@link KeyError} for RSA, Ed25519 or another curve. */
export function curveOfKey(key: KeyObject): Curve {
  if (key.asymmetricKeyType !== 'ec') throw new KeyError(`This is an ${String(key.asymmetricKeyType).toUpperCase()} key. The partner interface needs an ECDSA key on P-256, P-384 or P-521.`);
  const name = key.asymmetricKeyDetails?.namedCurve ?? '';
  const curve = OPENSSL_CURVE_NAMES[name];
  if (!curve) throw new KeyError(`The key is on curve ${name || 'unknown'}; the partner interface accepts only P-256 (ES256), P-384 (ES384) and P-521 (ES512).`);
  return curve;
}

/**
 * Reads a public key (SPKI PEM) — or derives it from a private key PEM — for signature checks.
 * Throws {@link KeyError} when the text holds neither or the curve is not allowed.
 */
export function publicKeyFromPem(text: string): { key: KeyObject; curve: Curve } {
  if (/-----BEGIN (EC )?PRIVATE KEY-----/.test(text)) {
    const key = createPublicKey(privateKeyObject(text));
    return { key, curve: curveOfKey(key) };
  }
  if (!/-----BEGIN PUBLIC KEY-----/.test(text)) throw new KeyError('No public key found: expected an SPKI PEM starting with -----BEGIN PUBLIC KEY-----.');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: text, format: 'pem' });
  } catch {
    throw new KeyError('The PEM block could not be read as a public key (damaged or truncated base64?).');
  }
  return { key, curve: curveOfKey(key) };
}

/** The public key of a private key record, as SPKI PEM (`-----BEGIN PUBLIC KEY-----`), the form the administrator asks for. */
export function publicKeyPem(material: Pick<KeyMaterial, 'pkcs8Pem'>): string {
  return createPublicKey(createPrivateKey(material.pkcs8Pem)).export({ type: 'spki', format: 'pem' }).toString();
}

/**
 * SHA-256 of the public key's SPKI DER encoding, lowercase hex. Reproducible with
 * `openssl pkey -pubin -in key.pub.pem -outform DER | sha256sum`. Accepts an SPKI PEM or a public KeyObject.
 */
export function fingerprintOf(publicKey: string | KeyObject): string {
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  return createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('hex');
}

/** Short display form of a fingerprint: `SHA256 1a2b3c4d…9f0e` (first 8 and last 4 hex digits). */
export function shortFingerprint(fingerprint: string): string {
  return fingerprint.length > 12 ? `SHA256 ${fingerprint.slice(0, 8)}…${fingerprint.slice(-4)}` : `SHA256 ${fingerprint}`;
}

