import * as vscode from 'vscode';
import { publicKeyPem } from '../../core/jwt/keys';
import { describeKey, labelOf } from '../commandSupport/keys';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand } from './registry';

/**
 * `tpp.copyPublicKey` (spec: Authentication, item 2): copies the environment's public key as SPKI PEM
 * (`-----BEGIN PUBLIC KEY-----`), the form the administrator asks for. During a rotation it is the new key's.
 * Returns the fingerprint (hex).
 */
export const copyPublicKey = defineCommand({
  id: 'tpp.copyPublicKey',
  needs: ['environments', 'jwt', 'log', 'marks'],
  args: ([arg]) => ({ target: envTargetOf(arg) }),
  async run(services, { target }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Copy Public Key');
    const rec = await services.jwt.record(env);
    await vscode.env.clipboard.writeText(publicKeyPem(rec));
    await services.marks.markExported(env, rec.fingerprint);
    log.info(`Public key of ${labelOf(env)} copied (${describeKey(rec)})`);
    void vscode.window.showInformationMessage(`Public key of ${labelOf(env)} (${describeKey(rec)}) copied as PEM: send it to the administrator.`);
    return rec.fingerprint;
  },
});
