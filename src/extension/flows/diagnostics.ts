import * as vscode from 'vscode';
import type { FlowProblem } from '../../core/flows/types';
import type { FlowIndex } from '../services/flowIndex';
import type { VariablesService } from '../services/variables';
import { bodyContractProblems } from './bodyContract';
import { unknownVariableProblems } from './unknownVariables';

/** A parser problem (1-based line and column, end when known) as an editor diagnostic, source `tpp`. */
export function toDiagnostic(p: FlowProblem): vscode.Diagnostic {
  const start = new vscode.Position(Math.max(0, p.line - 1), Math.max(0, p.column - 1));
  const end = p.end ? new vscode.Position(Math.max(0, p.end.line - 1), Math.max(0, p.end.column - 1)) : start;
  const d = new vscode.Diagnostic(new vscode.Range(start, end.isBefore(start) ? start : end), p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  d.source = 'tpp';
  if (p.code) d.code = p.code;
  return d;
}

/**
 * The problems of every parsed flow file in the Problems panel and as squiggles (docs/flows-editor.md): what core's
 * `parseFlow` reports (syntax, unknown request names and `$` values, unclosed bodies), the `{{names}}` neither
 * the file, the environment nor `tpp.variables` define, and inline JSON bodies against their endpoint's contract. Set again each time a file is parsed and when the variables
 * change (all files), cleared when a file is deleted.
 */
export function registerFlowDiagnostics(flows: FlowIndex, variables: VariablesService): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('tpp-flows');
  const set = (uri: vscode.Uri) => {
    const flow = flows.get(uri);
    if (!flow) return collection.delete(uri);
    collection.set(uri, [...flow.problems, ...unknownVariableProblems(flow, variables.names(undefined, uri)), ...bodyContractProblems(flow)].map(toDiagnostic));
  };
  for (const uri of flows.uris()) set(uri);
  return vscode.Disposable.from(
    collection,
    flows.onDidChange(set),
    flows.onDidDelete((uri) => collection.delete(uri)),
    variables.onDidChange(() => flows.uris().forEach(set)),
  );
}
