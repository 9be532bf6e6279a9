import { z } from 'zod';
import { readDate, readInt, readMoney } from '../primitives';
import { V2CancellationShape } from './cancellation';
import { V2ClaimShape } from './claim';
import { V2Rec, describeField, v2FieldInfo } from './fields';
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

const partnerId = readInt().optional().meta({ description: 'Partner ID (int). Every record read back carries it.' });

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

/** Record schema returned by a v2 GET for each `rec` value. */
export const V2_RECORD_BY_REC: Readonly<Record<V2Rec, z.ZodType>> = {
  registrations: V2RegistrationRecord,
  registrationstatus: V2RegistrationStatus,
  claims: V2ClaimRecord,
  sales: V2SaleRecord,
  cancellations: V2CancellationRecord,
};

/**
 * Response of a v2 GET: one record, or (shape "not shown" when several match; tolerated) an array of records,
 * or an object holding such an array. Parse with {@link V2_RECORD_BY_REC} for the field types of a given rec.
 */
export const V2GetResponse = z.union([z.array(z.looseObject({})), z.looseObject({})]);

/**
 * Response of a v2 POST: "Legacy POST responses (status and body): not shown". Any JSON body, or none, is accepted.
 */
export const V2PostResponse = z.unknown().meta({ description: 'Legacy POST responses (status and body): not shown.' });

export type V2RegistrationRecord = z.infer<typeof V2RegistrationRecord>;
export type V2ClaimRecord = z.infer<typeof V2ClaimRecord>;
export type V2RegistrationStatus = z.infer<typeof V2RegistrationStatus>;
