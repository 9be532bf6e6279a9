import type { z } from 'zod';
import { email, num } from '../primitives';
import { arr, date3, obj, opt, os, year } from './build';

/**
 * The tire-protection registration (spec: Version 3 objects, "Tire-protection registration"). Its required flags
 * are "not shown": every property is optional and only its type or format is checked when present.
 */

/** Customer of a tire-protection registration (name, email). */
export const TireProtectionCustomer = obj({
  name: os('Customer name.'),
  email: opt(email(), 'Customer e-mail address (a customer\'s email is an "email string" in the spec).'),
});

/** Vehicle of a tire-protection registration (year, make, model). */
export const TireProtectionVehicle = obj({
  year: opt(year(), 'Four-digit model year (number).'),
  make: os('Vehicle make.'),
  model: os('Vehicle model.'),
});

/** Tire of a tire-protection registration (make, model, size, retailPrice). */
export const TireProtectionTire = obj({
  make: os('Tire make (brand).'),
  model: os('Tire model.'),
  size: os('Tire size, e.g. 225/65R17.'),
  retailPrice: opt(num(), 'Retail price of the tire (number).'),
});

/** Tire-protection registration (POST /tire-protection/registrations). Required flags: not shown. */
export const TireProtectionRegistration = obj({
  product_id: os('Program product identifier.'),
  invoiceNumber: os('Invoice number; unique per registration (a store number may disambiguate).'),
  enrollDate: opt(date3(), 'Enrolment date, ISO 8601.'),
  customer: opt(TireProtectionCustomer, 'Customer (name, email).'),
  vehicle: opt(TireProtectionVehicle, 'Vehicle (year, make, model).'),
  tires: opt(arr(TireProtectionTire), 'Tires (make, model, size, retailPrice).'),
}).meta({ description: 'Tire-protection registration: the sale of tires with an attached protection plan.' });

export type TireProtectionRegistration = z.infer<typeof TireProtectionRegistration>;
