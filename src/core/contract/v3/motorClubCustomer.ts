import type { z } from 'zod';
import { email } from '../primitives';
import { obj, opt, os } from './build';

/** The motor-club customer (spec: Version 3 objects, "Motor-club registration"), shared by its two bodies. */

/** Address of a motor-club customer: line1, line2, city, state, zip, country. */
export const MotorClubAddress = obj({
  line1: os('Street address, first line.'),
  line2: os('Street address, second line.'),
  city: os('City.'),
  state: os('State.'),
  zip: os('Postal code.'),
  country: os('Country.'),
});

/** Motor-club customer: name, phone, email, address. */
export const MotorClubCustomer = obj({
  name: os('Customer name.'),
  phone: os('Phone number.'),
  email: opt(email(), 'E-mail address (a customer\'s email is an "email string" in the spec).'),
  address: opt(MotorClubAddress, 'Address: line1, line2, city, state, zip, country.'),
});

export type MotorClubCustomer = z.infer<typeof MotorClubCustomer>;
