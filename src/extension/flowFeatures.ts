import * as vscode from 'vscode';
import type { RequestResult } from '../core/flows/types';
import type { EnvironmentId } from '../core/environments';
import type { FlowFeatureServices, LoadedFlowFeatures } from './flows';
import type { FlowTestController } from './flows/testController';
import type { FlowIndex } from './services/flowIndex';
import type { ExplorerRunOptions, FlowRuns } from './services/flowRuns';
import { FLOW_EXCLUDE, FLOW_GLOB, isFlowDocument } from './flowFiles';
import { UserCancelled } from './services/userCancelled';

export type FlowModule = typeof import('./flows');

/** What the flow features are given: the container's services, and its flow index and runs (made on first use). */
export interface FlowFeatureHost extends Omit<FlowFeatureServices, 'flows' | 'flowRuns'> {
  flowServices(): { readonly flows: FlowIndex; readonly flowRuns: FlowRuns };
}

/**
 * The flows' editor side (flow index and runs, Test Explorer, CodeLens, diagnostics, completion: src/extension/flows,
 * docs/flows-editor.md) loaded on first use, not at activation: when a flow document opens, when the workspace holds a
 * `.http`/`.rest` file (checked once after activation), or when a command reads {@link flows} or {@link flowRuns}. The
 * production build puts all of it in `dist/flows.js` (scripts/build.mjs), so a workspace without flows never loads it
 * and activation stays within its size budget.
 */
export class FlowFeatures implements vscode.Disposable {
  private loaded: LoadedFlowFeatures | undefined;
  private bundle: FlowModule | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: FlowFeatureHost,
    private readonly load: () => FlowModule = () => require('./flows') as FlowModule,
  ) {
    this.subscriptions = [vscode.workspace.onDidOpenTextDocument((d) => void (isFlowDocument(d) && this.ensure()))];
    if (vscode.workspace.textDocuments.some(isFlowDocument)) this.ensure();
    else void vscode.workspace.findFiles(FLOW_GLOB, FLOW_EXCLUDE, 1).then((found) => void (found.length && this.ensure()));
  }

  /** dist/flows.js, loaded once: the container makes its FlowIndex and FlowRuns from its exports. */
  module(): FlowModule {
    return (this.bundle ??= this.load());
  }

  /** The Test Explorer controller (loads the features if needed). */
  get tests(): FlowTestController {
    return this.ensure().tests;
  }

  /** Loads and registers the features once, lets commands run files in the Test Explorer; returns them. */
  ensure(): LoadedFlowFeatures {
    if (this.loaded) return this.loaded;
    const { flows, flowRuns } = this.services.flowServices();
    const s = this.services;
    const loaded = this.module().registerFlowFeatures({ active: s.active, variables: s.variables, log: s.log, flows, flowRuns });
    loaded.disposables.push(flowRuns.attachExplorer((uri, env, options) => this.runInExplorer(loaded, uri, env, options)));
    return (this.loaded = loaded);
  }

  private async runInExplorer(loaded: LoadedFlowFeatures, uri: vscode.Uri, env: EnvironmentId, options: ExplorerRunOptions = {}): Promise<readonly RequestResult[]> {
    const results = await loaded.tests.runFile(uri, env, options);
    // undefined: the Production guard or a missing prerequisite stopped the run and the user has been told; the
    // command that asked ends silently on UserCancelled (which any bundle's copy of the class recognises).
    if (!results) throw new UserCancelled();
    return results;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const d of this.loaded?.disposables.reverse() ?? []) d.dispose();
    this.loaded = undefined;
  }
}
