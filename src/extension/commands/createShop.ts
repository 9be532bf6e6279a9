import { openPayload } from '../commandSupport/registrations';
import { CommandDef } from './registry';

/** `tpp.createShop`: opens a new shop payload (POST /tire-protection/shops) to fill in and send. */
export const createShop: CommandDef = {
  id: 'tpp.createShop',
  run: () => openPayload('shop'),
};
