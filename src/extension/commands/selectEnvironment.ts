import { envOf } from '../commandSupport/treeArgs';
import { defineCommand } from './registry';
import { pickEnvironment } from '../commandSupport/pickEnvironment';
import { ENVIRONMENTS } from '../../core/environments';

/** `tpp.selectEnvironment`: quick pick of Local, Sandbox, Production; the choice is persisted. Returns the id. */
export const selectEnvironment = defineCommand({
  id: 'tpp.selectEnvironment',
  needs: ['environments', 'log'],
  args: ([arg]) => ({ named: envOf(arg) }),
  async run({ environments, log }, { named }) {
    const id = await pickEnvironment(environments, named, 'Tire Protection: Select Environment');
    await environments.active.set(id);
    log.info(`Active environment: ${ENVIRONMENTS[id].label}`);
    return id;
  },
});
