import { openPayload } from '../commandSupport/registrations';
import { CommandDef } from './registry';
import { askUniqueId } from '../commandSupport/shops';

/** `tpp.addPart` (arguments as Update Shop): asks for the shop's uniqueId when not given and opens a part payload (a part sold to that shop). */
export const addPart: CommandDef = {
  id: 'tpp.addPart',
  async run(_s, arg, uniqueId) {
    return openPayload('part', { $uniqueId: await askUniqueId('Add Part', typeof arg === 'string' ? arg : uniqueId), date: new Date().toISOString().slice(0, 10) });
  },
};
