import { z } from 'zod';
import { MESSAGES, errorFor, str } from '../primitives';
import { arr, date3, obj, opt, os } from './build';

/** Shop update body (PATCH /tire-protection/shops/:uniqueId; spec: Endpoints). The e-mail field name is not shown: `email`. */
export const ShopUpdate = obj({
  product_id: os('Program product identifier.'),
  endDate: opt(date3(), 'End date, ISO 8601.'),
  startDate: opt(date3(), 'Start date, ISO 8601.'),
  email: opt(
    z.union([str(), arr(str())], { error: errorFor(MESSAGES.stringOrStrings) }),
    'More e-mail addresses for the shop: one address or an array (field name not shown by the spec; this toolkit uses email, as in the create body).',
  ),
}).meta({ description: 'Shop update: end date; may also add more e-mail addresses and set a start date.' });

export type ShopUpdate = z.infer<typeof ShopUpdate>;
