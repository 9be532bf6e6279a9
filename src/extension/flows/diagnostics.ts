import * as vscode from 'vscode';
import type { FlowProblem } from '../../core/flows/types';
import type { FlowIndex } from '../services/flowIndex';
import type { VariablesService } from '../services/variables';
import { bodyContractProblems } from './bodyContract';
import { checkFlowForRun, environmentVariablesOf } from '../../core/flows';

/** A parser problem (1-based line and column, end when known) as an editor diagnostic, source `tpp`. */
export function toDiagnostic(p: FlowProblem): vscode.Diagnostic {
  const start = new vscode.Position(Math.max(0, p.line - 1), Math.max(0, p.column - 1));
  const end = p.end ? new vscode.Position(Math.max(0, p.end.line - 1), Math.max(0, p.end.column - 1)) : start;
  const d = new vscode.Diagnostic(new vscode.Range(start, end.isBefore(start) ? start : end), p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  d.source = 'tpp';
  if (p.code) d.code = p.code;
  return d;
}

/** The names a flow gets from any environment: `baseUrl`, `v2BaseUrl`, `eligibilityBaseUrl`, `partnerId`. */
const ENVIRONMENT_NAMES = () => Object.keys(environmentVariablesOf({ id: 'local', baseUrl: '' }));

/**
 * The problems of every parsed flow file in the Problems panel and as squiggles (docs/flows-editor.md): what core's
 * `parseFlow` reports (syntax, unknown request names and `$` values, unclosed bodies), the `{{names}}` neither the
 * file, the environment nor `tpp.variables` define (core's `checkFlowForRun`, as `tpp run` checks before sending), and
 * inline JSON bodies against their endpoint's contract. Set again each time a file is parsed and when the variables
 * change (all files), cleared when a file is deleted.
 */
export function registerFlowDiagnostics(flows: FlowIndex, variables: VariablesService): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('tpp-flows');
  const set = async (uri: vscode.Uri): Promise<void> => {
    const flow = flows.get(uri);
    if (!flow) return collection.delete(uri);
    const unknown = await checkFlowForRun(flow, { names: new Set([...ENVIRONMENT_NAMES(), ...variables.names(undefined, uri)]) });
    if (flows.get(uri) !== flow) return; // parsed again meanwhile: that parse sets them
    collection.set(uri, [...flow.problems, ...unknown, ...bodyContractProblems(flow)].map(toDiagnostic));
  };
  for (const uri of flows.uris()) void set(uri);
  return vscode.Disposable.from(
    collection,
    flows.onDidChange((uri) => void set(uri)),
    flows.onDidDelete((uri) => collection.delete(uri)),
    variables.onDidChange(() => flows.uris().forEach((uri) => void set(uri))),
  );
}
