import { openPayload } from '../commandSupport/registrations';
import { CommandDef } from './registry';

/** `tpp.recordTransaction`: opens a transaction payload (manufacturer-to-dealer sale). */
export const recordTransaction: CommandDef = {
  id: 'tpp.recordTransaction',
  run: () => openPayload('transaction', { date: new Date().toISOString().slice(0, 10) }),
};
