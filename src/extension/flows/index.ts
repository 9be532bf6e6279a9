import * as vscode from 'vscode';
import type { ActiveEnvironment } from '../services/activeEnvironment';
import { isFlowDocument } from '../services/flowIndex';
import type { VariablesService } from '../services/variables';
import { FlowCodeLensProvider } from './codeLens';
import { FlowCompletionProvider } from './completion';
import { registerFlowDiagnostics } from './diagnostics';
import { FlowTestController, type FlowTestServices } from './testController';

/** What the flow features need of the container. */
export interface FlowFeatureServices extends FlowTestServices {
  readonly active: ActiveEnvironment;
  readonly variables: VariablesService;
}

/** The selector of flow documents: the `http` language (REST Client's and httpyac's id too) and `.rest` files. */
export const FLOW_SELECTOR: vscode.DocumentSelector = [{ language: 'http' }, { pattern: '**/*.rest' }];

/**
 * The editor side of flows (docs/flows-editor.md): CodeLens, diagnostics, completion and the Test Explorer, all
 * reading the one FlowIndex of the container. Documents already open are parsed now (their open event came before
 * activation). Returns the disposables and the Test Explorer controller.
 */
export function registerFlowFeatures(c: FlowFeatureServices): { disposables: vscode.Disposable[]; tests: FlowTestController } {
  const tests = new FlowTestController(c);
  const lenses = new FlowCodeLensProvider(c.active, c.flows);
  const disposables = [
    tests,
    lenses,
    registerFlowDiagnostics(c.flows, c.variables),
    vscode.languages.registerCodeLensProvider(FLOW_SELECTOR, lenses),
    vscode.languages.registerCompletionItemProvider(FLOW_SELECTOR, new FlowCompletionProvider(c.flows, c.variables), '{', '$', '.', '?', ' '),
  ];
  for (const d of vscode.workspace.textDocuments) if (isFlowDocument(d)) c.flows.update(d.uri, d.getText());
  return { disposables, tests };
}
