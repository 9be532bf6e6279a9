import { z } from 'zod';
import { arrayOf, d, i, m, s } from './fields';

/** The version 2 sale (spec: Version 2 records, "Sale (v2)") and its POST body. */

/** Fields of a v2 sale (spec: Sale (v2)). */
export const V2SaleShape = {
  OrgID: s(50, 'N'),
  ShopID: s(25, 'Y', 'Shop that made the sale.'),
  InvoiceNumber: s(25, 'Y'),
  SaleDate: d('Y'),
  TireCount: i('Y', 'Tires sold.'),
  TireBrand: s(25, 'Y', 'Required for sales with and without a plan.'),
  TireModel: s(25, 'Y'),
  TireSize: s(25, 'Y'),
  TirePrice: m('Y', 'What the customer pays.'),
  TireCost: m('Y', 'What the shop pays.'),
};

/** A v2 sale as sent: tire sales, with or without a plan. */
export const V2Sale = z
  .object(V2SaleShape)
  .meta({ description: 'Version 2 sale: tire sales, with or without a plan.' });

/** POST body {Sales: [...]}. */
export const V2SalesBody = z.object({
  Sales: arrayOf(V2Sale, 'sales').meta({ description: 'Sales to report.' }),
});

export type V2Sale = z.infer<typeof V2Sale>;
export type V2SalesBody = z.infer<typeof V2SalesBody>;
