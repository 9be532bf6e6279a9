import { openPayload } from '../commandSupport/registrations';
import { textArg } from '../commandSupport/args';
import { defineCommand } from './registry';
import { askUniqueId } from '../commandSupport/shops';

/** `tpp.addPart` (arguments as Update Shop): asks for the shop's uniqueId when not given and opens a part payload (a part sold to that shop). */
export const addPart = defineCommand({
  id: 'tpp.addPart',
  needs: [],
  args: ([arg, second]) => ({ uniqueId: textArg(arg) ?? textArg(second) }),
  async run(_s, { uniqueId }) {
    return openPayload('part', { $uniqueId: await askUniqueId('Add Part', uniqueId), date: new Date().toISOString().slice(0, 10) });
  },
});
