import * as vscode from 'vscode';
import type { PayloadKind } from '../../core/contract/types';
import type { EnvironmentId } from '../../core/environments';
import { captureFromResponse, environmentVariables, type Captures, type VariableScope } from '../../core/variables';
import type { ActiveEnvironment } from './activeEnvironment';

/** The setting holding the variables: `{ "$shared": {…}, "local": {…}, "sandbox": {…}, "production": {…} }`. */
export const VARIABLES_SETTING = 'tpp.variables';
const CAPTURES_KEY = (env: EnvironmentId) => `tpp.variables.captured.${env}`;

/**
 * Variables of payload files in the editor: the `tpp.variables` setting (resource scope, so a
 * workspace folder may define its own; `$shared` under each environment's), and the values captured from 2xx creates,
 * kept per environment in `globalState` (an id captured on Local is never sent to Sandbox). Fires `onDidChange` when
 * the setting, a capture or the active environment changes (diagnostics re-check, completion and hover read afresh).
 */
export class VariablesService implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fired when the setting, the captures or the active environment change. */
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly state: vscode.Memento,
    private readonly active: ActiveEnvironment,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(VARIABLES_SETTING)) this.emitter.fire();
      }),
      active.onDidChange(() => this.emitter.fire()),
    ];
  }

  /** The active environment. */
  activeEnvironment(): EnvironmentId {
    return this.active.get();
  }

  /** Variables of `env` from the setting (for `resource`'s folder): `$shared`'s overridden by the environment's. */
  environment(env: EnvironmentId = this.active.get(), resource?: vscode.Uri): Record<string, unknown> {
    return environmentVariables(vscode.workspace.getConfiguration(undefined, resource).get<unknown>(VARIABLES_SETTING), env);
  }

  /** Names defined for `env` (what the diagnostics accept as known). */
  names(env: EnvironmentId = this.active.get(), resource?: vscode.Uri): ReadonlySet<string> {
    return new Set(Object.keys(this.environment(env, resource)));
  }

  /** Values captured on `env`. */
  captured(env: EnvironmentId = this.active.get()): Captures {
    return this.state.get<Captures>(CAPTURES_KEY(env)) ?? {};
  }

  /** Everything resolution needs for a file sent to `env`. */
  scope(env: EnvironmentId = this.active.get(), resource?: vscode.Uri): VariableScope {
    return { environment: this.environment(env, resource), captured: this.captured(env) };
  }

  /**
   * Records a 2xx create sent to `env` (see core's captureFromResponse): `sentBody` is the resolved file (meta data
   * included), `responseBody` the answer. Kinds without a capture change nothing.
   */
  async capture(env: EnvironmentId, kind: PayloadKind, sentBody: unknown, responseBody: unknown): Promise<void> {
    const before = this.captured(env);
    const after = captureFromResponse(kind, sentBody, responseBody, before);
    if (after === before) return;
    await this.state.update(CAPTURES_KEY(env), after);
    this.emitter.fire();
  }

  /** Forgets the captures of `env` (tests, a reset environment). */
  async clearCaptures(env: EnvironmentId): Promise<void> {
    await this.state.update(CAPTURES_KEY(env), undefined);
    this.emitter.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}
