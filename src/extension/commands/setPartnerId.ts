import * as vscode from 'vscode';
import { defineCommand, UserCancelled } from './registry';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { ENVIRONMENTS } from '../../core/environments';

/**
 * `tpp.setPartnerId`: asks for the Partner ID the administrator returned (spec: Authentication, item 2)
 * and stores it in the user setting `tpp.<env>.partnerId` (application scope). Local generates its own.
 */
export const setPartnerId = defineCommand({
  id: 'tpp.setPartnerId',
  needs: ['environments', 'log'],
  args: ([arg]) => ({ target: envTargetOf(arg) }),
  async run({ environments, log }, { target }) {
    const env = await environmentOf(environments, target, 'Set Partner ID', (id) => ENVIRONMENTS[id].remote);
    if (env === 'local') throw new UserCancelled();
    const current = environments.settings.remote(env)?.partnerId ?? '';
    const value = await vscode.window.showInputBox({
      title: `Partner ID for ${ENVIRONMENTS[env].label}`,
      prompt: 'The Partner ID the administrator returned after registering your public key (the JWT iss).',
      value: current,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? 'Enter the Partner ID' : /\s/.test(v.trim()) ? 'A Partner ID has no spaces' : undefined),
    });
    if (value === undefined) throw new UserCancelled();
    await environments.settings.setPartnerId(env, value.trim());
    log.info(`Partner ID set for ${ENVIRONMENTS[env].label}`);
  },
});
