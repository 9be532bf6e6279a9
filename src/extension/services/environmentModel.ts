import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId, EnvironmentInfo, listEnvironments } from '../../core/environments';
import { ActiveEnvironment } from './activeEnvironment';
import { EnvironmentSettings } from './environmentSettings';
import { checklist, missingPrerequisites, SetupItem, SetupMarks, setupDone, setupStateOf, SetupState } from './environmentSetup';
import { KeyStore, KeySummary } from './keyStore';

/** What an environment still needs before requests can be signed and sent (the missing prerequisites). */
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
  /** Partner ID: the setting for remote environments (`''` when not set); for Local the sandbox's generated one. */
  readonly partnerId?: string;
  /** v3 base address for remote environments (`''` when not set); `undefined` for Local. */
  readonly baseUrl?: string;
  /** Missing prerequisites (key, Partner ID, base address), in the order the user should add them. */
  readonly gaps: readonly SetupGap[];
  /** The whole setup checklist, every item at once (see {@link checklist}). */
  readonly setup: readonly SetupItem[];
  /** `ready` when every prerequisite is there: the tree icon and description, the status bar and Get Started follow it. */
  readonly state: SetupState;
  /** True when every checklist item is done (public key exported and connection verified included). */
  readonly done: boolean;
}

/**
 * One place that combines the active environment, the key store and the settings into
 * {@link EnvironmentStatus} snapshots, and fires {@link onDidChange} when any of them changes.
 */
export class EnvironmentModel implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChange = this.emitter.event;

  /**
   * @param marks export and verification marks (checklist items 4 and 5).
   * @param localPartnerId the Local sandbox's generated Partner ID (known before the sandbox starts).
   */
  constructor(
    readonly active: ActiveEnvironment,
    readonly keys: KeyStore,
    readonly settings: EnvironmentSettings,
    readonly marks: SetupMarks,
    private readonly localPartnerId: () => string | undefined = () => undefined,
  ) {
    const fire = () => this.emitter.fire();
    this.subscriptions = [active.onDidChange(fire), keys.onDidChange(fire), settings.onDidChange(fire), marks.onDidChange(fire)];
  }

  async status(env: EnvironmentId): Promise<EnvironmentStatus> {
    const info = ENVIRONMENTS[env];
    const [hasKey, key, hasEligibilityToken] = await Promise.all([this.keys.has(env), this.keys.summary(env), this.keys.hasEligibilityToken(env)]);
    const remote = this.settings.remote(env);
    const localPartnerId = remote ? undefined : this.localPartnerId();
    const setup = checklist({ env, fingerprint: key?.signing.fingerprint, exportFingerprint: key?.pending?.fingerprint, curve: key?.signing.curve, baseUrl: remote?.baseUrl, partnerId: remote?.partnerId, localPartnerId, marks: this.marks.of(env) });
    // A stored key that cannot be read still counts as a key for the gaps (the tree offers to delete it).
    const gaps: SetupGap[] = missingPrerequisites(setup).map((it) => it.id as SetupGap).filter((g) => g !== 'key' || !hasKey);
    const order: SetupGap[] = ['key', 'partnerId', 'baseUrl'];
    gaps.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return {
      info,
      active: this.active.get() === env,
      isDefault: env === 'local',
      hasKey,
      key,
      hasEligibilityToken,
      partnerId: remote ? remote.partnerId : localPartnerId,
      baseUrl: remote?.baseUrl,
      gaps,
      setup,
      state: gaps.length ? 'needsSetup' : setupStateOf(setup),
      done: gaps.length === 0 && setupDone(setup),
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
