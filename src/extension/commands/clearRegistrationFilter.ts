import { envOfArg } from '../commandSupport/treeArgs';
import { CommandDef } from './registry';

/** `tpp.clearRegistrationFilter`. */
export const clearRegistrationFilter: CommandDef = {
  id: 'tpp.clearRegistrationFilter',
  run(services, arg) {
    services.registrations.setFilter(envOfArg(services, arg), 'tire-protection', {});
  },
};
