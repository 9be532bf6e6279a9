import * as vscode from 'vscode';
import { ENVIRONMENT_IDS, EnvironmentId } from '../../core/environments';

/** SecretStorage key under which an environment's private key (PKCS#8 PEM) is kept. */
export function privateKeySecretName(env: EnvironmentId): string {
  return `tpp.privateKey.${env}`;
}

/**
 * Private keys per environment, kept only in VS Code's SecretStorage (never in settings, files or logs).
 * Listens to `secrets.onDidChange`, so a key added or removed in another window is seen here too.
 */
export class KeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<EnvironmentId>();
  private readonly subscription: vscode.Disposable;
  /** Fires with the environment whose key changed (here or in another window). */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      const env = ENVIRONMENT_IDS.find((id) => privateKeySecretName(id) === e.key);
      if (env) this.emitter.fire(env);
    });
  }

  /** True when the environment has a private key. */
  async has(env: EnvironmentId): Promise<boolean> {
    return (await this.secrets.get(privateKeySecretName(env))) !== undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
