import * as vscode from 'vscode';
import { defineCommand } from './registry';
import { envOf, productOf } from '../commandSupport/treeArgs';

/** `tpp.loadMoreRegistrations` (the "Load more…" row): loads the next page. Resolves to the rows added. */
export const loadMoreRegistrations = defineCommand({
  id: 'tpp.loadMoreRegistrations',
  needs: ['environments', 'registrations'],
  args: ([arg, second]) => ({ rowEnv: envOf(arg), product: productOf(arg, second) }),
  run(services, { rowEnv, product }) {
    const env = rowEnv ?? services.environments.active.get();
    return vscode.window.withProgress({ location: { viewId: 'tpp.environments' } }, () => services.registrations.loadMore(env, product));
  },
});
