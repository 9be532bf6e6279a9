import { z } from 'zod';
import { MotorClubRegistration } from './motorClub';
import { readOf } from './read';
import { Registration } from './registration';
import { TireProtectionRegistration } from './tireProtection';

/** Version 3 registrations read back, and the envelopes of their lists (spec: Endpoints; Limits). */

// Spec: "Identifiers of records are strings (except the claim identifier, a number)."
const idField = z.string().meta({ description: 'Record identifier (string).' });
const cancelledOnField = z
  .string()
  .nullable()
  .optional()
  .meta({ description: 'Set after cancellation (ISO 8601).' });

/** Earlier-revision registration read back: adds _id and, after cancellation, cancelledOn. */
export const RegistrationRecord = readOf(Registration, { _id: idField, cancelledOn: cancelledOnField });

/**
 * Tire-protection registration read back: adds _id, program_id and cancelledOn; a read by identifier also
 * returns the claims filed against it (their shape: not shown, kept as loose objects).
 */
export const TireProtectionRegistrationRecord = readOf(TireProtectionRegistration, {
  _id: idField,
  program_id: z.string().nullable().optional().meta({ description: 'Program identifier (string).' }),
  cancelledOn: cancelledOnField,
  claims: z
    .array(z.looseObject({}))
    .nullable()
    .optional()
    .meta({ description: 'Claims filed against the registration (shape not shown).' }),
});

/** Motor-club registration read back: adds _id (and cancelledOn when cancelled). */
export const MotorClubRegistrationRecord = readOf(MotorClubRegistration, {
  _id: idField,
  cancelledOn: cancelledOnField,
});

/** List envelope of a registration list, with `results` of the given record schema (spec: List envelope: every field). */
export function listEnvelope<T extends z.ZodType>(record: T) {
  return z.looseObject({
    results: z.array(record).meta({ description: 'Registrations of this page.' }),
    totalRecordCount: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalPages: z.number().int(),
  });
}

/** List envelope of earlier-revision registrations. */
export const RegistrationList = listEnvelope(RegistrationRecord);
/** List envelope of tire-protection registrations. */
export const TireProtectionRegistrationList = listEnvelope(TireProtectionRegistrationRecord);
/** List envelope of motor-club registrations. */
export const MotorClubRegistrationList = listEnvelope(MotorClubRegistrationRecord);

export type RegistrationRecord = z.infer<typeof RegistrationRecord>;
export type TireProtectionRegistrationRecord = z.infer<typeof TireProtectionRegistrationRecord>;
export type MotorClubRegistrationRecord = z.infer<typeof MotorClubRegistrationRecord>;
