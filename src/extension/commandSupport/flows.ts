import * as vscode from 'vscode';
import { PayloadRefused } from '../../core/client/route';
import { dataDirectiveOf } from '../../core/backfill/directive';
import type { FlowFile } from '../../core/flows/types';
import type { EnvironmentId } from '../../core/environments';
import type { EnvChoice } from './args';
import type { EnvironmentModel } from '../services/environmentModel';
import { pickEnvironment } from './pickEnvironment';

/** The flow file of a command: the URI argument, else the active editor's document when it is a flow. */
export function flowUriOf(arg: vscode.Uri | undefined): vscode.Uri {
  if (arg) return arg;
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && (doc.languageId === 'http' || /\.(http|rest)$/i.test(doc.uri.path))) return doc.uri;
  throw new Error('Open a flow file (.http) first: its requests are what runs.');
}

/** The environment of a command: an id, `'pick'` to ask, else the active one. */
export async function flowEnvironmentOf(services: { readonly environments: EnvironmentModel }, arg: EnvChoice, title: string): Promise<EnvironmentId> {
  if (arg === 'pick') return pickEnvironment(services.environments, undefined, title);
  return arg ?? services.environments.active.get();
}

/** Refuses a flow whose parser found errors (docs/flows-editor.md): one line per problem, with Show Problems. */
export function refuseBrokenFlow(flow: FlowFile): void {
  const errors = flow.problems.filter((p) => p.severity === 'error');
  if (!errors.length) return;
  const name = vscode.workspace.asRelativePath(vscode.Uri.parse(flow.file));
  throw new PayloadRefused(`Not run: ${name} has ${errors.length} error${errors.length === 1 ? '' : 's'}.`, errors.map((p) => `line ${p.line}: ${p.message}`));
}

/**
 * Refuses Resume Backfill on a flow that names no data file (no `# @data` line): it has no journal to continue, and
 * running it would send its requests again (docs/flows-editor.md, Data-driven flows).
 */
export function refuseNoDataFile(uri: vscode.Uri, text: string): void {
  if (dataDirectiveOf(text) !== undefined) return;
  throw new Error(`${vscode.workspace.asRelativePath(uri)} names no data file (a "# @data ./rows.csv" line): it is no backfill, so there is nothing to resume and nothing was sent. Run it from the Test Explorer instead.`);
}
