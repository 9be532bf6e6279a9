import type { z } from 'zod';
import { date3, obj, req } from './build';

/** Cancellation body {cancelledOn} of every v3 registration PATCH (spec: Endpoints; required, ISO 8601). */
export const CancellationBody = obj({
  cancelledOn: req(date3(), 'Date of the cancellation, ISO 8601 (required).'),
}).meta({ description: 'Cancels a registration. A registration can be cancelled only once (a second cancellation answers 409).' });

export type CancellationBody = z.infer<typeof CancellationBody>;
