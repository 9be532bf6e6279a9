import { z } from 'zod';
import { readDate, readInt, readMoney } from '../primitives';
import { V2CancellationShape } from './cancellation';
import { V2ClaimShape } from './claim';
import { describeField, v2FieldInfo } from './fields';
import { V2RegistrationShape } from './registration';
import { V2SaleShape } from './sale';

/**
 * Version 2 records read back (spec: Version 2 record endpoints; Registration status record (v2)): `z.looseObject`s
 * with every field optional and tolerant types (numbers or numeric strings, '' or null dates).
 */

/** Read version of one request field: same name, tolerant type, optional and nullable. */
function readFieldOf(schema: z.ZodType): z.ZodType {
  const info = v2FieldInfo(schema);
  const description = info ? describeField({ ...info, req: 'N' }) : undefined;
  let read: z.ZodType;
  switch (info?.type) {
    case 'int':
      read = readInt();
      break;
    case 'money':
      read = readMoney();
      break;
    case 'datetime':
      read = readDate();
      break;
    default:
      // Strings (and CommercialVehicle, which reads return as e.g. "false"): any string, number or boolean.
      read = z.union([z.string(), z.number(), z.boolean()]);
  }
  const out = read.nullable().optional();
  return description ? out.meta({ description }) : out;
}

type ReadShape<S> = { [K in keyof S]: z.ZodOptional<z.ZodNullable<z.ZodType<unknown>>> };

/** Maps a request shape to its tolerant read shape (same field names; every field optional). */
function readShape<S extends Record<string, z.ZodType>>(shape: S): ReadShape<S> {
  const out: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(shape)) out[k] = readFieldOf(v);
  return out as ReadShape<S>;
}

/** Required: "Every record read back also carries PartnerID (int)" (spec: Version 2 records). */
const partnerId = readInt().meta({ description: 'Partner ID (int). Every record read back carries it.' });

/** A v2 registration read back (rec=registrations): the registration fields plus PartnerID. */
export const V2RegistrationRecord = z.looseObject({ ...readShape(V2RegistrationShape), PartnerID: partnerId });
/** A v2 claim read back (rec=claims): the claim fields plus TirePrice and PartnerID. */
export const V2ClaimRecord = z.looseObject({
  ...readShape(V2ClaimShape),
  TirePrice: readMoney().nullable().optional().meta({ description: 'Tire price (money), returned on claims read back.' }),
  PartnerID: partnerId,
});
/** A v2 sale read back (rec=sales). */
export const V2SaleRecord = z.looseObject({ ...readShape(V2SaleShape), PartnerID: partnerId });
/** A v2 cancellation read back (rec=cancellations). */
export const V2CancellationRecord = z.looseObject({ ...readShape(V2CancellationShape), PartnerID: partnerId });

/** Registration status record (rec=registrationstatus; spec: Registration status record (v2)). */
export const V2RegistrationStatus = z.looseObject({
  RegistrationID: readInt().optional(),
  PartnerID: partnerId,
  OrgID: z.string().nullable().optional().meta({ description: 'As in the registration.' }),
  ShopID: z.string().nullable().optional().meta({ description: 'As in the registration.' }),
  InvoiceNumber: z.string().nullable().optional().meta({ description: 'As in the registration.' }),
  PlanEnrollDate: readDate().optional(),
  CreatedDate: readDate().optional(),
  TiresCovered: readInt().optional().meta({ description: 'Original number of tires covered.' }),
  TireClaimCount: readInt().optional().meta({ description: 'Total claimed so far.' }),
  TireCancelCount: readInt().optional().meta({ description: 'Total cancelled so far.' }),
  TiresLeft: readInt().optional().meta({ description: 'Tires remaining on the registration.' }),
  WarrantyStatus: readInt()
    .optional()
    .meta({
      description:
        '1 Registration is Active, 2 Registration is Cancelled, 3 No Tires left on Registration, 4 Registration is Expired.',
    }),
  CancelDate: readDate().optional().meta({ description: 'Empty when not set.' }),
  ExpireDate: readDate().optional().meta({ description: 'Empty when not set.' }),
  StatusDate: readDate().optional().meta({ description: 'Empty when not set.' }),
  Message: z.string().nullable().optional().meta({ description: 'Text of the status.' }),
});

/** Any v2 record read back: the five kinds (a GET's `rec` says which; a document cannot tie the query to the body). */
const V2AnyRecord = z.union([V2RegistrationRecord, V2RegistrationStatus, V2ClaimRecord, V2SaleRecord, V2CancellationRecord]);

/**
 * Response of a v2 GET: "JSON record of the chosen kind". The Local sandbox answers an array of the records (empty
 * when none matches); one record alone is accepted too ("Shape of a legacy GET when several records match: not
 * shown").
 */
export const V2GetResponse = z
  .union([z.array(V2AnyRecord), V2AnyRecord])
  .meta({ description: 'The records of the kind rec names: an array (the Local sandbox), or one record.' });

const described = <T extends z.ZodType>(schema: T, description: string) => schema.nullable().optional().meta({ description });

/**
 * One record's outcome in a v2 POST answer, as the Local sandbox writes it (docs/contract.md: the real service's
 * answer is not shown, so every field is optional and unknown fields are kept).
 */
export const V2PostOutcome = z.looseObject({
  index: described(z.number().int(), 'Position of the record in the posted array, from 0.'),
  status: described(z.string(), 'created or updated (in an error answer also rejected, or not stored: another record was rejected).'),
  statusCode: described(z.number().int(), 'The status of this record alone: 201 created, 200 updated, or its error.'),
  message: described(z.string(), 'Why the record was rejected.'),
  RegistrationID: described(readInt(), 'The registration the record created or concerns.'),
  ClaimID: described(readInt(), 'The claim created or updated (Claims).'),
  id: described(z.string(), 'The version 3 identifier of the registration created or updated (Registrations).'),
});

const outcomes = (kind: string) => described(z.array(V2PostOutcome), `One outcome per posted ${kind} record, in order.`);

/**
 * Response of a v2 POST ("Legacy POST responses (status and body): not shown"): the Local sandbox answers 200 with the
 * array property it was sent, holding one {@link V2PostOutcome} per record. A JSON object; its fields are checked
 * when present and none is required, so a real service answering otherwise is not a malformed answer.
 */
export const V2PostResponse = z
  .looseObject({ Registrations: outcomes('registration'), Claims: outcomes('claim'), Sales: outcomes('sale'), Cancellations: outcomes('cancellation') })
  .meta({ description: 'Legacy POST responses (status and body): not shown. The Local sandbox answers the array property sent, one outcome per record.' });

export type V2RegistrationRecord = z.infer<typeof V2RegistrationRecord>;
export type V2ClaimRecord = z.infer<typeof V2ClaimRecord>;
export type V2RegistrationStatus = z.infer<typeof V2RegistrationStatus>;
