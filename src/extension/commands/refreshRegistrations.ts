import { defineCommand } from './registry';
import { envOf, listProductOf } from '../commandSupport/treeArgs';

/** `tpp.refreshRegistrations` (also Retry of an error row): reads the list again from page 1. */
export const refreshRegistrations = defineCommand({
  id: 'tpp.refreshRegistrations',
  needs: ['environments', 'registrations'],
  args: ([arg, second]) => ({ rowEnv: envOf(arg), product: listProductOf(arg, second) }),
  run(services, { rowEnv, product }) {
    const env = rowEnv ?? services.environments.active.get();
    services.registrations.invalidate(env, product);
  },
});
