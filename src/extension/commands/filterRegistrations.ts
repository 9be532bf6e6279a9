import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import type { RegistrationFilter } from '../services/registrationsModel';
import { envOfArg } from '../commandSupport/treeArgs';
import { CommandDef, UserCancelled } from './registry';

/** Options that skip the prompts (the fields of {@link RegistrationFilter}). */
export type FilterOptions = RegistrationFilter;

/**
 * Reads the invoice field of the filter prompt: `INV-10*` is a prefix (matched by the toolkit among the rows read,
 * since the spec's list query takes whole invoice numbers only), anything else the exact number sent as the
 * `invoiceNumber` query parameter.
 */
export function invoiceFilterOf(text: string): Pick<RegistrationFilter, 'invoiceNumber' | 'invoicePrefix'> {
  const v = text.trim();
  if (!v) return {};
  return v.endsWith('*') ? { invoicePrefix: v.replace(/\*+$/, '').trim() } : { invoiceNumber: v };
}

/**
 * `tpp.filterRegistrations`: filters the tire-protection list (spec: Tire-protection registrations, GET with
 * invoiceNumber and storeNumber). A whole invoice number and a store number are sent to the server; an invoice
 * prefix (`INV-10*`) is matched here among the pages read so far, and the prompt says so. The folder is read again
 * from page 1.
 */
export const filterRegistrations: CommandDef = {
  id: 'tpp.filterRegistrations',
  async run(services, arg, options) {
    const env = envOfArg(services, arg);
    let f = options as FilterOptions | undefined;
    if (!f || typeof f !== 'object') {
      const current = services.registrations.filter(env, 'tire-protection');
      const title = `Filter registrations (${ENVIRONMENTS[env].label})`;
      const invoice = await vscode.window.showInputBox({
        title,
        prompt:
          'Invoice number: a whole number is matched by the server. End it with * for a prefix (INV-10*): the interface can only match whole numbers, so a prefix is matched here among the pages read so far — "Load more…" searches further. Empty: any.',
        placeHolder: 'INV-1042, or INV-10*',
        value: current.invoicePrefix ? `${current.invoicePrefix}*` : (current.invoiceNumber ?? ''),
      });
      if (invoice === undefined) throw new UserCancelled();
      const storeNumber = await vscode.window.showInputBox({ title, prompt: 'Store number, matched exactly by the server (empty: any).', value: current.storeNumber ?? '' });
      if (storeNumber === undefined) throw new UserCancelled();
      f = { ...invoiceFilterOf(invoice), storeNumber: storeNumber.trim() };
    }
    services.registrations.setFilter(env, 'tire-protection', f);
  },
};
