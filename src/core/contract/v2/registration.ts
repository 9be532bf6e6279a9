import { z } from 'zod';
import { MESSAGES, charLength, errorFor, fitsLength, str } from '../primitives';
import { COMMERCIAL_VEHICLE_PATTERN, COMMERCIAL_VEHICLE_RE, COMMERCIAL_VEHICLE_VALUES, YES_NO_MESSAGE, arrayOf, d, i, m, register, s } from './fields';

/** The version 2 registration (spec: Version 2 records, "Registration (v2)") and its POST body. */

/** Fields of a v2 registration as sent (spec: Registration (v2)). */
export const V2RegistrationShape = {
  OrgID: s(50, 'N', 'Grouping, such as an ownership group. Blank if omitted.'),
  ShopID: s(25, 'Y', 'Shop where the tires were sold.'),
  InvoiceNumber: s(50, 'Y', 'Invoice of the registration.'),
  PlanEnrollDate: d('Y', 'Enrolment date.'),
  EmployeeID: s(50, 'Y', 'Employee responsible for the plan sale.'),
  CustomerID: s(50, 'Y', 'Customer name or number, used for filtering.'),
  VehicleYear: register(
    str({ max: 25 })
      .regex(/^(\d{4})?$/, { error: MESSAGES.vehicleYear })
      .optional(),
    { type: 'string', max: 25, req: '', notes: 'Four-digit year.' },
  ),
  VehicleMake: s(25, ''),
  VehicleModel: s(25, ''),
  VIN: s(50, '', 'If available.'),
  CurrentMileage: i('', 'Mileage at sale.'),
  TiresCovered: i('Y', 'Tires covered by this registration.'),
  TPPPrice: m('Y', 'Plan price per tire.'),
  TireBrand: s(25, 'Y'),
  TireModel: s(25, ''),
  TireSize: s(25, 'Y'),
  TirePrice: m('Y', 'Retail price per tire.'),
  TireCost: m('Y', 'Wholesale cost per tire.'),
  TireDOT1: s(25, 'Y', 'Department of Transportation serial of tire 1, if available.'),
  TireDOT2: s(25, '', 'Serial of tire 2.'),
  TireDOT3: s(25, '', 'Serial of tire 3.'),
  TireDOT4: s(25, '', 'Serial of tire 4.'),
  TireDOT5: s(25, '', 'Serial of tire 5.'),
  TireDOT6: s(25, '', 'Serial of tire 6.'),
  CommercialVehicle: register(
    z
      .string({ error: errorFor(YES_NO_MESSAGE, false) })
      .refine((v) => v === '' || COMMERCIAL_VEHICLE_RE.test(v), {
        error: (iss) => (typeof iss.input === 'string' && !fitsLength(iss.input, 5) ? `${MESSAGES.maxLength(5)}, got ${charLength(iss.input)}` : YES_NO_MESSAGE),
      })
      // On the input side (before the transform): the editor's completion offers Yes and No.
      .meta({ default: 'No', examples: [...COMMERCIAL_VEHICLE_VALUES], maxLength: 5, pattern: COMMERCIAL_VEHICLE_PATTERN })
      .transform((v) => (v === '' ? undefined : v.toLowerCase() === 'yes' ? 'Yes' : 'No'))
      .optional(),
    { type: 'string', max: 5, req: '', notes: 'Yes or No; default No. Reads return a string such as false.' },
  ),
};

/**
 * A v2 registration as sent. Rules: one registration per invoice; resending the same ShopID and InvoiceNumber
 * updates the existing registration.
 */
export const V2Registration = z
  .object(V2RegistrationShape)
  .meta({
    description:
      'Version 2 registration: the sale of a tire (or tires) with an attached protection plan. Send one registration per invoice; for several identical tires use TiresCovered and the DOT fields. Resending the same ShopID and InvoiceNumber updates the existing registration.',
  });

/** POST body {Registrations: [...]} (spec: Version 2 record endpoints). */
export const V2RegistrationsBody = z.object({
  Registrations: arrayOf(V2Registration, 'registrations').meta({ description: 'Registrations to create or update.' }),
});

export type V2Registration = z.infer<typeof V2Registration>;
export type V2RegistrationsBody = z.infer<typeof V2RegistrationsBody>;
