import * as vscode from 'vscode';
import type { ActiveEnvironment } from '../services/activeEnvironment';
import { FlowIndex, isFlowDocument } from '../services/flowIndex';
import { FlowRuns } from '../services/flowRuns';
import type { VariablesService } from '../services/variables';
import { FlowCodeLensProvider } from './codeLens';
import { FlowCompletionProvider } from './completion';
import { registerFlowDiagnostics } from './diagnostics';
import { DataColumnsReader } from './rowColumns';
import { FlowTestController, type FlowTestServices } from './testController';

/** What the flow features need of the container. */
export interface FlowFeatureServices extends FlowTestServices {
  readonly active: ActiveEnvironment;
  readonly variables: VariablesService;
}

/** What the container gives the flow features: its services, the flow index and runs among them (the container makes and owns those). */
export type FlowFeatureDeps = FlowFeatureServices;

/** The flow features once loaded: the Test Explorer controller, and what to dispose. */
export interface LoadedFlowFeatures {
  readonly tests: FlowTestController;
  readonly disposables: vscode.Disposable[];
}

/** The selector of flow documents: the `http` language (REST Client's and httpyac's id too) and `.rest` files. */
export const FLOW_SELECTOR: vscode.DocumentSelector = [{ language: 'http' }, { pattern: '**/*.rest' }];

/**
 * The editor side of flows (docs/flows-editor.md): CodeLens, diagnostics, completion and the Test Explorer, all reading
 * the container's one FlowIndex (this module is dist/flows.js, loaded on first use, so none of it is loaded at
 * activation; the container makes FlowIndex and FlowRuns from its exports). Documents already open are parsed now
 * (their open event came before activation).
 */
export function registerFlowFeatures(c: FlowFeatureDeps): LoadedFlowFeatures {
  const tests = new FlowTestController(c);
  const lenses = new FlowCodeLensProvider(c.active, c.flows);
  const data = new DataColumnsReader();
  const disposables = [
    tests,
    lenses,
    // Problems are set on every parse (each keystroke): a body file's path is judged there (inside the workspace
    // folder, links resolved), its contents are read only by a run.
    registerFlowDiagnostics(c.flows, c.variables, data, (uri) => {
      const find = c.flowRuns.filesOf(uri);
      return async (path) => (await find(path), '');
    }),
    vscode.languages.registerCodeLensProvider(FLOW_SELECTOR, lenses),
    vscode.languages.registerCompletionItemProvider(FLOW_SELECTOR, new FlowCompletionProvider(c.flows, c.variables, data), '{', '$', '.', '?', ' '),
  ];
  for (const d of vscode.workspace.textDocuments) if (isFlowDocument(d)) c.flows.update(d.uri, d.getText());
  return { tests, disposables };
}

/** The services the container makes from this bundle: the flow index and the runs (src/extension/services). */
export { FlowIndex, FlowRuns };

export { requestIndexOf, sendOneFlowRequest } from './sendRequest';
