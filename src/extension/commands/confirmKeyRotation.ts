import * as vscode from 'vscode';
import { confirmModal, describeKey, labelOf } from '../commandSupport/keys';
import { confirmedArg, envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';

/**
 * `tpp.confirmKeyRotation`: after the administrator registered the new public key, makes the new key the
 * signing key and deletes the previous one (modal confirmation, or `{confirmed: true}`). Returns `true` when done.
 */
export const confirmKeyRotation = defineCommand({
  id: 'tpp.confirmKeyRotation',
  needs: ['environments', 'jwt', 'log'],
  args: ([arg, opts]) => ({ target: envTargetOf(arg), confirmed: confirmedArg(opts) }),
  async run(services, { target, confirmed }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Confirm Key Rotation');
    const rec = await services.jwt.record(env);
    if (!rec.previous) {
      void vscode.window.showInformationMessage(`${labelOf(env)} has no key rotation waiting for confirmation.`);
      return false;
    }
    const ok = await confirmModal(
      confirmed,
      `Has the administrator registered the new public key of ${labelOf(env)} (${describeKey(rec)})?`,
      `Requests will then be signed with the new key, and the previous key (${describeKey(rec.previous)}) is deleted for good.`,
      'Registered: Use New Key',
    );
    if (!ok) throw new UserCancelled();
    const { previous: _previous, ...current } = rec;
    await environments.keys.set(env, current);
    log.info(`Key rotation confirmed for ${labelOf(env)}: signing with ${describeKey(current)}`);
    void vscode.window.showInformationMessage(`${labelOf(env)} now signs with the new key (${describeKey(current)}); the previous key was deleted.`);
    return true;
  },
});
