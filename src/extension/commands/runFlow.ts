import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { flowEnvironmentOf, flowUriOf, refuseBrokenFlow } from '../commandSupport/flows';
import { envChoiceOf } from '../commandSupport/args';
import { uriArg } from '../commandSupport/pickEnvironment';
import { defineCommand } from './registry';

/**
 * `tpp.runFlow(uri?: Uri, env?: EnvironmentId | 'pick')` (the **Run Flow** CodeLens, the editor title, the palette):
 * runs every request of the flow file (default: the active editor's) on an environment (default: the active one) as
 * a Test Explorer run, so each request's result, duration and failed assertions show there
 * (docs/flows-editor.md). Refused while the parser reports errors. Resolves to the results (`RequestResult[]`).
 */
export const runFlow = defineCommand({
  id: 'tpp.runFlow',
  needs: ['environments', 'flowRuns', 'flows'],
  args: ([uri, env]) => ({ given: uriArg(uri), envArg: envChoiceOf(env) }),
  async run(services, { given, envArg }) {
    const uri = flowUriOf(given);
    const env = await flowEnvironmentOf(services, envArg, 'Run Flow on…');
    refuseBrokenFlow(await services.flows.load(uri));
    const results = await services.flowRuns.runInExplorer(uri, env);
    if (results.length === 0) return results; // a data-driven flow: its notification and the Test Explorer told the counts
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    const [failed, errored] = [count('failed'), count('errored')];
    const summary = `${ENVIRONMENTS[env].label}: ${vscode.workspace.asRelativePath(uri)} — ${count('passed')} passed, ${failed} failed${errored ? `, ${errored} errored` : ''}.`;
    const show = (c: string | undefined) => void (c && vscode.commands.executeCommand('workbench.view.testing.focus'));
    if (failed || errored) void vscode.window.showWarningMessage(summary, 'Show Tests').then(show);
    else void vscode.window.showInformationMessage(summary, 'Show Tests').then(show);
    return results;
  },
});
