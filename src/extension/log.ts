import * as vscode from 'vscode';
import { maskSecrets } from '../core/log/mask';

/**
 * The "Tire Protection" log. Every message passes through {@link maskSecrets} first, so a token,
 * a bearer credential or a private key never reaches the output channel.
 */
export class Logger implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor(name = 'Tire Protection') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  info(message: string): void {
    this.channel.info(maskSecrets(message));
  }

  warn(message: string): void {
    this.channel.warn(maskSecrets(message));
  }

  /** Logs an error with its message and (masked) stack. */
  error(message: string, err?: unknown): void {
    const detail = err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : err === undefined ? '' : String(err);
    this.channel.error(maskSecrets(detail ? `${message}: ${detail}` : message));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
