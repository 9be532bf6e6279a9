import * as vscode from 'vscode';
import { SCHEMA_URI_PREFIX } from '../../core/contract';
import { ENVIRONMENTS } from '../../core/environments';
import type { ActiveEnvironment } from '../services/activeEnvironment';

/**
 * "Send to <active environment>", "Send to…" and "Write Program…" (the same request as your own program, which
 * Run in Terminal runs) above the first line of every JSON document that declares a payload kind
 * (`"$schema": "tpp://schemas/<kind>.json"`). Production is labelled with a warning sign.
 */
export class SendCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChangeCodeLenses = this.emitter.event;

  /** Redrawn only when the active environment changes (its name is on the lens). */
  constructor(private readonly active: ActiveEnvironment) {
    this.subscription = active.onDidChange(() => this.emitter.fire());
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const head = doc.getText(new vscode.Range(0, 0, Math.min(doc.lineCount, 40), 0));
    if (!head.includes(SCHEMA_URI_PREFIX)) return [];
    const env = this.active.get();
    const info = ENVIRONMENTS[env];
    const range = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(range, { title: `${info.guarded ? '$(warning) ' : '$(cloud-upload) '}Send to ${info.label}`, command: 'tpp.sendPayload', arguments: [doc.uri, env] }),
      new vscode.CodeLens(range, { title: 'Send to…', command: 'tpp.sendPayload', arguments: [doc.uri, 'pick'] }),
      new vscode.CodeLens(range, { title: '$(file-code) Write Program…', tooltip: `A Python or Node.js program that sends this request to ${info.label} with its own token, loading the dotenv file of Connect Your Application itself; Run in Terminal runs it`, command: 'tpp.writeProgram', arguments: [doc.uri] }),
    ];
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** Registers the CodeLens for JSON documents (files and untitled). */
export function registerSendCodeLens(active: ActiveEnvironment): vscode.Disposable {
  const provider = new SendCodeLensProvider(active);
  return vscode.Disposable.from(provider, vscode.languages.registerCodeLensProvider([{ language: 'json' }, { language: 'jsonc' }], provider));
}
