import * as vscode from 'vscode';
import { flowEnvironmentOf, flowUriOf, refuseBrokenFlow } from '../commandSupport/flows';
import { envChoiceOf, fieldsArg } from '../commandSupport/args';
import { uriArg } from '../commandSupport/pickEnvironment';
import { defineCommand } from './registry';

/** The flow file a target names: a URI, or a Test Explorer item's (without the fragment that names its request). */
function flowTargetOf(target: unknown): vscode.Uri | undefined {
  return uriArg(target) ?? uriArg(fieldsArg(target).uri)?.with({ fragment: '' });
}

/**
 * `tpp.resumeBackfill(target?: Uri | TestItem, env?: EnvironmentId | 'pick')` (the Test Explorer item's context menu,
 * the palette, the offer after a run that found an earlier journal): continues a data-driven flow's journal
 * (docs/backfills.md, What resume guarantees) as a Test Explorer run: ended rows are not sent again, started ones are
 * looked up by the client's duplicate check before anything is resent. Default: the active editor's flow on the
 * active environment. Resolves when the run ends.
 */
export const resumeBackfill = defineCommand({
  id: 'tpp.resumeBackfill',
  needs: ['environments', 'flowRuns', 'flows'],
  args: ([target, env]) => ({ given: flowTargetOf(target), envArg: envChoiceOf(env) }),
  async run(services, { given, envArg }) {
    const uri = flowUriOf(given);
    const env = await flowEnvironmentOf(services, envArg, 'Resume Backfill on…');
    refuseBrokenFlow(await services.flows.load(uri));
    await services.flowRuns.runInExplorer(uri, env, { resume: true });
  },
});
