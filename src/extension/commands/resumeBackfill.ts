import * as vscode from 'vscode';
import { flowEnvironmentOf, flowUriOf, refuseBrokenFlow, refuseNoDataFile } from '../commandSupport/flows';
import { envChoiceOf, fieldsArg, flagArg, oneOfArg } from '../commandSupport/args';
import { uriArg } from '../commandSupport/pickEnvironment';
import { readText } from '../services/flowIndex';
import type { ExplorerRunOptions } from '../services/flowRuns';
import { defineCommand } from './registry';

/** The flow file a target names: a URI, or a Test Explorer item's (without the fragment that names its request). */
function flowTargetOf(target: unknown): vscode.Uri | undefined {
  return uriArg(target) ?? uriArg(fieldsArg(target).uri)?.with({ fragment: '' });
}

/**
 * `tpp.resumeBackfill(target?: Uri | TestItem, env?: EnvironmentId | 'pick', choices?: { retryUnknown?: boolean; invalidRows?: 'send' | 'show' | 'cancel' })`
 * (the Test Explorer item's context menu,
 * the palette, the offer after a run that found an earlier journal): continues a data-driven flow's journal
 * (docs/backfills.md, What resume guarantees) as a Test Explorer run: ended rows are not sent again, started ones are
 * looked up by the client's duplicate check before anything is resent. Default: the active editor's flow on the
 * active environment. `choices.retryUnknown` resends the writes whose outcome is unknown (the offer after a resumed run
 * left some, once the user has checked them); the choices not given are asked. Resolves when the run ends.
 * @throws Error naming the file when it names no data file (nothing is sent).
 */
export const resumeBackfill = defineCommand({
  id: 'tpp.resumeBackfill',
  needs: ['environments', 'flowRuns', 'flows'],
  args: ([target, env, choices]) => {
    const c = fieldsArg(choices);
    return { given: flowTargetOf(target), envArg: envChoiceOf(env), invalidRows: oneOfArg(c.invalidRows, ['send', 'show', 'cancel'] as const), retryUnknown: flagArg(c.retryUnknown) };
  },
  async run(services, { given, envArg, invalidRows, retryUnknown }) {
    const uri = flowUriOf(given);
    refuseNoDataFile(uri, await readText(uri));
    const env = await flowEnvironmentOf(services, envArg, 'Resume Backfill on…');
    refuseBrokenFlow(await services.flows.load(uri));
    const options: ExplorerRunOptions = { ...(invalidRows ? { invalidRows } : {}), ...(retryUnknown === true ? { retryUnknown: true } : {}), resume: true };
    await services.flowRuns.runInExplorer(uri, env, options);
  },
});
