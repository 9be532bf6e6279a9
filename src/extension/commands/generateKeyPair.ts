import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { generateKeyMaterial } from '../../core/jwt/keys';
import { describeKey, labelOf, offerPublicKeyActions, pickCurve } from '../commandSupport/keys';
import { askKeyFile, keepKeyFile, keyOptionsOf } from '../commandSupport/keyFile';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand, UserCancelled } from './registry';

/**
 * `tpp.generateKeyPair` (spec: Authentication, item 2): creates an ECDSA key pair for an environment (the
 * argument's, else the active one) on P-256 (default), P-384 or P-521 with jose and stores the private key
 * only in SecretStorage. When the environment already has a key, offers rotation (keeps the previous key until
 * the administrator registered the new one) or replacement. Asked interactively (or with `keyFile` in the options), it
 * also writes the new private key to a file for the user's application (PKCS#8 PEM, mode 0600) before storing it, so
 * that the application and the editor sign with the key the administrator registers. Returns
 * `{env, curve, fingerprint, keyFile?}` (nothing secret).
 */
export const generateKeyPair = defineCommand({
  id: 'tpp.generateKeyPair',
  needs: ['environments', 'log'],
  args: ([arg, opts]) => ({ target: envTargetOf(arg), options: keyOptionsOf(opts) }),
  async run(services, { target, options }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Generate Key Pair');
    const existing = await environments.keys.summary(env);
    if (existing) {
      const choice = options.existing === 'rotate' ? 'Rotate Key…' : options.existing === 'replace' ? 'Replace' : await vscode.window.showWarningMessage(
        `${labelOf(env)} already has a key pair (${describeKey(existing.pending ?? existing.signing)}).`,
        {
          modal: true,
          detail: ENVIRONMENTS[env].remote
            ? 'Rotate keeps the current key for signing until you confirm that the administrator registered the new public key. Replace deletes the current key now: requests fail until the new public key is registered.'
            : 'Replace deletes the current key.',
        },
        ...(ENVIRONMENTS[env].remote && !existing.pending ? ['Rotate Key…'] : []),
        'Replace',
      );
      if (choice === 'Rotate Key…') return vscode.commands.executeCommand('tpp.rotateKey', env, options);
      if (choice !== 'Replace') throw new UserCancelled();
    }
    const interactive = !options.curve;
    const curve = options.curve ?? (await pickCurve(`Generate Key Pair for ${labelOf(env)}`));
    const fileOption = options.keyFile ?? (interactive ? await askKeyFile(env) : undefined);
    const key = await generateKeyMaterial(curve);
    const keyFile = await keepKeyFile(env, key, { ...options, keyFile: fileOption });
    await environments.keys.set(env, key);
    log.info(`Generated key pair for ${labelOf(env)}: ${describeKey(key)}`);
    offerPublicKeyActions(
      services,
      env,
      `Generated a ${curve} key pair for ${labelOf(env)} (${key.alg}). ${keyFile ? `The private key is in VS Code's secret storage and, for your application, in ${vscode.workspace.asRelativePath(keyFile)} (mode 0600).` : "The private key is kept only in VS Code's secret storage."}${ENVIRONMENTS[env].remote ? ' Send the public key to the administrator.' : ''}`,
    );
    return { env, curve, fingerprint: key.fingerprint, ...(keyFile ? { keyFile } : {}) };
  },
});
