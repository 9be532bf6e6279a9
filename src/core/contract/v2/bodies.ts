import { z } from 'zod';
import { V2CancellationsBody } from './cancellation';
import { V2ClaimsBody } from './claim';
import { V2_POST_KEYS } from './fields';
import { V2RegistrationsBody } from './registration';
import { V2SalesBody } from './sale';

/** The version 2 POST body with any of its four array properties (spec: Version 2 record endpoints). */

/** The four v2 POST bodies by their array property. */
export const V2_POST_BODIES = {
  Registrations: V2RegistrationsBody,
  Claims: V2ClaimsBody,
  Sales: V2SalesBody,
  Cancellations: V2CancellationsBody,
} as const;

/**
 * Any v2 POST body: an object with exactly one of the four array properties (spec: "body is an object with one
 * array property: Registrations, Claims, Sales or Cancellations"). Written as one object (not a union) so that
 * every issue's path names the exact field, e.g. Registrations.0.ShopID.
 */
export const V2PostBody = z
  .object({
    Registrations: V2RegistrationsBody.shape.Registrations.optional(),
    Claims: V2ClaimsBody.shape.Claims.optional(),
    Sales: V2SalesBody.shape.Sales.optional(),
    Cancellations: V2CancellationsBody.shape.Cancellations.optional(),
  })
  .superRefine((body, ctx) => {
    const present = V2_POST_KEYS.filter((k) => body[k] !== undefined);
    if (present.length === 0) {
      ctx.addIssue({ code: 'custom', path: [], message: `the body needs one array property: ${V2_POST_KEYS.join(', ')}` });
    }
    for (const extra of present.slice(1)) {
      ctx.addIssue({ code: 'custom', path: [extra], message: `only one array property per request (${present[0]} is already given)` });
    }
  })
  .meta({ description: 'Version 2 POST body: an object with one array property: Registrations, Claims, Sales or Cancellations.' });
