import { ENVIRONMENTS } from '../../core/environments';
import { runRequest } from '../send/runRequest';
import { MOTOR_CLUB_CANCELLABLE } from '../../core/listing/registrationPages';
import { cancellationDate } from './cancelRegistration';
import { pickRegistration, registrationName } from '../commandSupport/registrations';
import { fieldsArg, textArg } from '../commandSupport/args';
import { envOf, registrationRefOf } from '../commandSupport/treeArgs';
import { defineCommand } from './registry';

/** `tpp.cancelMotorClubRegistration` (PATCH with cancelledOn, by `_id` or invoice number). */
export const cancelMotorClubRegistration = defineCommand({
  id: 'tpp.cancelMotorClubRegistration',
  needs: ['api', 'environments', 'log', 'registrations', 'responses'],
  args: ([arg, options]) => ({ rowEnv: envOf(arg), ref: registrationRefOf(arg), cancelledOn: textArg(fieldsArg(options).cancelledOn) }),
  async run(services, { rowEnv, ref: given, cancelledOn: givenDate }) {
    const env = rowEnv ?? services.environments.active.get();
    const title = `Cancel motor-club registration (${ENVIRONMENTS[env].label})`;
    const ref = given ?? (await pickRegistration(services, env, 'motor-club', title, true, MOTOR_CLUB_CANCELLABLE));
    const cancelledOn = await cancellationDate(givenDate, title);
    const what = `motor-club registration ${registrationName(services, env, 'motor-club', ref)}`;
    return ref.id
      ? runRequest(services, env, 'cancelMotorClubRegistration', { params: { id: ref.id }, body: { cancelledOn } }, { title: `Cancel ${what}` })
      : runRequest(services, env, 'cancelMotorClubRegistrationByInvoice', { query: { invoiceNumber: ref.invoiceNumber }, body: { cancelledOn } }, { title: `Cancel ${what}` });
  },
});
