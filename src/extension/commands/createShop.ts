import { openPayload } from '../commandSupport/registrations';
import { defineCommand, noArgs } from './registry';

/** `tpp.createShop`: opens a new shop payload (POST /tire-protection/shops) to fill in and send. */
export const createShop = defineCommand({
  id: 'tpp.createShop',
  needs: [],
  args: noArgs,
  run: () => openPayload('shop'),
});
