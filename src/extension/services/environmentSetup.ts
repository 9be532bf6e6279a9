import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import type { SetupMarkValues as Marks } from './environmentChecklist';

export * from './environmentChecklist';

const STATE_KEY = 'tpp.setupMarks';

/**
 * The setup marks of each environment, in the extension's global state (so the checklist and the walkthrough keep
 * their progress across restarts). A mark is tied to the key (and address and Partner ID) it was made with: after a
 * new key or a new address the item is missing again.
 */
export class SetupMarks implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<EnvironmentId>();
  /** Fires with the environment whose marks changed. */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly state: vscode.Memento) {}

  private all(): Partial<Record<EnvironmentId, Marks>> {
    return this.state.get<Partial<Record<EnvironmentId, Marks>>>(STATE_KEY) ?? {};
  }

  /** The marks of `env` (empty when none). */
  of(env: EnvironmentId): Marks {
    return this.all()[env] ?? {};
  }

  private async update(env: EnvironmentId, change: Marks): Promise<void> {
    const all = this.all();
    await this.state.update(STATE_KEY, { ...all, [env]: { ...all[env], ...change } });
    this.emitter.fire(env);
  }

  /** Records that the public key with `fingerprint` (hex SHA-256 of its SPKI DER) was copied or saved. */
  markExported(env: EnvironmentId, fingerprint: string): Promise<void> {
    return this.update(env, { exported: fingerprint });
  }

  /** Records a 200 from verify-token for this key, Partner ID and base address (`''` for Local's). */
  markVerified(env: EnvironmentId, fingerprint: string, partnerId: string, baseUrl: string): Promise<void> {
    return this.update(env, { verified: { fingerprint, partnerId, baseUrl, at: new Date().toISOString() } });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

