import { defineCommand, noArgs } from './registry';

/** `tpp.clearIntegrationLog`: forgets every request of the Integration Log (memory and disk). */
export const clearIntegrationLog = defineCommand({
  id: 'tpp.clearIntegrationLog',
  needs: ['integrationLog'],
  args: noArgs,
  run({ integrationLog }) {
    integrationLog.clear();
  },
});
