import { createPublicKey, type KeyObject } from 'node:crypto';
import { ALG_FOR_CURVE, OPENSSL_CURVE_NAMES, type JwtAlgorithm } from './algorithms';

/**
 * A partner's registered public key, as the Local sandbox verifies tokens with it and `tpp proxy` checks signatures
 * (spec: Authentication, items 2 and 4): imported once, with the algorithm its curve calls for.
 */
export interface PartnerKey {
  readonly alg: JwtAlgorithm;
  readonly key: KeyObject;
}

/**
 * Imports an SPKI PEM public key and derives its algorithm from its curve.
 * @throws Error with a clear message when the PEM is not an EC public key on P-256, P-384 or P-521
 */
export async function importPartnerKey(spkiPem: string): Promise<PartnerKey> {
  let curve: string | undefined;
  let ko: KeyObject;
  try {
    ko = createPublicKey({ key: spkiPem, format: 'pem' });
    if (ko.asymmetricKeyType !== 'ec') throw new Error(`a ${ko.asymmetricKeyType ?? 'non-EC'} key`);
    curve = ko.asymmetricKeyDetails?.namedCurve;
  } catch (err) {
    throw new Error(`Not an ECDSA public key in SPKI PEM form (${(err as Error).message})`);
  }
  const spec = curve ? OPENSSL_CURVE_NAMES[curve] : undefined;
  if (!spec) throw new Error(`Unsupported curve ${curve ?? '(unknown)'}: use P-256, P-384 or P-521`);
  return { alg: ALG_FOR_CURVE[spec], key: ko };
}
