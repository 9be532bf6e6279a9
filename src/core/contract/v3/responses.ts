import { z } from 'zod';
import { readInt } from '../primitives';

/** Bodies of version 3 answers that are not records (spec: Endpoints): created ids, the token check, metadata. */

/** Response of creates that return an id string (registrations, motor-club registrations). */
export const CreatedId = z.looseObject({
  id: z.string().meta({ description: 'Identifier of the new record (string; spec: Endpoints, "object with id (string)").' }),
});

/** Response of a claim create: the claim identifier, a number (numeric strings tolerated and converted). */
export const CreatedClaimId = z.looseObject({
  id: readInt().meta({ description: 'Identifier of the new claim (number).', answeredAs: 'integer' }),
});

/** Response of GET /verify-token. */
export const VerifyTokenResponse = z.looseObject({
  partner_id: z.string().meta({ description: 'The Partner ID the token was issued for (string; spec: Token verification).' }),
  name: z.string().meta({ description: 'Name of the partner.' }),
});

/** Registration metadata (GET /tire-protection/registrations/:id/metadata; read only). */
export const RegistrationMetadata = z.looseObject({
  enrollDate: z.string().nullable().optional(),
  expirationDate: z.string().nullable().optional(),
  claimedTiresCount: z.number().int().nullable().optional(),
  availableTiresCount: z.number().int().nullable().optional(),
  hasTiresToClaim: z.boolean().nullable().optional(),
  hasTiresToReplace: z.boolean().nullable().optional(),
  isActive: z.boolean().nullable().optional(),
});

export type CreatedId = z.infer<typeof CreatedId>;
export type CreatedClaimId = z.infer<typeof CreatedClaimId>;
export type VerifyTokenResponse = z.infer<typeof VerifyTokenResponse>;
export type RegistrationMetadata = z.infer<typeof RegistrationMetadata>;
