import type { z } from 'zod';
import { num } from '../primitives';
import { arr, date3, obj, opt, os } from './build';

/** The claim against a tire-protection registration (spec: Version 3 objects, "Claim"). Required flags: not shown. */

/** make, model, size of an original or replacement tire of a claim. */
export const ClaimTireSpec = obj({
  make: os('Tire make (brand).'),
  model: os('Tire model.'),
  size: os('Tire size, e.g. 225/65R17.'),
});

/** One tire of a claim: original and (when the tire was replaced) replacement. */
export const ClaimTire = obj({
  original: opt(ClaimTireSpec, 'The original tire (make, model, size).'),
  replacement: opt(ClaimTireSpec, 'The replacement tire (make, model, size); applies when the tire was replaced.'),
});

/** Claim against a tire-protection registration (POST /tire-protection/registrations/:id/claims). */
export const TireProtectionClaim = obj({
  serviceInvoiceNumber: os('Invoice number of the service.'),
  serviceInvoiceDate: opt(date3(), 'Date of the service invoice, ISO 8601.'),
  vehicleMileage: opt(num(), 'Vehicle mileage at the service (number).'),
  damageReason: os('Reason of the damage.'),
  damageDescription: os('Description of the damage.'),
  authorizedAmount: opt(num(), 'Authorized amount (number).'),
  tires: opt(
    arr(ClaimTire),
    'Tires claimed; each has original (make, model, size) and replacement (make, model, size), which applies when the tire was replaced.',
  ),
}).meta({
  description:
    'Claim: a repair or replacement made under a registration. Only against a registration that is not cancelled and not expired, while tires remain insured.',
});

export type TireProtectionClaim = z.infer<typeof TireProtectionClaim>;
