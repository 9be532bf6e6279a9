import { ENVIRONMENTS } from '../../core/environments';
import { openPayload, pickRegistration } from '../commandSupport/registrations';
import { envOf, registrationRefOf, treeArgOf } from '../commandSupport/treeArgs';
import { defineCommand } from './registry';

/**
 * `tpp.updateMotorClubCustomer`: opens a motor-club customer payload for a registration (node or picked), with
 * `$registrationId` (or `$invoiceNumber`) and the current customer prefilled. Send it to replace the customer.
 */
export const updateMotorClubCustomer = defineCommand({
  id: 'tpp.updateMotorClubCustomer',
  needs: ['environments', 'registrations'],
  args: ([arg]) => {
    const row = treeArgOf(arg);
    return { rowEnv: envOf(arg), given: registrationRefOf(arg), record: row?.node === 'motorClub' || row?.node === 'registration' ? row.record : undefined };
  },
  async run(services, { rowEnv, given, record }) {
    const env = rowEnv ?? services.environments.active.get();
    const ref = given ?? (await pickRegistration(services, env, 'motor-club', `Update motor-club customer (${ENVIRONMENTS[env].label})`, true));
    const meta = ref.id ? { $registrationId: ref.id } : { $registrationId: undefined, $invoiceNumber: ref.invoiceNumber };
    return openPayload('motor-club-customer', { ...meta, ...(record?.customer ? { customer: record.customer } : {}) });
  },
});
