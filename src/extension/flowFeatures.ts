import * as vscode from 'vscode';
import type { RequestResult } from '../core/flows/types';
import type { EnvironmentId } from '../core/environments';
import type { FlowFeatureServices } from './flows';
import type { FlowTestController } from './flows/testController';
import { FLOW_EXCLUDE, FLOW_GLOB, isFlowDocument } from './services/flowIndex';
import { UserCancelled } from './services/userCancelled';

type FlowModule = typeof import('./flows');

/**
 * The flows' editor features (Test Explorer, CodeLens, diagnostics, completion: src/extension/flows, docs/flows-editor.md)
 * loaded on first use, not at activation: when a flow document opens, when the workspace holds a `.http`/`.rest` file
 * (checked once after activation), or when a command runs a flow. The production build puts them in `dist/flows.js`
 * (scripts/build.mjs), so a workspace without flows never loads them.
 */
export class FlowFeatures implements vscode.Disposable {
  private loaded: { disposables: vscode.Disposable[]; tests: FlowTestController } | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: FlowFeatureServices,
    private readonly load: () => FlowModule = () => require('./flows') as FlowModule,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => void (isFlowDocument(d) && this.ensure())),
      services.flowRuns.attachExplorer((uri, env) => this.runInExplorer(uri, env)),
    ];
    if (vscode.workspace.textDocuments.some(isFlowDocument)) this.ensure();
    else void vscode.workspace.findFiles(FLOW_GLOB, FLOW_EXCLUDE, 1).then((found) => void (found.length && this.ensure()));
  }

  /** The Test Explorer controller (loads the features if needed). */
  get tests(): FlowTestController {
    return this.ensure().tests;
  }

  /** Loads and registers the features once; returns them. */
  ensure(): { disposables: vscode.Disposable[]; tests: FlowTestController } {
    return (this.loaded ??= this.load().registerFlowFeatures(this.services));
  }

  private async runInExplorer(uri: vscode.Uri, env: EnvironmentId): Promise<readonly RequestResult[]> {
    const results = await this.ensure().tests.runFile(uri, env);
    // undefined: the guard stopped the run (its own bundle's UserCancelled cannot be matched here with instanceof).
    if (!results) throw new UserCancelled();
    return results;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const d of this.loaded?.disposables.reverse() ?? []) d.dispose();
    this.loaded = undefined;
  }
}
