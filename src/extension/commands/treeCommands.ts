import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import type { RegistrationProduct } from '../tree/registrationPages';
import { envOfArg, treeOf } from './mainHelpers';
import { CommandDef, UserCancelled } from './registry';

function productOf(arg: unknown, second: unknown): RegistrationProduct {
  const p = (arg as { product?: unknown } | undefined)?.product ?? second;
  return p === 'motor-club' ? 'motor-club' : 'tire-protection';
}

/** `tpp.loadMoreRegistrations` (the "Load more…" row): loads the next page. Resolves to the rows added. */
export const loadMoreRegistrations: CommandDef = {
  id: 'tpp.loadMoreRegistrations',
  run(services, arg, product) {
    const env = envOfArg(services, arg);
    return vscode.window.withProgress({ location: { viewId: 'tpp.environments' } }, () => treeOf().loadMore(env, productOf(arg, product)));
  },
};

/** `tpp.refreshRegistrations` (also Retry of an error row): reads the list again from page 1. */
export const refreshRegistrations: CommandDef = {
  id: 'tpp.refreshRegistrations',
  run(services, arg, product) {
    const env = envOfArg(services, arg);
    const tree = treeOf();
    tree.invalidate(env, typeof product === 'string' || (arg as { product?: unknown })?.product ? productOf(arg, product) : undefined);
    tree.refresh();
  },
};

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
    const tree = treeOf();
    let f = options as FilterOptions | undefined;
    if (!f || typeof f !== 'object') {
      const current = tree.filter(env, 'tire-protection');
      const title = `Filter registrations (${ENVIRONMENTS[env].label})`;
      const invoiceNumber = await vscode.window.showInputBox({ title, prompt: 'Invoice number (empty: any)', value: current.invoiceNumber ?? '' });
      if (invoiceNumber === undefined) throw new UserCancelled();
      const storeNumber = await vscode.window.showInputBox({ title, prompt: 'Store number (empty: any)', value: current.storeNumber ?? '' });
      if (storeNumber === undefined) throw new UserCancelled();
      f = { invoiceNumber: invoiceNumber.trim(), storeNumber: storeNumber.trim() };
    }
    tree.setFilter(env, 'tire-protection', f);
  },
};

/** `tpp.clearRegistrationFilter`. */
export const clearRegistrationFilter: CommandDef = {
  id: 'tpp.clearRegistrationFilter',
  run(services, arg) {
    treeOf().setFilter(envOfArg(services, arg), 'tire-protection', {});
  },
};
