import * as vscode from 'vscode';
import { openPayload } from './mainHelpers';
import { CommandDef, UserCancelled } from './registry';

async function askUniqueId(title: string, given: unknown): Promise<string> {
  if (typeof given === 'string' && given) return given;
  const v = await vscode.window.showInputBox({ title, prompt: 'uniqueId of the shop', validateInput: (s) => (s.trim() ? undefined : 'Enter the shop’s uniqueId') });
  if (!v) throw new UserCancelled();
  return v.trim();
}

/** `tpp.createShop`: opens a new shop payload (POST /tire-protection/shops) to fill in and send. */
export const createShop: CommandDef = {
  id: 'tpp.createShop',
  run: () => openPayload('shop'),
};

/** `tpp.updateShop` (arguments: a uniqueId, or an environment/node and a uniqueId): asks for the shop's uniqueId when not given and opens a shop-update payload with it as `$uniqueId`. */
export const updateShop: CommandDef = {
  id: 'tpp.updateShop',
  async run(_s, arg, uniqueId) {
    return openPayload('shop-update', { $uniqueId: await askUniqueId('Update Shop', typeof arg === 'string' ? arg : uniqueId) });
  },
};

/** `tpp.addPart` (arguments as Update Shop): asks for the shop's uniqueId when not given and opens a part payload (a part sold to that shop). */
export const addPart: CommandDef = {
  id: 'tpp.addPart',
  async run(_s, arg, uniqueId) {
    return openPayload('part', { $uniqueId: await askUniqueId('Add Part', typeof arg === 'string' ? arg : uniqueId), date: new Date().toISOString().slice(0, 10) });
  },
};

/** `tpp.recordTransaction`: opens a transaction payload (manufacturer-to-dealer sale). */
export const recordTransaction: CommandDef = {
  id: 'tpp.recordTransaction',
  run: () => openPayload('transaction', { date: new Date().toISOString().slice(0, 10) }),
};
