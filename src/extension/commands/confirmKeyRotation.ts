import * as vscode from 'vscode';
import { confirmModal, describeKey, labelOf } from '../commandSupport/keys';
import { pickEnvironment } from '../commandSupport/pickEnvironment';
import { CommandDef, UserCancelled } from './registry';

/**
 * `tpp.confirmKeyRotation`: after the administrator registered the new public key, makes the new key the
 * signing key and deletes the previous one (modal confirmation, or `{confirmed: true}`). Returns `true` when done.
 */
export const confirmKeyRotation: CommandDef = {
  id: 'tpp.confirmKeyRotation',
  async run(services, arg, opts) {
    const { environments, log } = services;
    const env = await pickEnvironment(environments, arg ?? environments.active.get(), 'Confirm Key Rotation');
    const rec = await services.jwt.record(env);
    if (!rec.previous) {
      void vscode.window.showInformationMessage(`${labelOf(env)} has no key rotation waiting for confirmation.`);
      return false;
    }
    const ok = await confirmModal(
      opts,
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
};
