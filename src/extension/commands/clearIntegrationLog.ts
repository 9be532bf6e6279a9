import { CommandDef } from './registry';

/** `tpp.clearIntegrationLog`: forgets every request of the Integration Log (memory and disk). */
export const clearIntegrationLog: CommandDef = {
  id: 'tpp.clearIntegrationLog',
  run({ integrationLog }) {
    integrationLog.clear();
  },
};
