import type { z } from 'zod';
import { MESSAGES } from '../primitives';
import { forbidden, obj, req } from './build';
import { MotorClubCustomer } from './motorClubCustomer';

/**
 * Motor-club customer update body (PATCH /motor-club/registrations/:id; spec: Endpoints): customer required. The
 * cancellation shares the path, so a body with cancelledOn too is refused (docs/contract.md), not half applied.
 */
export const MotorClubCustomerUpdate = obj({
  customer: req(MotorClubCustomer, 'Customer object (required).'),
  cancelledOn: forbidden(MESSAGES.cancelWithCustomer, 'Not allowed here: a cancellation is a PATCH of its own ({cancelledOn}).'),
}).meta({ description: 'Replaces the customer of a motor-club registration (told apart from a cancellation by the body).' });

export type MotorClubCustomerUpdate = z.infer<typeof MotorClubCustomerUpdate>;
