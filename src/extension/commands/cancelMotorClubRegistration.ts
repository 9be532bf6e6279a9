import { ENVIRONMENTS } from '../../core/environments';
import { runRequest } from '../send/runRequest';
import { MOTOR_CLUB_CANCELLABLE } from '../../core/listing/registrationPages';
import { cancellationDate, CancelOptions } from './cancelRegistration';
import { pickRegistration, registrationName } from '../commandSupport/registrations';
import { envOfArg, registrationRefOf } from '../commandSupport/treeArgs';
import { CommandDef } from './registry';

/** `tpp.cancelMotorClubRegistration` (PATCH with cancelledOn, by `_id` or invoice number). */
export const cancelMotorClubRegistration: CommandDef = {
  id: 'tpp.cancelMotorClubRegistration',
  async run(services, arg, options) {
    const env = envOfArg(services, arg);
    const title = `Cancel motor-club registration (${ENVIRONMENTS[env].label})`;
    const ref = registrationRefOf(arg) ?? (await pickRegistration(services, env, 'motor-club', title, true, MOTOR_CLUB_CANCELLABLE));
    const cancelledOn = await cancellationDate((options as CancelOptions | undefined)?.cancelledOn, title);
    const what = `motor-club registration ${registrationName(services, env, 'motor-club', ref)}`;
    return ref.id
      ? runRequest(services, env, 'cancelMotorClubRegistration', { params: { id: ref.id }, body: { cancelledOn } }, { title: `Cancel ${what}` })
      : runRequest(services, env, 'cancelMotorClubRegistrationByInvoice', { query: { invoiceNumber: ref.invoiceNumber }, body: { cancelledOn } }, { title: `Cancel ${what}` });
  },
};
