import { z } from 'zod';
import { errorFor } from '../primitives';
import { SERVICE_TYPES, SERVICE_TYPE_MESSAGE, arrayOf, d, i, m, register, s } from './fields';

/** The version 2 claim (spec: Version 2 records, "Claim (v2)") and its POST body. */

/** Fields of a v2 claim as sent (spec: Claim (v2)). */
export const V2ClaimShape = {
  OrgID: s(50, 'N'),
  ShopID: s(25, 'Y', 'Shop where the registration was sold.'),
  InvoiceNumber: s(25, 'Y', 'Invoice of the original registration sale.'),
  ClaimDate: d('Y'),
  RepairShopID: s(25, 'Y', 'Shop where the repair was done.'),
  RepairInvoiceNumber: s(50, 'Y', 'Invoice of the repair work.'),
  VIN: s(50, '', 'If available.'),
  VehicleMileage: i('', 'Mileage at repair.'),
  TireClaimCount: i('Y', 'Tires repaired.'),
  CreditAmount: m('Y', 'Total credited to the customer (discount amount times quantity).'),
  CostPerUnit: m('Y', 'Replacement cost per tire at repair.'),
  TireLocation1: s(200, '', 'Location of tire 1 on the vehicle.'),
  TireLocation2: s(200, '', 'Location of tire 2 on the vehicle.'),
  TireLocation3: s(200, '', 'Location of tire 3 on the vehicle.'),
  TireLocation4: s(200, '', 'Location of tire 4 on the vehicle.'),
  TireLocation5: s(200, '', 'Location of tire 5 on the vehicle.'),
  TireLocation6: s(200, '', 'Location of tire 6 on the vehicle.'),
  ServiceType: register(
    z.enum(SERVICE_TYPES, { error: errorFor(SERVICE_TYPE_MESSAGE, false) }).optional(),
    { type: 'string', req: '', notes: 'REPLACE (tire replaced) or REPAIR (tire repaired). Present in sent and returned claims.' },
  ),
  ServiceDescription: s(200, '', 'Classification of the damage or service.'),
  TireBrand: s(25, 'Y', 'Replacement tire brand.'),
  TireModel: s(25, ''),
  TireSize: s(25, 'Y'),
  TireCost: m('Y', 'Replacement tire price.'),
};

/** A v2 claim as sent: a repair or replacement made under a registration. */
export const V2Claim = z
  .object(V2ClaimShape)
  .meta({ description: 'Version 2 claim: a repair or replacement made under a registration.' });

/** POST body {Claims: [...]}. */
export const V2ClaimsBody = z.object({
  Claims: arrayOf(V2Claim, 'claims').meta({ description: 'Claims to file.' }),
});

export type V2Claim = z.infer<typeof V2Claim>;
export type V2ClaimsBody = z.infer<typeof V2ClaimsBody>;
