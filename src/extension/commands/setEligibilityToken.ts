import * as vscode from 'vscode';
import { labelOf } from '../commandSupport/keys';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';

/**
 * `tpp.setEligibilityToken` (spec: Vehicle eligibility lookup): stores the dedicated token the provider issued
 * for the eligibility lookup — partner JWTs do not work there — as its own secret per environment. An empty
 * entry deletes it. The token is never shown or logged. Returns `true` when stored, `false` when deleted.
 */
export const setEligibilityToken = defineCommand({
  id: 'tpp.setEligibilityToken',
  needs: ['environments', 'log'],
  args: ([arg]) => ({ target: envTargetOf(arg) }),
  async run(services, { target }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Set Eligibility Token');
    const has = await environments.keys.hasEligibilityToken(env);
    const value = await vscode.window.showInputBox({
      title: `Eligibility Token for ${labelOf(env)}`,
      prompt: `The token the provider issued for the (retired) vehicle eligibility lookup.${has ? ' A token is stored; leave empty to delete it.' : ''}`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (/\s/.test(v.trim()) ? 'A token has no spaces' : undefined),
    });
    if (value === undefined) throw new UserCancelled();
    const token = value.trim().replace(/^bearer\s+/i, '');
    await environments.keys.setEligibilityToken(env, token);
    log.info(token ? `Eligibility token stored for ${labelOf(env)}` : `Eligibility token deleted for ${labelOf(env)}`);
    void vscode.window.showInformationMessage(token ? `Eligibility token stored for ${labelOf(env)} in secret storage.` : `Eligibility token of ${labelOf(env)} deleted.`);
    return token !== '';
  },
});
