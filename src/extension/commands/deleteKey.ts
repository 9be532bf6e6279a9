import { ENVIRONMENTS } from '../../core/environments';
import { confirmModal, describeKey, labelOf } from '../commandSupport/keys';
import { confirmedArg, envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';
import * as vscode from 'vscode';

/**
 * `tpp.deleteKey`: deletes the environment's private key (and a kept previous key) from SecretStorage after a
 * modal confirmation (skipped with a second argument `{confirmed: true}`). Returns `true` when deleted.
 */
export const deleteKey = defineCommand({
  id: 'tpp.deleteKey',
  needs: ['environments', 'log'],
  args: ([arg, opts]) => ({ target: envTargetOf(arg), confirmed: confirmedArg(opts) }),
  async run(services, { target, confirmed }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Delete Key');
    const summary = await environments.keys.summary(env);
    if (!summary && !(await environments.keys.has(env))) {
      void vscode.window.showInformationMessage(`${labelOf(env)} has no key pair to delete.`);
      return false;
    }
    const what = summary ? `${describeKey(summary.pending ?? summary.signing)}${summary.pending ? ' and the previous key' : ''}` : 'an unreadable key';
    const ok = await confirmModal(
      confirmed,
      `Delete the private key of ${labelOf(env)} (${what})?`,
      `It cannot be recovered.${ENVIRONMENTS[env].remote ? ' Requests fail until you generate or import another key and the administrator registers its public key.' : ''}`,
      'Delete Key',
    );
    if (!ok) throw new UserCancelled();
    await environments.keys.delete(env);
    log.info(`Deleted the key pair of ${labelOf(env)}`);
    void vscode.window.showInformationMessage(`The key pair of ${labelOf(env)} was deleted.`);
    return true;
  },
});
