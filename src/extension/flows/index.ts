import * as vscode from 'vscode';
import type { ActiveEnvironment } from '../services/activeEnvironment';
import type { ApiClients } from '../services/apiClients';
import { FlowIndex, isFlowDocument } from '../services/flowIndex';
import { FlowRuns } from '../services/flowRuns';
import type { JwtService } from '../services/jwtService';
import type { KeyStore } from '../services/keyStore';
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

/** What the container gives the flow features: its services (the flow index and runs are made here). */
export interface FlowFeatureDeps extends Omit<FlowFeatureServices, 'flows' | 'flowRuns'> {
  readonly api: ApiClients;
  readonly jwt: JwtService;
  readonly keys: KeyStore;
}

/** The flow features once loaded: their services, the Test Explorer controller, and what to dispose. */
export interface LoadedFlowFeatures {
  readonly flows: FlowIndex;
  readonly flowRuns: FlowRuns;
  readonly tests: FlowTestController;
  readonly disposables: vscode.Disposable[];
}

/** The selector of flow documents: the `http` language (REST Client's and httpyac's id too) and `.rest` files. */
export const FLOW_SELECTOR: vscode.DocumentSelector = [{ language: 'http' }, { pattern: '**/*.rest' }];

/**
 * The editor side of flows (docs/flows-editor.md): the flow index and runs, CodeLens, diagnostics, completion and the
 * Test Explorer, all reading the one FlowIndex made here (this module is dist/flows.js, loaded on first use, so none of
 * it is loaded at activation). Documents already open are parsed now (their open event came before activation).
 */
export function registerFlowFeatures(deps: FlowFeatureDeps): LoadedFlowFeatures {
  const flows = new FlowIndex();
  const flowRuns = new FlowRuns(deps.api, deps.jwt, deps.variables);
  const c: FlowFeatureServices = { active: deps.active, variables: deps.variables, log: deps.log, flows, flowRuns };
  const tests = new FlowTestController(c);
  const lenses = new FlowCodeLensProvider(c.active, c.flows);
  const disposables = [
    flows,
    flowRuns,
    tests,
    lenses,
    registerFlowDiagnostics(c.flows, c.variables),
    vscode.languages.registerCodeLensProvider(FLOW_SELECTOR, lenses),
    vscode.languages.registerCompletionItemProvider(FLOW_SELECTOR, new FlowCompletionProvider(c.flows, c.variables), '{', '$', '.', '?', ' '),
  ];
  for (const d of vscode.workspace.textDocuments) if (isFlowDocument(d)) c.flows.update(d.uri, d.getText());
  return { flows, flowRuns, tests, disposables };
}

export { requestIndexOf, sendOneFlowRequest } from './sendRequest';
