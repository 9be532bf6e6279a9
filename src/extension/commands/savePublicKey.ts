import * as vscode from 'vscode';
import { publicKeyPem } from '../../core/jwt/keys';
import { describeKey, labelOf } from '../commandSupport/keys';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf, uriArg } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';

/**
 * `tpp.savePublicKey`: saves the environment's public key (SPKI PEM) to a file chosen in a save dialog
 * (default name `tpp-<env>-public.pem`); a `vscode.Uri` second argument skips the dialog. Returns the URI.
 */
export const savePublicKey = defineCommand({
  id: 'tpp.savePublicKey',
  needs: ['environments', 'jwt', 'log', 'marks'],
  args: ([arg, file]) => ({ target: envTargetOf(arg), file: uriArg(file) }),
  async run(services, { target, file }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Save Public Key');
    const rec = await services.jwt.record(env);
    let uri = file;
    if (!uri) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = `tpp-${env}-public.pem`;
      uri = await vscode.window.showSaveDialog({
        title: `Save Public Key of ${labelOf(env)}`,
        defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
        filters: { 'PEM public key': ['pem'] },
        saveLabel: 'Save Public Key',
      });
      if (!uri) throw new UserCancelled();
    }
    await vscode.workspace.fs.writeFile(uri, Buffer.from(publicKeyPem(rec), 'utf8'));
    await services.marks.markExported(env, rec.fingerprint);
    log.info(`Public key of ${labelOf(env)} saved to ${uri.toString(true)} (${describeKey(rec)})`);
    void vscode.window.showInformationMessage(`Public key of ${labelOf(env)} saved to ${vscode.workspace.asRelativePath(uri)}: send this file to the administrator.`);
    return uri;
  },
});
