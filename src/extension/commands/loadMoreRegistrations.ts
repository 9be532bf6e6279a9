import * as vscode from 'vscode';
import { CommandDef } from './registry';
import { envOfArg, productOf } from '../commandSupport/treeArgs';

/** `tpp.loadMoreRegistrations` (the "Load more…" row): loads the next page. Resolves to the rows added. */
export const loadMoreRegistrations: CommandDef = {
  id: 'tpp.loadMoreRegistrations',
  run(services, arg, product) {
    const env = envOfArg(services, arg);
    return vscode.window.withProgress({ location: { viewId: 'tpp.environments' } }, () => services.registrations.loadMore(env, productOf(arg, product)));
  },
};
