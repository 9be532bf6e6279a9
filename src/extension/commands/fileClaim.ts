import * as vscode from 'vscode';
import { PAYLOAD_KINDS, schemaUri } from '../../core/contract';
import { ENVIRONMENTS } from '../../core/environments';
import { CLAIMABLE, registrationState } from '../../core/listing/registrationPages';
import { nowIso, pickRegistration } from '../commandSupport/registrations';
import { envOf, registrationRefOf } from '../commandSupport/treeArgs';
import { defineCommand } from './registry';

/**
 * `tpp.fileClaim`: opens a new tire-protection claim payload for a registration (a node, `{id}`, or picked),
 * prefilled with the registration id as `$registrationId` and its first tire as the claim's original (and
 * replacement) tire, with that tire's price as the authorized amount. The registration and its metadata are read first:
 * for a cancelled or expired registration, or one with no tires left, a warning says the server will refuse the claim,
 * and the draft opens anyway: sending it is the user's choice (spec: States and transitions). The payload is a draft in memory
 * (`tpp-draft:`, titled "Claim on <invoice number>"): it stays open after a send, to be edited and sent again, until
 * its tab is closed, which never asks to save. Send it with the CodeLens or "Send Payload". Resolves to the document,
 * or `undefined`.
 */
export const fileClaim = defineCommand({
  id: 'tpp.fileClaim',
  needs: ['drafts', 'environments', 'registrations'],
  args: ([arg]) => ({ rowEnv: envOf(arg), given: registrationRefOf(arg)?.id }),
  async run(services, { rowEnv, given }) {
    const env = rowEnv ?? services.environments.active.get();
    let id = given;
    if (!id) id = (await pickRegistration(services, env, 'tire-protection', `File a claim (${ENVIRONMENTS[env].label})`, false, CLAIMABLE)).id;
    const details = id ? await services.registrations.registrationDetails(env, id).catch(() => undefined) : undefined;
    const reg = details?.registration ?? {};
    const invoice = typeof reg.invoiceNumber === 'string' && reg.invoiceNumber ? reg.invoiceNumber : id;
    if (details?.metadata) {
      const state = registrationState(reg, details.metadata, Date.now());
      // Sending is the user's choice: the server's 409 is the lesson (spec: States and transitions), so the draft opens.
      if (state === 'Cancelled' || state === 'Expired' || state === 'No tires left') {
        const why = state === 'No tires left' ? 'has no tires left to claim: the server may refuse this claim' : `is ${state.toLowerCase()}: the server answers this claim with 409 (Conflict)`;
        void vscode.window.showWarningMessage(`Registration ${invoice} ${why} (${ENVIRONMENTS[env].label}).`);
      }
    }
    const regTires = Array.isArray(reg.tires) ? (reg.tires as Record<string, unknown>[]) : [];
    const spec = (t: Record<string, unknown>) => ({ make: t.make ?? '', model: t.model ?? '', size: t.size ?? '' });
    // One tire, as a shop claims one damaged tire (examples/README.md): claiming every tire at once left the
    // registration with no tires left at the first send.
    const first = regTires.slice(0, 1);
    const tires = first.length ? first.map((t) => ({ original: spec(t), replacement: spec(t) })) : undefined;
    const amount = first.reduce((sum, t) => sum + (typeof t.retailPrice === 'number' ? t.retailPrice : 0), 0);
    const { $schema: _drop, ...template } = PAYLOAD_KINDS['tire-protection-claim'].template;
    const values = {
      $schema: schemaUri('tire-protection-claim'),
      ...template,
      $registrationId: id,
      serviceInvoiceNumber: `SRV-${Date.now().toString(36).toUpperCase()}`,
      serviceInvoiceDate: nowIso().slice(0, 10),
      ...(amount > 0 ? { authorizedAmount: Math.round(amount * 100) / 100 } : {}),
      ...(tires ? { tires } : {}),
    };
    return services.drafts.open(`Claim on ${invoice ?? 'a registration'}`, JSON.stringify(values, null, 2) + '\n');
  },
});
