import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';

/** Settings of one remote environment (`tpp.<env>.*`, application scope). */
export interface RemoteSettings {
  /** v3 base address, ending in /api/v3; `''` when not set. */
  baseUrl: string;
  /** Partner ID returned by the administrator; `''` when not set. */
  partnerId: string;
}

/**
 * Reads and writes the per-environment settings. They are application-scoped in package.json, so a
 * workspace's settings cannot redirect requests; writes always go to the user (global) target.
 */
export class EnvironmentSettings implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor() {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('tpp')) this.emitter.fire();
    });
  }

  /** Settings of a remote environment; the Local sandbox has none (`undefined`). */
  remote(env: EnvironmentId): RemoteSettings | undefined {
    if (env === 'local') return undefined;
    const config = vscode.workspace.getConfiguration(`tpp.${env}`);
    return { baseUrl: config.get<string>('baseUrl', '').trim(), partnerId: config.get<string>('partnerId', '').trim() };
  }

  async setPartnerId(env: Exclude<EnvironmentId, 'local'>, partnerId: string): Promise<void> {
    await vscode.workspace.getConfiguration(`tpp.${env}`).update('partnerId', partnerId, vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
