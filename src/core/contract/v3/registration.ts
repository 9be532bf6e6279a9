import type { z } from 'zod';
import { email, num, str } from '../primitives';
import { arr, date3, obj, opt, os, req, rs, year } from './build';

/**
 * The registration of the earlier revision (spec: Version 3 objects, "Registration (earlier revision)"; paths
 * without product prefix, dated 06-JUN-2022). Its required flags are shown and enforced.
 */

/** Address of the earlier-revision registration's customer: line1, city, state, zip required. */
export const Address = obj({
  line1: rs('Street address, first line (required).'),
  line2: os('Street address, second line.'),
  city: rs('City (required).'),
  state: rs('State (required).'),
  zip: rs('Postal code (required).'),
  country: os('Country; accepted in samples.'),
}).meta({ description: 'Address: line1, city, state and zip are required.' });

/** Customer of the earlier-revision registration: name and email required. */
export const Customer = obj({
  name: rs('Customer name (required).'),
  phone: opt(str(), 'Phone number.'),
  email: req(email(), 'E-mail address (required).'),
  address: opt(Address, 'Customer address.'),
}).meta({ description: 'Customer: name and email are required.' });

/** Tire of the earlier-revision registration. */
export const Tire = obj({
  make: rs('Tire make (brand) (required).'),
  model: rs('Tire model (required).'),
  size: rs('Tire size, e.g. 225/65R17 (required).'),
  retailPrice: req(num(), 'Retail price of the tire (number, required).'),
  dot: os('DOT serial of the tire.'),
  partNumber: os('Part number of the tire.'),
}).meta({ description: 'Tire: make, model, size and retailPrice are required.' });

/** Vehicle of the earlier-revision registration. */
export const Vehicle = obj({
  year: req(year(), 'Four-digit model year (number, required).'),
  make: rs('Vehicle make (required).'),
  model: rs('Vehicle model (required).'),
  vin: os('Vehicle identification number.'),
  plateNumber: os('License plate number.'),
  plateState: os('State of the license plate.'),
  mileage: opt(num(), 'Mileage (number).'),
}).meta({ description: 'Vehicle: year, make and model are required.' });

/** Registration of the earlier revision (POST /registrations, dated 06-JUN-2022). */
export const Registration = obj({
  product_id: rs('Program product identifier (required).'),
  invoiceNumber: rs('Invoice number; registrations are unique by invoice number (required).'),
  enrollDate: req(date3(), 'Enrolment date, ISO 8601 (required).'),
  customer: req(Customer, 'Customer (required).'),
  tires: req(arr(Tire).min(1, { error: 'at least one tire' }), 'Tires sold with the plan (required, at least one).'),
  vehicle: opt(Vehicle, 'Vehicle.'),
  comments: os('Comments.'),
}).meta({ description: 'Registration of the earlier revision (paths without product prefix).' });

export type Address = z.infer<typeof Address>;
export type Customer = z.infer<typeof Customer>;
export type Tire = z.infer<typeof Tire>;
export type Vehicle = z.infer<typeof Vehicle>;
export type Registration = z.infer<typeof Registration>;
