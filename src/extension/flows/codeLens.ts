import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import type { ActiveEnvironment } from '../services/activeEnvironment';
import type { FlowIndex } from '../services/flowIndex';

/**
 * Above a flow file's first line, **Run Flow on <active environment>** (a Test Explorer run of the whole file); above
 * each request, **Send to <active environment>** (that request, with the named requests it reads run first, its
 * exchange in the response view). Production is marked with a warning sign. Redrawn when the active environment
 * changes or a flow file is parsed again (docs/flows-editor.md).
 */
export class FlowCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(
    private readonly active: ActiveEnvironment,
    private readonly flows: FlowIndex,
  ) {
    this.subscriptions = [active.onDidChange(() => this.emitter.fire()), flows.onDidChange(() => this.emitter.fire())];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const flow = this.flows.get(doc.uri) ?? this.flows.update(doc.uri, doc.getText());
    if (!flow.requests.length) return [];
    const env = this.active.get();
    const info = ENVIRONMENTS[env];
    const icon = info.guarded ? '$(warning) ' : '';
    const n = flow.requests.length;
    const lenses = [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: `${icon || '$(run-all) '}Run Flow on ${info.label} (${n} request${n === 1 ? '' : 's'})`,
        command: 'tpp.runFlow',
        arguments: [doc.uri, env],
      }),
    ];
    for (const r of flow.requests) {
      const line = Math.max(0, r.line - 1);
      lenses.push(
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: `${icon || '$(play) '}Send to ${info.label}`,
          command: 'tpp.sendFlowRequest',
          arguments: [doc.uri, r.index, env],
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}
