import { envOfArg } from '../commandSupport/treeArgs';
import { CommandDef } from './registry';

/** `tpp.clearHistory`: forgets the recorded requests of an environment. */
export const clearHistory: CommandDef = {
  id: 'tpp.clearHistory',
  async run(services, arg) {
    await services.history.clear(envOfArg(services, arg));
  },
};
