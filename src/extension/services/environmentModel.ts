import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId, EnvironmentInfo, listEnvironments } from '../../core/environments';
import { ActiveEnvironment } from './activeEnvironment';
import { EnvironmentSettings } from './environmentSettings';
import { KeyStore, KeySummary } from './keyStore';

/** What an environment still needs before requests can be signed and sent. */
export type SetupGap = 'key' | 'partnerId' | 'baseUrl';

/** A snapshot of one environment's configuration state. */
export interface EnvironmentStatus {
  readonly info: EnvironmentInfo;
  readonly active: boolean;
  readonly isDefault: boolean;
  readonly hasKey: boolean;
  /** Curve, fingerprint and dates of the key (and of a pending rotation); `undefined` without a readable key. */
  readonly key?: KeySummary;
  /** True when the provider-issued eligibility lookup token is stored. */
  readonly hasEligibilityToken: boolean;
  /** Partner ID for remote environments (`''` when not set); `undefined` for Local (generated). */
  readonly partnerId?: string;
  /** v3 base address for remote environments (`''` when not set); `undefined` for Local. */
  readonly baseUrl?: string;
  /** Missing pieces, in the order the user should add them. */
  readonly gaps: readonly SetupGap[];
}

/**
 * One place that combines the active environment, the key store and the settings into
 * {@link EnvironmentStatus} snapshots, and fires {@link onDidChange} when any of them changes.
 */
export class EnvironmentModel implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChange = this.emitter.event;

  constructor(
    readonly active: ActiveEnvironment,
    readonly keys: KeyStore,
    readonly settings: EnvironmentSettings,
  ) {
    const fire = () => this.emitter.fire();
    this.subscriptions = [active.onDidChange(fire), keys.onDidChange(fire), settings.onDidChange(fire)];
  }

  async status(env: EnvironmentId): Promise<EnvironmentStatus> {
    const info = ENVIRONMENTS[env];
    const [hasKey, key, hasEligibilityToken] = await Promise.all([this.keys.has(env), this.keys.summary(env), this.keys.hasEligibilityToken(env)]);
    const remote = this.settings.remote(env);
    const gaps: SetupGap[] = [];
    if (!hasKey) gaps.push('key');
    if (remote && !remote.partnerId) gaps.push('partnerId');
    if (remote && !remote.baseUrl) gaps.push('baseUrl');
    return {
      info,
      active: this.active.get() === env,
      isDefault: env === 'local',
      hasKey,
      key,
      hasEligibilityToken,
      partnerId: remote?.partnerId,
      baseUrl: remote?.baseUrl,
      gaps,
    };
  }

  all(): Promise<EnvironmentStatus[]> {
    return Promise.all(listEnvironments().map((e) => this.status(e.id)));
  }

  /** Forces listeners to re-read (for example after the user asks to refresh). */
  refresh(): void {
    this.emitter.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}
