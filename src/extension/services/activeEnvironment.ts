import * as vscode from 'vscode';
import { DEFAULT_ENVIRONMENT, EnvironmentId, isEnvironmentId } from '../../core/environments';

const STATE_KEY = 'tpp.activeEnvironment';

/**
 * The environment that commands act on by default. Persisted in the extension's global state, so it
 * survives window reloads and is shared by all windows; `local` until the user picks another.
 */
export class ActiveEnvironment implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<EnvironmentId>();
  /** Fires with the new environment after {@link set}. */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly state: vscode.Memento) {}

  get(): EnvironmentId {
    const stored = this.state.get<unknown>(STATE_KEY);
    return isEnvironmentId(stored) ? stored : DEFAULT_ENVIRONMENT;
  }

  async set(id: EnvironmentId): Promise<void> {
    if (id === this.get()) return;
    await this.state.update(STATE_KEY, id);
    this.emitter.fire(id);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
