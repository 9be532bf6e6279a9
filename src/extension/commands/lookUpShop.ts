import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { runRequest } from '../send/runRequest';
import { envOf } from '../commandSupport/treeArgs';
import { textArg } from '../commandSupport/args';
import { defineCommand, UserCancelled } from './registry';

/** `tpp.lookUpShop` (GET /tire-protection/shops/lookup?query=): by phone number, or name and address. */
export const lookUpShop = defineCommand({
  id: 'tpp.lookUpShop',
  needs: ['api', 'environments', 'log', 'responses'],
  args: ([arg, given]) => ({ rowEnv: envOf(arg), given: textArg(given) }),
  async run(services, { rowEnv, given }) {
    const env = rowEnv ?? services.environments.active.get();
    let query = given;
    if (!query) {
      query = await vscode.window.showInputBox({
        title: `Look Up Shop (${ENVIRONMENTS[env].label})`,
        prompt: 'Phone number (international format), or name and address of the shop',
        validateInput: (s) => (s.trim() ? undefined : 'Enter a phone number, or a name and address'),
      });
      if (!query) throw new UserCancelled();
    }
    return runRequest(services, env, 'lookupShop', { query: { query: query.trim() } }, { title: `Look up shop "${query.trim()}"`, reveal: 'always' });
  },
});
