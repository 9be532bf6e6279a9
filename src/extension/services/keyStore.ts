import * as vscode from 'vscode';
import { ENVIRONMENT_IDS, EnvironmentId } from '../../core/environments';
import type { Curve, JwtAlgorithm } from '../../core/jwt/algorithms';
import { importPrivateKeyPem, type KeyMaterial } from '../../core/jwt/keys';

/** The stored key record cannot be read (the message never quotes it). */
export class StoredKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoredKeyError';
  }
}

/** SecretStorage key under which an environment's private key record (JSON, see {@link KeyRecord}) is kept. */
export function privateKeySecretName(env: EnvironmentId): string {
  return `tpp.privateKey.${env}`;
}

/** SecretStorage key of the provider-issued token of the eligibility lookup (spec: Vehicle eligibility lookup). */
export function eligibilityTokenSecretName(env: EnvironmentId): string {
  return `tpp.eligibilityToken.${env}`;
}

/**
 * What is stored per environment (JSON in SecretStorage): the newest key, and during a rotation the
 * `previous` key, kept — and used for signing — until the user confirms that the administrator registered
 * the new public key.
 */
export interface KeyRecord extends KeyMaterial {
  readonly previous?: KeyMaterial;
}

/** The non-secret facts about a key, for the tree and messages. */
export interface KeyInfo {
  readonly curve: Curve;
  readonly alg: JwtAlgorithm;
  /** SHA-256 of the SPKI DER, hex. */
  readonly fingerprint: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

/** Key state of one environment: the signing key and, during a rotation, the new key awaiting registration. */
export interface KeySummary {
  /** The key requests are signed with (during a rotation: the previous, registered key). */
  readonly signing: KeyInfo;
  /** The new key of an unconfirmed rotation. */
  readonly pending?: KeyInfo;
}

/**
 * Shape check of a stored key record, kept here (not in src/core/jwt) so that reading the key state for the
 * tree and status bar at activation does not load the JWT library; the key itself is checked by jose when used.
 */
function isStoredKey(value: unknown): value is KeyMaterial {
  const v = value as Partial<KeyMaterial> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.pkcs8Pem === 'string' && ['P-256', 'P-384', 'P-521'].includes(v.curve as string) &&
    typeof v.alg === 'string' && typeof v.createdAt === 'string' && typeof v.fingerprint === 'string'
  );
}

const info = (k: KeyMaterial): KeyInfo => ({ curve: k.curve, alg: k.alg, fingerprint: k.fingerprint, createdAt: k.createdAt });

/** The key to sign with: during a rotation the previous (registered) key, otherwise the only one. */
export function signingKeyOf(record: KeyRecord): KeyMaterial {
  return record.previous ?? record;
}

/**
 * Private keys (and eligibility tokens) per environment, kept only in VS Code's SecretStorage — never in
 * settings, files or logs. Each secret is read once and the value kept in memory until it changes: writes here
 * drop it at once, and `secrets.onDidChange` drops it when another window adds, rotates or removes a key (the
 * change is then seen here too, through {@link onDidChange}).
 */
export class KeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<EnvironmentId>();
  private readonly subscription: vscode.Disposable;
  /** Secret name → the pending or finished read of its value. */
  private readonly cache = new Map<string, Thenable<string | undefined>>();
  /** SecretStorage reads made so far (tests check that drawing the view does not repeat them). */
  reads = 0;
  /** Fires with the environment whose key or eligibility token changed (here or in another window). */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      this.cache.delete(e.key);
      const env = ENVIRONMENT_IDS.find((id) => privateKeySecretName(id) === e.key || eligibilityTokenSecretName(id) === e.key);
      if (env) this.emitter.fire(env);
    });
  }

  /** The secret's value, read from SecretStorage once until it changes. */
  private read(name: string): Thenable<string | undefined> {
    let value = this.cache.get(name);
    if (!value) {
      this.reads += 1;
      value = this.secrets.get(name);
      this.cache.set(name, value);
      // A failed read is not kept.
      value.then(undefined, () => this.cache.get(name) === value && this.cache.delete(name));
    }
    return value;
  }

  /** Writes (a value) or deletes (`undefined`) a secret, dropping its cached value first. */
  private async write(name: string, value: string | undefined): Promise<void> {
    this.cache.delete(name);
    try {
      if (value === undefined) await this.secrets.delete(name);
      else await this.secrets.store(name, value);
    } finally {
      this.cache.delete(name);
    }
  }

  /** True when the environment has a private key. */
  async has(env: EnvironmentId): Promise<boolean> {
    return (await this.read(privateKeySecretName(env))) !== undefined;
  }

  /**
   * The environment's key record, or `undefined` when there is none. A record stored as bare PEM (older
   * form) is read too. Throws {@link StoredKeyError} when the stored value is unreadable (the message never quotes it).
   */
  async get(env: EnvironmentId): Promise<KeyRecord | undefined> {
    const raw = await this.read(privateKeySecretName(env));
    if (raw === undefined) return undefined;
    if (raw.trimStart().startsWith('-----BEGIN')) return importPrivateKeyPem(raw);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    const rec = parsed as KeyRecord | undefined;
    if (!isStoredKey(rec) || (rec.previous !== undefined && !isStoredKey(rec.previous)))
      throw new StoredKeyError(`The stored key of ${env} is unreadable. Delete it (Tire Protection: Delete Key) and generate or import a new one.`);
    return rec;
  }

  /** Non-secret summary of the environment's key state; `undefined` when it has no (readable) key. */
  async summary(env: EnvironmentId): Promise<KeySummary | undefined> {
    let rec: KeyRecord | undefined;
    try {
      rec = await this.get(env);
    } catch {
      return undefined;
    }
    if (!rec) return undefined;
    return rec.previous ? { signing: info(rec.previous), pending: info(rec) } : { signing: info(rec) };
  }

  /** Stores (replaces) the environment's key record. */
  async set(env: EnvironmentId, record: KeyRecord): Promise<void> {
    const { pkcs8Pem, curve, alg, createdAt, fingerprint, previous } = record;
    await this.write(privateKeySecretName(env), JSON.stringify({ pkcs8Pem, curve, alg, createdAt, fingerprint, ...(previous ? { previous } : {}) }));
  }

  /** Deletes the environment's private key(s), including a kept previous key. */
  async delete(env: EnvironmentId): Promise<void> {
    await this.write(privateKeySecretName(env), undefined);
  }

  /** The provider-issued eligibility lookup token of the environment, if set. */
  eligibilityToken(env: EnvironmentId): Thenable<string | undefined> {
    return this.read(eligibilityTokenSecretName(env));
  }

  async hasEligibilityToken(env: EnvironmentId): Promise<boolean> {
    return (await this.eligibilityToken(env)) !== undefined;
  }

  /** Stores the eligibility token; an empty string deletes it. */
  async setEligibilityToken(env: EnvironmentId, token: string): Promise<void> {
    await this.write(eligibilityTokenSecretName(env), token === '' ? undefined : token);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
