import type { z } from 'zod';
import { integer, num } from '../primitives';
import { date3, obj, opt, os } from './build';

/** Part sold to a shop (POST /tire-protection/shops/:uniqueId/parts; spec: Version 3 objects, "Part"). */
export const Part = obj({
  product_id: os('Program product identifier.'),
  partNumber: os('Part number.'),
  make: os('Tire make (brand).'),
  model: os('Tire model.'),
  size: os('Tire size, e.g. 225/65R17.'),
  date: opt(date3(), 'Date of the sale, ISO 8601.'),
  quantity: opt(integer(), 'Quantity (integer).'),
  cost: opt(num(), 'Cost (number).'),
}).meta({ description: 'Part sold to a shop.' });

export type Part = z.infer<typeof Part>;
