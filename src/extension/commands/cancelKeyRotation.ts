import * as vscode from 'vscode';
import { confirmModal, describeKey, labelOf } from '../commandSupport/keys';
import { pickEnvironment } from '../commandSupport/pickEnvironment';
import { CommandDef, UserCancelled } from './registry';

/** `tpp.cancelKeyRotation`: discards the new key of an unconfirmed rotation and keeps the previous one (modal confirmation). */
export const cancelKeyRotation: CommandDef = {
  id: 'tpp.cancelKeyRotation',
  async run(services, arg, opts) {
    const { environments, log } = services;
    const env = await pickEnvironment(environments, arg ?? environments.active.get(), 'Cancel Key Rotation');
    const rec = await services.jwt.record(env);
    if (!rec.previous) {
      void vscode.window.showInformationMessage(`${labelOf(env)} has no key rotation to cancel.`);
      return false;
    }
    const ok = await confirmModal(opts, `Discard the new key of ${labelOf(env)} (${describeKey(rec)})?`, `The previous key (${describeKey(rec.previous)}) stays the signing key.`, 'Discard New Key');
    if (!ok) throw new UserCancelled();
    await environments.keys.set(env, rec.previous);
    log.info(`Key rotation cancelled for ${labelOf(env)}`);
    return true;
  },
};
