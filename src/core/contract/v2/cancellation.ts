import { z } from 'zod';
import { V2_CANCELLATION_DEPRECATED, arrayOf, d, i, s } from './fields';

/** The version 2 cancellation (spec: Version 2 records, "Cancellation (v2, deprecated)") and its POST body. */

/** Fields of a v2 cancellation (spec: Cancellation (v2, deprecated)). */
export const V2CancellationShape = {
  OrgID: s(50, 'N'),
  ShopID: s(25, 'Y', 'Shop of the original sale and registration.'),
  InvoiceNumber: s(25, 'Y', 'Invoice of the original sale and registration.'),
  CancelShopID: s(25, 'Y', 'Shop where the cancellation took place.'),
  CancelInvoiceNumber: s(25, 'Y', 'Invoice at the cancelling shop.'),
  TireCancelCount: i('Y', 'Tires cancelled.'),
  CancelDate: d('Y'),
};

/** A v2 cancellation as sent (deprecated and unsupported). */
export const V2Cancellation = z.object(V2CancellationShape).meta({
  description:
    'Version 2 cancellation (deprecated and unsupported). A cancellation with identical OrgID, ShopID, InvoiceNumber, CancelShopID and CancelInvoiceNumber is treated as an update, not a new cancellation.',
  deprecated: true,
  deprecationMessage: V2_CANCELLATION_DEPRECATED,
});

/** POST body {Cancellations: [...]} (deprecated). */
export const V2CancellationsBody = z
  .object({
    Cancellations: arrayOf(V2Cancellation, 'cancellations').meta({ description: 'Cancellations (deprecated).' }),
  })
  .meta({ deprecated: true, deprecationMessage: V2_CANCELLATION_DEPRECATED });

export type V2Cancellation = z.infer<typeof V2Cancellation>;
export type V2CancellationsBody = z.infer<typeof V2CancellationsBody>;
