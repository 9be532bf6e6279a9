import { openPayload } from '../commandSupport/registrations';
import { CommandDef } from './registry';
import { askUniqueId } from '../commandSupport/shops';

/** `tpp.updateShop` (arguments: a uniqueId, or an environment/node and a uniqueId): asks for the shop's uniqueId when not given and opens a shop-update payload with it as `$uniqueId`. */
export const updateShop: CommandDef = {
  id: 'tpp.updateShop',
  async run(_s, arg, uniqueId) {
    return openPayload('shop-update', { $uniqueId: await askUniqueId('Update Shop', typeof arg === 'string' ? arg : uniqueId) });
  },
};
