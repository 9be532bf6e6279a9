import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { DEFAULT_LIFETIME_SECONDS, MAX_TOKEN_LIFETIME_SECONDS } from '../../core/jwt/algorithms';
import { inspectJwt, JwtInspection } from '../../core/jwt/inspect';
import { publicKeyPem } from '../../core/jwt/keys';
import { effectiveLifetime, TokenMinter } from '../../core/jwt/mint';
import { EnvironmentSettings } from './environmentSettings';
import { KeyRecord, KeyStore, signingKeyOf } from './keyStore';

/** The `iss` and `aud` of an environment's tokens (spec: Authentication, item 5). */
export interface TokenTarget {
  /** Partner ID. */
  readonly iss: string;
  /** v3 base address, ending in /api/v3, without a trailing slash. */
  readonly aud: string;
}

/**
 * Hook for the Local sandbox: returns its generated Partner ID and its base address while it runs, or
 * `undefined` when it is not running. Installed by the sandbox integration with {@link JwtService.setLocalTarget}.
 */
export type LocalTargetProvider = () => TokenTarget | undefined | Promise<TokenTarget | undefined>;

/** Marks a NotReadyError whichever bundle's copy made it (a registered symbol is one per process). */
const NOT_READY = Symbol.for('tpp.notReady');

/**
 * Thrown when an environment is not ready to sign (no key, no Partner ID, no base address, Local sandbox not running).
 * dist/extension.js (the services that throw it) and dist/commands.js (runRequest, which tells it from a failed
 * request) each hold a copy of this class (scripts/build.mjs): `instanceof` recognises either copy by its mark.
 */
export class NotReadyError extends Error {
  readonly [NOT_READY] = true;

  constructor(message: string) {
    super(message);
    this.name = 'NotReadyError';
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [NOT_READY]?: unknown })[NOT_READY] === true;
  }
}

/** Message shown while the Local sandbox has not provided its address and Partner ID. */
export const LOCAL_NOT_AVAILABLE = 'Local sandbox not available yet: the Local environment gets its Partner ID and base address from the embedded sandbox once it runs.';

/** The version 3 audience of a base address setting: trimmed, without trailing slashes. */
export function audienceOf(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/**
 * Signs and inspects tokens for an environment: reads the key from {@link KeyStore}, the Partner ID and base
 * address from the settings (Local: from the sandbox hook), the lifetime from `tpp.token.lifetimeSeconds`.
 * Keys are imported once per session (cache dropped when a key changes in any window).
 */
export class JwtService implements vscode.Disposable {
  /** Created on first use, so activation does not load the JWT library (dist/core.js). */
  private minterInstance: TokenMinter | undefined;
  /** The last token minted per environment, in memory only: Verify Connection explains a 401 with it. */
  private readonly lastMinted = new Map<EnvironmentId, string>();
  private readonly subscription: vscode.Disposable;
  private localTarget: LocalTargetProvider | undefined;

  constructor(
    readonly keys: KeyStore,
    private readonly settings: EnvironmentSettings,
  ) {
    this.subscription = keys.onDidChange(() => this.minterInstance?.forget());
  }

  private get minter(): TokenMinter {
    return (this.minterInstance ??= new TokenMinter());
  }

  /** Installs the Local sandbox's provider of Partner ID and base address (the sandbox integration calls this). */
  setLocalTarget(provider: LocalTargetProvider | undefined): vscode.Disposable {
    this.localTarget = provider;
    return new vscode.Disposable(() => {
      if (this.localTarget === provider) this.localTarget = undefined;
    });
  }

  /** Token lifetime in seconds from `tpp.token.lifetimeSeconds` (default 300, capped at 7200). */
  lifetimeSeconds(): number {
    const v = vscode.workspace.getConfiguration('tpp.token').get<number>('lifetimeSeconds', DEFAULT_LIFETIME_SECONDS);
    try {
      return Math.min(effectiveLifetime(v), MAX_TOKEN_LIFETIME_SECONDS);
    } catch {
      return DEFAULT_LIFETIME_SECONDS;
    }
  }

  /** What is known of the environment's iss and aud; a field is `undefined` when not set, with `why` per field. */
  async partialTarget(env: EnvironmentId): Promise<{ iss?: string; aud?: string; whyNoIss?: string; whyNoAud?: string }> {
    const label = ENVIRONMENTS[env].label;
    if (env === 'local') {
      const t = await this.localTarget?.();
      if (!t) return { whyNoIss: LOCAL_NOT_AVAILABLE, whyNoAud: LOCAL_NOT_AVAILABLE };
      return { iss: t.iss, aud: audienceOf(t.aud) };
    }
    const remote = this.settings.remote(env);
    return {
      iss: remote?.partnerId || undefined,
      aud: remote?.baseUrl ? audienceOf(remote.baseUrl) : undefined,
      whyNoIss: `no Partner ID set for ${label}`,
      whyNoAud: `setting tpp.${env}.baseUrl is empty`,
    };
  }

  /** The environment's iss and aud; throws {@link NotReadyError} naming what is missing. */
  async target(env: EnvironmentId): Promise<TokenTarget> {
    const label = ENVIRONMENTS[env].label;
    const t = await this.partialTarget(env);
    if (env === 'local' && (!t.iss || !t.aud)) throw new NotReadyError(LOCAL_NOT_AVAILABLE);
    if (!t.iss) throw new NotReadyError(`${label} has no Partner ID yet: run "Tire Protection: Set Partner ID…" once the administrator returned it.`);
    if (!t.aud) throw new NotReadyError(`${label} has no base address: set tpp.${env}.baseUrl to the address ending in /api/v3.`);
    return { iss: t.iss, aud: t.aud };
  }

  /** The key record; throws {@link NotReadyError} when there is none. */
  async record(env: EnvironmentId): Promise<KeyRecord> {
    const rec = await this.keys.get(env);
    if (!rec) throw new NotReadyError(`${ENVIRONMENTS[env].label} has no key pair: run "Tire Protection: Generate Key Pair…" or "Import Private Key…".`);
    return rec;
  }

  /**
   * A fresh token for `env` (spec: Authentication 4, 5, 7), signed with the signing key (during a rotation: the
   * previous, registered key; `use: 'pending'` signs with the new one). Throws {@link NotReadyError}.
   */
  async mint(env: EnvironmentId, use: 'signing' | 'pending' = 'signing'): Promise<string> {
    const rec = await this.record(env);
    const target = await this.target(env);
    const key = use === 'pending' ? rec : signingKeyOf(rec);
    const token = await this.minter.mint(key, { ...target, lifetimeSeconds: this.lifetimeSeconds() });
    this.lastMinted.set(env, token);
    return token;
  }

  /** The last token {@link mint} made for `env` in this session (memory only), e.g. the one a 401 answered. */
  lastMintedToken(env: EnvironmentId): string | undefined {
    return this.lastMinted.get(env);
  }

  /** A token provider for the partner API client: every call mints a new token. */
  tokenProvider(env: EnvironmentId): () => Promise<string> {
    return () => this.mint(env);
  }

  /**
   * The checklist of `token` against `env`: its Partner ID, base address and public key. During a rotation the
   * token is checked against the signing key, or the new key when that is the one it verifies with.
   */
  async inspect(env: EnvironmentId, token: string): Promise<JwtInspection> {
    const t = await this.partialTarget(env);
    let rec: KeyRecord | undefined;
    let whyNoKey = `${ENVIRONMENTS[env].label} has no key pair`;
    try {
      rec = await this.keys.get(env);
    } catch (err) {
      whyNoKey = err instanceof Error ? err.message : String(err);
    }
    const options = { ...t, whyNoKey };
    if (!rec) return inspectJwt(token, options);
    const first = await inspectJwt(token, { ...options, publicKey: publicKeyPem(signingKeyOf(rec)) });
    if (!rec.previous || first.checks.find((c) => c.id === 'signature')?.status === 'pass') return first;
    const second = await inspectJwt(token, { ...options, publicKey: publicKeyPem(rec) });
    return second.checks.find((c) => c.id === 'signature')?.status === 'pass' ? second : first;
  }

  dispose(): void {
    this.subscription.dispose();
    this.minterInstance?.forget();
    this.lastMinted.clear();
  }
}
