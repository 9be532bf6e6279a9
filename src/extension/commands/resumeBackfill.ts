import * as vscode from 'vscode';
import { flowEnvironmentOf, flowUriOf, refuseBrokenFlow } from '../commandSupport/flows';
import type { ExplorerRunOptions } from '../services/flowRuns';
import { CommandDef } from './registry';

/**
 * `tpp.resumeBackfill(target?: Uri | TestItem, env?: EnvironmentId | 'pick', choices?: { retryUnknown?: boolean; invalidRows?: 'send' | 'show' | 'cancel' })`
 * (the Test Explorer item's context menu,
 * the palette, the offer after a run that found an earlier journal): continues a data-driven flow's journal
 * (docs/backfills.md, What resume guarantees) as a Test Explorer run: ended rows are not sent again, started ones are
 * looked up by the client's duplicate check before anything is resent. Default: the active editor's flow on the
 * active environment. `choices.retryUnknown` resends the writes whose outcome is unknown (the offer after a resumed run
 * left some, once the user has checked them); the choices not given are asked. Resolves when the run ends.
 */
export const resumeBackfill: CommandDef = {
  id: 'tpp.resumeBackfill',
  async run(services, target, envArg, choices) {
    const item = target as { uri?: unknown } | undefined;
    const uri = flowUriOf(target instanceof vscode.Uri ? target : item?.uri instanceof vscode.Uri ? item.uri.with({ fragment: '' }) : undefined);
    const env = await flowEnvironmentOf(services, envArg, 'Resume Backfill on…');
    refuseBrokenFlow(await services.flows.load(uri));
    const given = (choices ?? {}) as ExplorerRunOptions;
    await services.flowRuns.runInExplorer(uri, env, { ...(given.invalidRows ? { invalidRows: given.invalidRows } : {}), ...(given.retryUnknown === true ? { retryUnknown: true } : {}), resume: true });
  },
};
