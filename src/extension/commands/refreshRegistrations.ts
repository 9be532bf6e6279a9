import { CommandDef } from './registry';
import { envOfArg, listProductOf } from '../commandSupport/treeArgs';

/** `tpp.refreshRegistrations` (also Retry of an error row): reads the list again from page 1. */
export const refreshRegistrations: CommandDef = {
  id: 'tpp.refreshRegistrations',
  run(services, arg, product) {
    const env = envOfArg(services, arg);
    services.registrations.invalidate(env, listProductOf(arg, product));
  },
};
