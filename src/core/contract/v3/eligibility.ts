import { z } from 'zod';
import { VIN_MESSAGE, VIN_RE } from '../patterns';
import { str } from '../primitives';

/** The retired vehicle eligibility lookup (spec: Endpoints, eligibility lookup; deprecated and unsupported). */

/** Query of the eligibility lookup: vin; or licensePlate together with state (two-letter). vin wins. */
export const EligibilityQuery = z
  .object({
    vin: z.string().regex(VIN_RE, { error: VIN_MESSAGE }).optional().meta({ description: 'Vehicle identification number (17 characters); if sent, only vin is used.' }),
    licensePlate: str({ nonEmpty: true }).optional().meta({ description: 'License plate; needs state.' }),
    state: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { error: 'two-letter state abbreviation' })
      .optional()
      .meta({ description: 'Two-letter state abbreviation, with licensePlate.' }),
  })
  .superRefine((q, ctx) => {
    if (q.vin) return;
    if (!q.licensePlate) ctx.addIssue({ code: 'custom', path: ['vin'], message: 'vin, or licensePlate together with state, is required' });
    else if (!q.state) ctx.addIssue({ code: 'custom', path: ['state'], message: 'state is required with licensePlate' });
  });

/** Response of the eligibility lookup. */
export const EligibilityResponse = z.looseObject({
  isEligible: z.boolean().meta({ description: 'Whether the vehicle is eligible for roadside assistance.' }),
});

export type EligibilityQuery = z.infer<typeof EligibilityQuery>;
export type EligibilityResponse = z.infer<typeof EligibilityResponse>;
