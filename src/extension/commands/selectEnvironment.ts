import { CommandDef } from './registry';
import { pickEnvironment } from '../commandSupport/pickEnvironment';
import { ENVIRONMENTS } from '../../core/environments';

/** `tpp.selectEnvironment`: quick pick of Local, Sandbox, Production; the choice is persisted. Returns the id. */
export const selectEnvironment: CommandDef = {
  id: 'tpp.selectEnvironment',
  async run({ environments, log }, arg) {
    const id = await pickEnvironment(environments, arg, 'Tire Protection: Select Environment');
    await environments.active.set(id);
    log.info(`Active environment: ${ENVIRONMENTS[id].label}`);
    return id;
  },
};
