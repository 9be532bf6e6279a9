import { ENVIRONMENTS } from '../../core/environments';
import { openPayload, pickRegistration } from '../commandSupport/registrations';
import { envOfArg, registrationRefOf, treeArgOf } from '../commandSupport/treeArgs';
import { CommandDef } from './registry';

/**
 * `tpp.updateMotorClubCustomer`: opens a motor-club customer payload for a registration (node or picked), with
 * `$registrationId` (or `$invoiceNumber`) and the current customer prefilled. Send it to replace the customer.
 */
export const updateMotorClubCustomer: CommandDef = {
  id: 'tpp.updateMotorClubCustomer',
  async run(services, arg) {
    const env = envOfArg(services, arg);
    const ref = registrationRefOf(arg) ?? (await pickRegistration(services, env, 'motor-club', `Update motor-club customer (${ENVIRONMENTS[env].label})`, true));
    const row = treeArgOf(arg);
    const record = row?.node === 'motorClub' || row?.node === 'registration' ? row.record : undefined;
    const meta = ref.id ? { $registrationId: ref.id } : { $registrationId: undefined, $invoiceNumber: ref.invoiceNumber };
    return openPayload('motor-club-customer', { ...meta, ...(record?.customer ? { customer: record.customer } : {}) });
  },
};
