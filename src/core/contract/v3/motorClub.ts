import type { z } from 'zod';
import { date3, obj, opt, os } from './build';
import { MotorClubCustomer } from './motorClubCustomer';

/** Motor-club registration (POST /motor-club/registrations; spec: Version 3 objects): carries only consumer information. */
export const MotorClubRegistration = obj({
  product_id: os('Program product identifier.'),
  invoiceNumber: os('Invoice number.'),
  enrollDate: opt(date3(), 'Enrolment date, ISO 8601.'),
  customer: opt(MotorClubCustomer, 'Customer: name, phone, email, address.'),
}).meta({ description: 'Motor-club registration: a registration that carries only consumer information.' });

export type MotorClubRegistration = z.infer<typeof MotorClubRegistration>;
