import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { runRequest } from '../send/runRequest';
import { CANCELLABLE } from '../../core/listing/registrationPages';
import { nowIso, pickRegistration, registrationName } from '../commandSupport/registrations';
import { fieldsArg, textArg } from '../commandSupport/args';
import { envOf, registrationRefOf, RegistrationRef } from '../commandSupport/treeArgs';
import { defineCommand, UserCancelled } from './registry';

/** Asks for the cancellation date (default: now) unless given; validates ISO 8601. */
export async function cancellationDate(given: string | undefined, title: string): Promise<string> {
  if (given) return given;
  const v = await vscode.window.showInputBox({
    title,
    prompt: 'cancelledOn (ISO 8601 date or date-time; default: now)',
    value: nowIso(),
    validateInput: (s) => (Number.isNaN(Date.parse(s)) || !/^\d{4}-\d\d-\d\d/.test(s) ? 'An ISO 8601 date such as 2025-06-30 or 2025-06-30T17:00:00Z' : undefined),
  });
  if (!v) throw new UserCancelled();
  return v.trim();
}

/**
 * `tpp.cancelRegistration` (spec: Tire-protection registrations, PATCH with cancelledOn): cancels by `_id`
 * (a registration node or `{id}`), or by invoice number (with store number when the invoice number alone is not
 * unique). From the palette, asks for the registration (picker of known records, or an invoice number) and the
 * date (default: now); a second argument `{ cancelledOn }` (ISO 8601) skips the date prompt. 204 shows "Cancelled";
 * 409 (already cancelled, or the terms forbid it) is shown clearly.
 */
export const cancelRegistration = defineCommand({
  id: 'tpp.cancelRegistration',
  needs: ['api', 'environments', 'log', 'registrations', 'responses'],
  args: ([arg, options]) => ({ rowEnv: envOf(arg), ref: registrationRefOf(arg), cancelledOn: textArg(fieldsArg(options).cancelledOn) }),
  async run(services, { rowEnv, ref: given, cancelledOn: givenDate }) {
    const env = rowEnv ?? services.environments.active.get();
    const title = `Cancel registration (${ENVIRONMENTS[env].label})`;
    const ref: RegistrationRef = given ?? (await pickRegistration(services, env, 'tire-protection', title, true, CANCELLABLE));
    const cancelledOn = await cancellationDate(givenDate, title);
    const what = `registration ${registrationName(services, env, 'tire-protection', ref)}`;
    return ref.id
      ? runRequest(services, env, 'cancelTireProtectionRegistration', { params: { id: ref.id }, body: { cancelledOn } }, { title: `Cancel ${what}`, success: () => `Cancelled ${what} on ${ENVIRONMENTS[env].label}.` })
      : runRequest(
          services,
          env,
          'cancelTireProtectionRegistrationByInvoice',
          { query: { invoiceNumber: ref.invoiceNumber, storeNumber: ref.storeNumber }, body: { cancelledOn } },
          { title: `Cancel ${what}`, success: () => `Cancelled ${what} on ${ENVIRONMENTS[env].label}.` },
        );
  },
});
