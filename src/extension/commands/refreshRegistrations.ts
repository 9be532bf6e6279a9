import { envOfArg } from './mainHelpers';
import { CommandDef } from './registry';
import { productOf } from './treeHelpers';

/** `tpp.refreshRegistrations` (also Retry of an error row): reads the list again from page 1. */
export const refreshRegistrations: CommandDef = {
  id: 'tpp.refreshRegistrations',
  run(services, arg, product) {
    const env = envOfArg(services, arg);
    services.registrations.invalidate(env, typeof product === 'string' || (arg as { product?: unknown })?.product ? productOf(arg, product) : undefined);
  },
};
