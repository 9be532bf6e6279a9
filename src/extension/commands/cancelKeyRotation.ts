import * as vscode from 'vscode';
import { confirmModal, describeKey, labelOf } from '../commandSupport/keys';
import { confirmedArg, envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';

/** `tpp.cancelKeyRotation`: discards the new key of an unconfirmed rotation and keeps the previous one (modal confirmation). */
export const cancelKeyRotation = defineCommand({
  id: 'tpp.cancelKeyRotation',
  needs: ['environments', 'jwt', 'log'],
  args: ([arg, opts]) => ({ target: envTargetOf(arg), confirmed: confirmedArg(opts) }),
  async run(services, { target, confirmed }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Cancel Key Rotation');
    const rec = await services.jwt.record(env);
    if (!rec.previous) {
      void vscode.window.showInformationMessage(`${labelOf(env)} has no key rotation to cancel.`);
      return false;
    }
    const ok = await confirmModal(confirmed, `Discard the new key of ${labelOf(env)} (${describeKey(rec)})?`, `The previous key (${describeKey(rec.previous)}) stays the signing key.`, 'Discard New Key');
    if (!ok) throw new UserCancelled();
    await environments.keys.set(env, rec.previous);
    log.info(`Key rotation cancelled for ${labelOf(env)}`);
    return true;
  },
});
