import { envOfArg, treeOf } from './mainHelpers';
import { CommandDef } from './registry';

/** `tpp.clearRegistrationFilter`. */
export const clearRegistrationFilter: CommandDef = {
  id: 'tpp.clearRegistrationFilter',
  run(services, arg) {
    treeOf().setFilter(envOfArg(services, arg), 'tire-protection', {});
  },
};
