import * as vscode from 'vscode';
import type { FlowFile, FlowProblem } from '../../core/flows/types';
import { readText, type FlowIndex } from '../services/flowIndex';
import type { VariablesService } from '../services/variables';
import { bodyContractProblems } from './bodyContract';
import type { DataColumnsReader } from './rowColumns';
import { rowProblems, rowReferences } from './rowProblems';
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
export const ENVIRONMENT_NAMES = () => Object.keys(environmentVariablesOf({ id: 'local', baseUrl: '' }));

/** Data files a flow may read (docs/backfills.md, Data files), by extension: a save of one checks the flows again. */
const DATA_FILE_RE = /\.(csv|json|ndjson|jsonl)$/i;

/**
 * The problems of every parsed flow file in the Problems panel and as squiggles (docs/flows-editor.md): what core's
 * `parseFlow` reports (syntax, unknown request names and `$` values, unclosed bodies, malformed `# @var` lines), the
 * `{{names}}` neither the file (`@name = …`, `# @var name`), the environment nor `tpp.variables` define and the body
 * files its run may not read (core's `checkFlowForRun` with `read`, which judges a path as the run's reader does, as `tpp run` checks before
 * sending and the editor before its first request: docs/flows.md, What a flow may do), `{{row.<column>}}` against the columns of the `# @data`
 * file (rowColumns.ts), and inline JSON bodies against the contract of the endpoint their request line names. A name
 * declared with `# @var` is given when the flow runs: the editor does not ask for it here. Set again each time a
 * file is parsed, when the variables change and when a data file is saved (all files); cleared when a file is deleted.
 */
export function registerFlowDiagnostics(flows: FlowIndex, variables: VariablesService, data: DataColumnsReader, read: (uri: vscode.Uri) => (path: string) => Promise<string>): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('tpp-flows');
  const set = async (uri: vscode.Uri): Promise<void> => {
    const flow = flows.get(uri);
    if (!flow) return collection.delete(uri);
    const used = [...new Set(rowReferences(flow).map((r) => r.column))];
    const rows = used.length ? await rowsOf(uri, flow, used) : { names: [], problems: [] };
    const declared = (flow.declared ?? []).map((d) => d.name);
    const unknown = await checkFlowForRun(flow, { names: new Set([...ENVIRONMENT_NAMES(), ...variables.names(undefined, uri), ...declared, ...rows.names]), readFile: read(uri) });
    if (flows.get(uri) !== flow) return; // parsed again meanwhile: that parse sets them
    collection.set(uri, [...flow.problems, ...unknown, ...rows.problems, ...bodyContractProblems(flow)].map(toDiagnostic));
  };
  const rowsOf = async (uri: vscode.Uri, flow: FlowFile, used: readonly string[]) => {
    try {
      return rowProblems(flow, await data.of(uri, await readText(uri), used));
    } catch {
      return { names: used.map((c) => `row.${c}`), problems: [] }; // the flow is gone meanwhile: its next parse sets them
    }
  };
  const all = () => flows.uris().forEach((uri) => void set(uri));
  all();
  return vscode.Disposable.from(
    collection,
    flows.onDidChange((uri) => void set(uri)),
    flows.onDidDelete((uri) => collection.delete(uri)),
    variables.onDidChange(all),
    vscode.workspace.onDidSaveTextDocument((d) => {
      if (DATA_FILE_RE.test(d.uri.path)) all();
    }),
  );
}
