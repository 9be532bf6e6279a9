import { envOf } from '../commandSupport/treeArgs';
import { defineCommand } from './registry';

/** `tpp.clearHistory`: forgets the recorded requests of an environment. */
export const clearHistory = defineCommand({
  id: 'tpp.clearHistory',
  needs: ['environments', 'history'],
  args: ([arg]) => ({ rowEnv: envOf(arg) }),
  async run(services, { rowEnv }) {
    await services.history.clear(rowEnv ?? services.environments.active.get());
  },
});
