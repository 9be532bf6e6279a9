import type { z } from 'zod';
import { obj, req } from './build';
import { MotorClubCustomer } from './motorClubCustomer';

/** Motor-club customer update body (PATCH /motor-club/registrations/:id; spec: Endpoints): customer required. */
export const MotorClubCustomerUpdate = obj({
  customer: req(MotorClubCustomer, 'Customer object (required).'),
}).meta({ description: 'Replaces the customer of a motor-club registration (told apart from a cancellation by the body).' });

export type MotorClubCustomerUpdate = z.infer<typeof MotorClubCustomerUpdate>;
