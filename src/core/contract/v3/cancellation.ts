import type { z } from 'zod';
import { MESSAGES } from '../primitives';
import { date3, forbidden, obj, req } from './build';

/**
 * Cancellation body {cancelledOn} of every v3 registration PATCH (spec: Endpoints; required, ISO 8601). The motor-club
 * customer update shares its path, so a body with a customer too is refused (docs/contract.md), not half applied.
 */
export const CancellationBody = obj({
  cancelledOn: req(date3(), 'Date of the cancellation, ISO 8601 (required).'),
  customer: forbidden(MESSAGES.customerWithCancel, 'Not allowed here: a customer update is a PATCH of its own ({customer}).'),
}).meta({ description: 'Cancels a registration. A registration can be cancelled only once (a second cancellation answers 409).' });

export type CancellationBody = z.infer<typeof CancellationBody>;
