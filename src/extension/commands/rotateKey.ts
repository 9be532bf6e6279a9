import { isCurve } from '../../core/jwt/algorithms';
import { generateKeyMaterial } from '../../core/jwt/keys';
import { signingKeyOf } from '../services/keyStore';
import { describeKey, KeyCommandOptions, labelOf, offerPublicKeyActions, pickCurve } from './keyHelpers';
import { pickEnvironment } from './pickEnvironment';
import { CommandDef } from './registry';

/**
 * `tpp.rotateKey`: generates a new key pair for an environment that has one, keeping the current key — which
 * still signs every request — until the user runs `tpp.confirmKeyRotation` after the administrator registered
 * the new public key. Returns `{env, curve, fingerprint}` of the new key.
 */
export const rotateKey: CommandDef = {
  id: 'tpp.rotateKey',
  async run(services, arg, opts) {
    const { environments, log } = services;
    const options = (opts ?? {}) as KeyCommandOptions;
    const env = await pickEnvironment(environments, arg ?? environments.active.get(), 'Rotate Key');
    const rec = await services.jwt.record(env);
    if (rec.previous) throw new Error(`${labelOf(env)} already has a rotation waiting: confirm it (Confirm Key Rotation) or cancel it first.`);
    const current = signingKeyOf(rec);
    const curve = options.curve && isCurve(options.curve) ? options.curve : await pickCurve(`New key for ${labelOf(env)}`, current.curve);
    const key = await generateKeyMaterial(curve);
    await environments.keys.set(env, { ...key, previous: current });
    log.info(`Started key rotation for ${labelOf(env)}: new ${describeKey(key)}, still signing with ${describeKey(current)}`);
    offerPublicKeyActions(
      services,
      env,
      `New ${curve} key pair for ${labelOf(env)}. Requests stay signed with the previous key until you run "Confirm Key Rotation" once the administrator has registered the new public key.`,
    );
    return { env, curve, fingerprint: key.fingerprint };
  },
};
