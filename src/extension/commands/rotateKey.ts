import * as vscode from 'vscode';
import { generateKeyMaterial } from '../../core/jwt/keys';
import { signingKeyOf } from '../services/keyStore';
import { describeKey, labelOf, offerPublicKeyActions, pickCurve } from '../commandSupport/keys';
import { askKeyFile, keepKeyFile, keyOptionsOf } from '../commandSupport/keyFile';
import { envTargetOf } from '../commandSupport/args';
import { environmentOf } from '../commandSupport/pickEnvironment';
import { defineCommand } from './registry';

/**
 * `tpp.rotateKey`: generates a new key pair for an environment that has one, keeping the current key — which
 * still signs every request — until the user runs `tpp.confirmKeyRotation` after the administrator registered
 * the new public key. Like Generate Key Pair it can also write the new key to a file for the application (`keyFile`);
 * point the application at it once the rotation is confirmed. Returns `{env, curve, fingerprint, keyFile?}` of the new key.
 */
export const rotateKey = defineCommand({
  id: 'tpp.rotateKey',
  needs: ['environments', 'jwt', 'log'],
  args: ([arg, opts]) => ({ target: envTargetOf(arg), options: keyOptionsOf(opts) }),
  async run(services, { target, options }) {
    const { environments, log } = services;
    const env = await environmentOf(environments, target, 'Rotate Key');
    const rec = await services.jwt.record(env);
    if (rec.previous) throw new Error(`${labelOf(env)} already has a rotation waiting: confirm it (Confirm Key Rotation) or cancel it first.`);
    const current = signingKeyOf(rec);
    const interactive = !options.curve;
    const curve = options.curve ?? (await pickCurve(`New key for ${labelOf(env)}`, current.curve));
    const fileOption = options.keyFile ?? (interactive ? await askKeyFile(env) : undefined);
    const key = await generateKeyMaterial(curve);
    const keyFile = await keepKeyFile(env, key, { ...options, keyFile: fileOption });
    await environments.keys.set(env, { ...key, previous: current });
    log.info(`Started key rotation for ${labelOf(env)}: new ${describeKey(key)}, still signing with ${describeKey(current)}`);
    offerPublicKeyActions(
      services,
      env,
      `New ${curve} key pair for ${labelOf(env)}${keyFile ? `, also in ${vscode.workspace.asRelativePath(keyFile)} for your application` : ''}. Requests stay signed with the previous key until you run "Confirm Key Rotation" once the administrator has registered the new public key${keyFile ? '; then point your application at the new file' : ''}.`,
    );
    return { env, curve, fingerprint: key.fingerprint, ...(keyFile ? { keyFile } : {}) };
  },
});
