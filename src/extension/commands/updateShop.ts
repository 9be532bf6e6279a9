import { openPayload } from '../commandSupport/registrations';
import { textArg } from '../commandSupport/args';
import { defineCommand } from './registry';
import { askUniqueId } from '../commandSupport/shops';

/** `tpp.updateShop` (arguments: a uniqueId, or an environment/node and a uniqueId): asks for the shop's uniqueId when not given and opens a shop-update payload with it as `$uniqueId`. */
export const updateShop = defineCommand({
  id: 'tpp.updateShop',
  needs: [],
  args: ([arg, second]) => ({ uniqueId: textArg(arg) ?? textArg(second) }),
  async run(_s, { uniqueId }) {
    return openPayload('shop-update', { $uniqueId: await askUniqueId('Update Shop', uniqueId) });
  },
});
