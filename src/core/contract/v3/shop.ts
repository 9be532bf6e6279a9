import type { z } from 'zod';
import { date3, obj, opt, os } from './build';

/** The shop create body (spec: Version 3 objects, "Shop"). Required flags: not shown. */

/** Shop address: line1, line2, city, state, country, zip. */
export const ShopAddress = obj({
  line1: os('Street address, first line.'),
  line2: os('Street address, second line.'),
  city: os('City.'),
  state: os('State.'),
  country: os('Country.'),
  zip: os('Postal code.'),
});

/** Shop create body (POST /tire-protection/shops). */
export const Shop = obj({
  product_id: os('Program product identifier.'),
  placeId: os("The mapping provider's place identifier of the shop."),
  uniqueId: os('Unique per shop; a second create with the same uniqueId answers 409.'),
  legalName: os('Legal name of the business.'),
  startDate: opt(date3(), 'Start date, ISO 8601.'),
  dba: os('Doing-business-as name.'),
  groupName: os('Group name.'),
  phone: os('Phone number, international format (e.g. +1 555 010 0199).'),
  address: opt(ShopAddress, 'Physical address: line1, line2, city, state, country, zip.'),
  mailingAttn: os('Attention line of the mailing address.'),
  mailingAddress: opt(ShopAddress, 'Mailing address: line1, line2 (optional), city, state, country, zip.'),
  paymentPreference: os('Payment preference (allowed values: not shown).'),
  email: os('E-mail address (typed "string" by the spec: an address format is only a warning).'),
}).meta({
  description:
    'Shop: a business with a physical location that sells, installs and repairs tires. Parts sold to a shop and reported are covered by the program.',
});

export type Shop = z.infer<typeof Shop>;
