import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { envOfArg } from './mainHelpers';
import { CommandDef, UserCancelled } from './registry';

/** Options that skip the prompts. */
export interface FilterOptions {
  readonly invoiceNumber?: string;
  readonly storeNumber?: string;
}

/** `tpp.filterRegistrations`: filters the tire-protection list by invoice number and/or store number. */
export const filterRegistrations: CommandDef = {
  id: 'tpp.filterRegistrations',
  async run(services, arg, options) {
    const env = envOfArg(services, arg);
    let f = options as FilterOptions | undefined;
    if (!f || typeof f !== 'object') {
      const current = services.registrations.filter(env, 'tire-protection');
      const title = `Filter registrations (${ENVIRONMENTS[env].label})`;
      const invoiceNumber = await vscode.window.showInputBox({ title, prompt: 'Invoice number (empty: any)', value: current.invoiceNumber ?? '' });
      if (invoiceNumber === undefined) throw new UserCancelled();
      const storeNumber = await vscode.window.showInputBox({ title, prompt: 'Store number (empty: any)', value: current.storeNumber ?? '' });
      if (storeNumber === undefined) throw new UserCancelled();
      f = { invoiceNumber: invoiceNumber.trim(), storeNumber: storeNumber.trim() };
    }
    services.registrations.setFilter(env, 'tire-protection', f);
  },
};
