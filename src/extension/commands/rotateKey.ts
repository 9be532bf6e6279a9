import * as vscode from 'vscode';
import { isCurve } from '../../core/jwt/algorithms';
import { generateKeyMaterial } from '../../core/jwt/keys';
import { signingKeyOf } from '../services/keyStore';
import { describeKey, KeyCommandOptions, labelOf, offerPublicKeyActions, pickCurve } from '../commandSupport/keys';
import { askKeyFile, keepKeyFile, type KeyFileOptions } from '../commandSupport/keyFile';
import { pickEnvironment } from '../commandSupport/pickEnvironment';
import { CommandDef } from './registry';

/**
 * `tpp.rotateKey`: generates a new key pair for an environment that has one, keeping the current key — which
 * still signs every request — until the user runs `tpp.confirmKeyRotation` after the administrator registered
 * the new public key. Like Generate Key Pair it can also write the new key to a file for the application (`keyFile`);
 * point the application at it once the rotation is confirmed. Returns `{env, curve, fingerprint, keyFile?}` of the new key.
 */
export const rotateKey: CommandDef = {
  id: 'tpp.rotateKey',
  async run(services, arg, opts) {
    const { environments, log } = services;
    const options = (opts ?? {}) as KeyCommandOptions & KeyFileOptions;
    const env = await pickEnvironment(environments, arg ?? environments.active.get(), 'Rotate Key');
    const rec = await services.jwt.record(env);
    if (rec.previous) throw new Error(`${labelOf(env)} already has a rotation waiting: confirm it (Confirm Key Rotation) or cancel it first.`);
    const current = signingKeyOf(rec);
    const interactive = !(options.curve && isCurve(options.curve));
    const curve = options.curve && isCurve(options.curve) ? options.curve : await pickCurve(`New key for ${labelOf(env)}`, current.curve);
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
};
