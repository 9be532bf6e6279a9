import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { runRequest } from '../send/runRequest';
import { envOfArg } from '../commandSupport/treeArgs';
import { CommandDef, UserCancelled } from './registry';

/** `tpp.lookUpShop` (GET /tire-protection/shops/lookup?query=): by phone number, or name and address. */
export const lookUpShop: CommandDef = {
  id: 'tpp.lookUpShop',
  async run(services, arg, given) {
    const env = envOfArg(services, arg);
    let query = typeof given === 'string' ? given : undefined;
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
};
