import type { z } from 'zod';
import { bool, integer, num } from '../primitives';
import { date3, obj, opt, os } from './build';

/**
 * Transaction: a sale of tires from a manufacturer to a dealer (POST /tire-protection/transactions; spec: Version 3
 * objects, "Transaction").
 */
export const Transaction = obj({
  product_id: os('Program product identifier.'),
  make: os('Tire make (brand).'),
  model: os('Tire model.'),
  size: os('Tire size, e.g. 225/65R17.'),
  treadDepth: opt(num(), 'Tread depth (number).'),
  date: opt(date3(), 'Date of the transaction, ISO 8601.'),
  unitPrice: opt(num(), 'Unit price (number).'),
  quantity: opt(integer(), 'Quantity (integer).'),
  isTrailer: opt(bool(), 'Whether the tire is a trailer tire.'),
  partNumber: os('Part number.'),
  dot: os('DOT serial.'),
}).meta({ description: 'Transaction: sale of tires from a manufacturer to a dealer, with no dealer or consumer data.' });

export type Transaction = z.infer<typeof Transaction>;
