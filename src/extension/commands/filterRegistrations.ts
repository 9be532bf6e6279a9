import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import type { RegistrationFilter } from '../services/registrationsModel';
import { envOf } from '../commandSupport/treeArgs';
import { fieldsArg, stringArg } from '../commandSupport/args';
import { defineCommand, UserCancelled } from './registry';

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

/** The {@link FilterOptions} of an argument (its string fields), `undefined` for anything that is not an object. */
function filterOptionsOf(v: unknown): FilterOptions | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const o = fieldsArg(v);
  return { invoiceNumber: stringArg(o.invoiceNumber), invoicePrefix: stringArg(o.invoicePrefix), storeNumber: stringArg(o.storeNumber) };
}

/**
 * `tpp.filterRegistrations`: filters the tire-protection list (spec: Tire-protection registrations, GET with
 * invoiceNumber and storeNumber). A whole invoice number and a store number are sent to the server; an invoice
 * prefix (`INV-10*`) is matched here among the pages read so far, and the prompt says so. The folder is read again
 * from page 1.
 */
export const filterRegistrations = defineCommand({
  id: 'tpp.filterRegistrations',
  needs: ['environments', 'registrations'],
  args: ([arg, options]) => ({ rowEnv: envOf(arg), given: filterOptionsOf(options) }),
  async run(services, { rowEnv, given }) {
    const env = rowEnv ?? services.environments.active.get();
    let f = given;
    if (!f) {
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
});
