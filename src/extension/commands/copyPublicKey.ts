import * as vscode from 'vscode';
import { publicKeyPem } from '../../core/jwt/keys';
import { describeKey, labelOf } from '../commandSupport/keys';
import { pickEnvironment } from '../commandSupport/pickEnvironment';
import { CommandDef } from './registry';

/**
 * `tpp.copyPublicKey` (spec: Authentication, item 2): copies the environment's public key as SPKI PEM
 * (`-----BEGIN PUBLIC KEY-----`), the form the administrator asks for. During a rotation it is the new key's.
 * Returns the fingerprint (hex).
 */
export const copyPublicKey: CommandDef = {
  id: 'tpp.copyPublicKey',
  async run(services, arg) {
    const { environments, log } = services;
    const env = await pickEnvironment(environments, arg ?? environments.active.get(), 'Copy Public Key');
    const rec = await services.jwt.record(env);
    await vscode.env.clipboard.writeText(publicKeyPem(rec));
    await services.marks.markExported(env, rec.fingerprint);
    log.info(`Public key of ${labelOf(env)} copied (${describeKey(rec)})`);
    void vscode.window.showInformationMessage(`Public key of ${labelOf(env)} (${describeKey(rec)}) copied as PEM: send it to the administrator.`);
    return rec.fingerprint;
  },
};
