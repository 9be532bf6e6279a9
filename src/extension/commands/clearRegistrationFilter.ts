import { envOf } from '../commandSupport/treeArgs';
import { defineCommand } from './registry';

/** `tpp.clearRegistrationFilter`. */
export const clearRegistrationFilter = defineCommand({
  id: 'tpp.clearRegistrationFilter',
  needs: ['environments', 'registrations'],
  args: ([arg]) => ({ rowEnv: envOf(arg) }),
  run(services, { rowEnv }) {
    services.registrations.setFilter(rowEnv ?? services.environments.active.get(), 'tire-protection', {});
  },
});
