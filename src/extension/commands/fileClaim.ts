import { ENVIRONMENTS } from '../../core/environments';
import { envOfArg, nowIso, openPayload, pickRegistration, registrationRefOf } from './mainHelpers';
import { CommandDef } from './registry';

/**
 * `tpp.fileClaim`: opens a new tire-protection claim payload for a registration (a node, `{id}`, or picked),
 * prefilled with the registration id as `$registrationId` and its tires as the claim's original (and replacement)
 * tires. Send it with the CodeLens or "Send Payload". Resolves to the new document.
 */
export const fileClaim: CommandDef = {
  id: 'tpp.fileClaim',
  async run(services, arg) {
    const env = envOfArg(services, arg);
    let id = registrationRefOf(arg)?.id;
    if (!id) id = (await pickRegistration(services, env, 'tire-protection', `File a claim (${ENVIRONMENTS[env].label})`, false)).id;
    const reg = id ? await services.registrations.registration(env, id).catch(() => ({}) as Record<string, unknown>) : {};
    const regTires = Array.isArray(reg.tires) ? (reg.tires as Record<string, unknown>[]) : [];
    const spec = (t: Record<string, unknown>) => ({ make: t.make ?? '', model: t.model ?? '', size: t.size ?? '' });
    const tires = regTires.length ? regTires.map((t) => ({ original: spec(t), replacement: spec(t) })) : undefined;
    const amount = regTires.reduce((sum, t) => sum + (typeof t.retailPrice === 'number' ? t.retailPrice : 0), 0);
    return openPayload('tire-protection-claim', {
      $registrationId: id,
      serviceInvoiceNumber: `SRV-${Date.now().toString(36).toUpperCase()}`,
      serviceInvoiceDate: nowIso().slice(0, 10),
      ...(amount > 0 ? { authorizedAmount: Math.round(amount * 100) / 100 } : {}),
      ...(tires ? { tires } : {}),
    });
  },
};
