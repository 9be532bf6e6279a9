import { openPayload } from '../commandSupport/registrations';
import { defineCommand, noArgs } from './registry';

/** `tpp.recordTransaction`: opens a transaction payload (manufacturer-to-dealer sale). */
export const recordTransaction = defineCommand({
  id: 'tpp.recordTransaction',
  needs: [],
  args: noArgs,
  run: () => openPayload('transaction', { date: new Date().toISOString().slice(0, 10) }),
});
