import * as vscode from 'vscode';
import { labelOf } from '../commandSupport/keys';
import { pickEnvironment } from '../commandSupport/pickEnvironment';
import { CommandDef, UserCancelled } from './registry';

/**
 * `tpp.setEligibilityToken` (spec: Vehicle eligibility lookup): stores the dedicated token the provider issued
 * for the eligibility lookup — partner JWTs do not work there — as its own secret per environment. An empty
 * entry deletes it. The token is never shown or logged. Returns `true` when stored, `false` when deleted.
 */
export const setEligibilityToken: CommandDef = {
  id: 'tpp.setEligibilityToken',
  async run(services, arg) {
    const { environments, log } = services;
    const env = await pickEnvironment(environments, arg ?? environments.active.get(), 'Set Eligibility Token');
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
};
