import { ENVIRONMENTS } from '../../core/environments';
import { runRequest } from '../send/runRequest';
import { cancellationDate, CancelOptions } from './cancelRegistration';
import { envOfArg, openPayload, pickRegistration, registrationRefOf } from './mainHelpers';
import { CommandDef } from './registry';

/**
 * `tpp.updateMotorClubCustomer`: opens a motor-club customer payload for a registration (node or picked), with
 * `$registrationId` (or `$invoiceNumber`) and the current customer prefilled. Send it to replace the customer.
 */
export const updateMotorClubCustomer: CommandDef = {
  id: 'tpp.updateMotorClubCustomer',
  async run(services, arg) {
    const env = envOfArg(services, arg);
    const ref = registrationRefOf(arg) ?? (await pickRegistration(env, 'motor-club', `Update motor-club customer (${ENVIRONMENTS[env].label})`, true));
    const record = (arg as { row?: { record?: Record<string, unknown> } } | undefined)?.row?.record;
    const meta = ref.id ? { $registrationId: ref.id } : { $registrationId: undefined, $invoiceNumber: ref.invoiceNumber };
    return openPayload('motor-club-customer', { ...meta, ...(record?.customer ? { customer: record.customer } : {}) });
  },
};

/** `tpp.cancelMotorClubRegistration` (PATCH with cancelledOn, by `_id` or invoice number). */
export const cancelMotorClubRegistration: CommandDef = {
  id: 'tpp.cancelMotorClubRegistration',
  async run(services, arg, options) {
    const env = envOfArg(services, arg);
    const title = `Cancel motor-club registration (${ENVIRONMENTS[env].label})`;
    const ref = registrationRefOf(arg) ?? (await pickRegistration(env, 'motor-club', title, true));
    const cancelledOn = await cancellationDate((options as CancelOptions | undefined)?.cancelledOn, title);
    const what = ref.id ? `motor-club registration ${ref.id}` : `motor-club invoice ${ref.invoiceNumber}`;
    return ref.id
      ? runRequest(services, env, 'cancelMotorClubRegistration', { params: { id: ref.id }, body: { cancelledOn } }, { title: `Cancel ${what}` })
      : runRequest(services, env, 'cancelMotorClubRegistrationByInvoice', { query: { invoiceNumber: ref.invoiceNumber }, body: { cancelledOn } }, { title: `Cancel ${what}` });
  },
};
