import { z } from 'zod';
import {
  MESSAGES,
  ReqFlag,
  charLength,
  errorFor,
  fitsLength,
  int,
  isoDate,
  money,
  readDate,
  readInt,
  readMoney,
  str,
} from './primitives';

/**
 * Version 2 record schemas (spec: Resources and their fields > Version 2 records; Data type formats (v2)).
 *
 * Request schemas (what a partner sends) are plain `z.object`s: unknown keys are stripped, not rejected, so the
 * diagnostics layer can report them as warnings by walking `.shape`. Read schemas (records read back) are
 * `z.looseObject`s with every field optional and tolerant types (numbers or numeric strings, '' or null dates).
 */

/** How a v2 field is typed in the spec's tables. */
export type V2FieldType = 'string' | 'int' | 'money' | 'datetime';

/** What the spec's field table says about one v2 field (kept for hover, diagnostics and read schemas). */
export interface V2FieldInfo {
  readonly type: V2FieldType;
  /** string(n): maximum length. */
  readonly max?: number;
  readonly req: ReqFlag;
  /** The Notes column. */
  readonly notes: string;
}

const infos = new WeakMap<z.ZodType, V2FieldInfo>();

/** The spec table row a v2 request field schema was built from, or undefined for other schemas. */
export function v2FieldInfo(schema: z.ZodType): V2FieldInfo | undefined {
  return infos.get(schema);
}

function typeText(info: Omit<V2FieldInfo, 'notes'>): string {
  const t = info.type === 'string' && info.max !== undefined ? `string(${info.max})` : info.type;
  const r = info.req === 'Y' ? 'required' : 'optional';
  return `${t}, ${r}`;
}

function describe(info: V2FieldInfo): string {
  const notes = info.notes.trim();
  return notes ? `${notes} (${typeText(info)})` : `${typeText(info)[0]?.toUpperCase()}${typeText(info).slice(1)}.`;
}

function register<T extends z.ZodType>(schema: T, info: V2FieldInfo): T {
  const described = schema.meta({ description: describe(info) }) as T;
  infos.set(described, info);
  return described;
}

/** string(n) field; required fields must not be empty. */
function s<R extends ReqFlag>(max: number, req: R, notes = '') {
  const base = str({ max, nonEmpty: req === 'Y' });
  const schema = (req === 'Y' ? base : base.optional()) as R extends 'Y' ? typeof base : z.ZodOptional<typeof base>;
  return register(schema, { type: 'string', max, req, notes });
}

/** int field (numbers sent as strings are converted). */
function i<R extends ReqFlag>(req: R, notes = '') {
  const base = int({ required: req === 'Y' });
  const schema = (req === 'Y' ? base : base.optional()) as R extends 'Y' ? typeof base : z.ZodOptional<typeof base>;
  return register(schema, { type: 'int', req, notes });
}

/** money field (number with at most 2 decimals, or a matching string). */
function m<R extends ReqFlag>(req: R, notes = '') {
  const base = money({ required: req === 'Y' });
  const schema = (req === 'Y' ? base : base.optional()) as R extends 'Y' ? typeof base : z.ZodOptional<typeof base>;
  return register(schema, { type: 'money', req, notes });
}

/** datetime field (ISO 8601: a date alone, or a timestamp with Z or an offset). */
function d<R extends ReqFlag>(req: R, notes = '') {
  const base = isoDate({ required: req === 'Y' });
  const schema = (req === 'Y' ? base : base.optional()) as R extends 'Y' ? typeof base : z.ZodOptional<typeof base>;
  return register(schema, { type: 'datetime', req, notes });
}

/** Values of ServiceType (spec: Claim (v2)). */
export const SERVICE_TYPES = ['REPLACE', 'REPAIR'] as const;
/** Values of CommercialVehicle as sent (spec: Registration (v2): "Yes or No; default No"). */
export const COMMERCIAL_VEHICLE_VALUES = ['Yes', 'No'] as const;
/**
 * CommercialVehicle as accepted: Yes or No in any letter case (the spec does not state the case; see
 * docs/contract.md), converted to Yes / No; '' means omitted ("Blank if omitted"). Other case: a warning.
 */
export const COMMERCIAL_VEHICLE_RE = /^(yes|no)$/i;
/** Version 2 WarrantyStatus values (spec: States and transitions). */
export const WARRANTY_STATUS = {
  1: 'Registration is Active',
  2: 'Registration is Cancelled',
  3: 'No Tires left on Registration',
  4: 'Registration is Expired',
} as const;

/** Shown by editors on deprecated v2 cancellation payloads (spec: Versioning). */
export const V2_CANCELLATION_DEPRECATED =
  'Version 2 cancellations are deprecated and unsupported; cancel with a PATCH {cancelledOn} (payload kind "cancellation").';

/** Message of a bad ServiceType (spec: Claim (v2)). */
export const SERVICE_TYPE_MESSAGE = 'REPLACE (tire replaced) or REPAIR (tire repaired)';
/** Message of a bad CommercialVehicle (spec: Registration (v2)). */
export const YES_NO_MESSAGE = 'Yes or No';

// ----------------------------------------------------------------------------------------------
// Registration (v2)
// ----------------------------------------------------------------------------------------------

/** Fields of a v2 registration as sent (spec: Registration (v2)). */
export const V2RegistrationShape = {
  OrgID: s(50, 'N', 'Grouping, such as an ownership group. Blank if omitted.'),
  ShopID: s(25, 'Y', 'Shop where the tires were sold.'),
  InvoiceNumber: s(50, 'Y', 'Invoice of the registration.'),
  PlanEnrollDate: d('Y', 'Enrolment date.'),
  EmployeeID: s(50, 'Y', 'Employee responsible for the plan sale.'),
  CustomerID: s(50, 'Y', 'Customer name or number, used for filtering.'),
  VehicleYear: register(
    str({ max: 25 })
      .regex(/^(\d{4})?$/, { error: MESSAGES.vehicleYear })
      .optional(),
    { type: 'string', max: 25, req: '', notes: 'Four-digit year.' },
  ),
  VehicleMake: s(25, ''),
  VehicleModel: s(25, ''),
  VIN: s(50, '', 'If available.'),
  CurrentMileage: i('', 'Mileage at sale.'),
  TiresCovered: i('Y', 'Tires covered by this registration.'),
  TPPPrice: m('Y', 'Plan price per tire.'),
  TireBrand: s(25, 'Y'),
  TireModel: s(25, ''),
  TireSize: s(25, 'Y'),
  TirePrice: m('Y', 'Retail price per tire.'),
  TireCost: m('Y', 'Wholesale cost per tire.'),
  TireDOT1: s(25, 'Y', 'Department of Transportation serial of tire 1, if available.'),
  TireDOT2: s(25, '', 'Serial of tire 2.'),
  TireDOT3: s(25, '', 'Serial of tire 3.'),
  TireDOT4: s(25, '', 'Serial of tire 4.'),
  TireDOT5: s(25, '', 'Serial of tire 5.'),
  TireDOT6: s(25, '', 'Serial of tire 6.'),
  CommercialVehicle: register(
    z
      .string({ error: errorFor(YES_NO_MESSAGE, false) })
      .refine((v) => v === '' || COMMERCIAL_VEHICLE_RE.test(v), {
        error: (iss) => (typeof iss.input === 'string' && !fitsLength(iss.input, 5) ? `${MESSAGES.maxLength(5)}, got ${charLength(iss.input)}` : YES_NO_MESSAGE),
      })
      // On the input side (before the transform): the editor's completion offers Yes and No.
      .meta({ default: 'No', examples: [...COMMERCIAL_VEHICLE_VALUES], maxLength: 5 })
      .transform((v) => (v === '' ? undefined : v.toLowerCase() === 'yes' ? 'Yes' : 'No'))
      .optional(),
    { type: 'string', max: 5, req: '', notes: 'Yes or No; default No. Reads return a string such as false.' },
  ),
};

/**
 * A v2 registration as sent. Rules: one registration per invoice; resending the same ShopID and InvoiceNumber
 * updates the existing registration.
 */
export const V2Registration = z
  .object(V2RegistrationShape)
  .meta({
    description:
      'Version 2 registration: the sale of a tire (or tires) with an attached protection plan. Send one registration per invoice; for several identical tires use TiresCovered and the DOT fields. Resending the same ShopID and InvoiceNumber updates the existing registration.',
  });

// ----------------------------------------------------------------------------------------------
// Claim (v2)
// ----------------------------------------------------------------------------------------------

/** Fields of a v2 claim as sent (spec: Claim (v2)). */
export const V2ClaimShape = {
  OrgID: s(50, 'N'),
  ShopID: s(25, 'Y', 'Shop where the registration was sold.'),
  InvoiceNumber: s(25, 'Y', 'Invoice of the original registration sale.'),
  ClaimDate: d('Y'),
  RepairShopID: s(25, 'Y', 'Shop where the repair was done.'),
  RepairInvoiceNumber: s(50, 'Y', 'Invoice of the repair work.'),
  VIN: s(50, '', 'If available.'),
  VehicleMileage: i('', 'Mileage at repair.'),
  TireClaimCount: i('Y', 'Tires repaired.'),
  CreditAmount: m('Y', 'Total credited to the customer (discount amount times quantity).'),
  CostPerUnit: m('Y', 'Replacement cost per tire at repair.'),
  TireLocation1: s(200, '', 'Location of tire 1 on the vehicle.'),
  TireLocation2: s(200, '', 'Location of tire 2 on the vehicle.'),
  TireLocation3: s(200, '', 'Location of tire 3 on the vehicle.'),
  TireLocation4: s(200, '', 'Location of tire 4 on the vehicle.'),
  TireLocation5: s(200, '', 'Location of tire 5 on the vehicle.'),
  TireLocation6: s(200, '', 'Location of tire 6 on the vehicle.'),
  ServiceType: register(
    z.enum(SERVICE_TYPES, { error: errorFor(SERVICE_TYPE_MESSAGE, false) }).optional(),
    { type: 'string', req: '', notes: 'REPLACE (tire replaced) or REPAIR (tire repaired). Present in sent and returned claims.' },
  ),
  ServiceDescription: s(200, '', 'Classification of the damage or service.'),
  TireBrand: s(25, 'Y', 'Replacement tire brand.'),
  TireModel: s(25, ''),
  TireSize: s(25, 'Y'),
  TireCost: m('Y', 'Replacement tire price.'),
};

/** A v2 claim as sent: a repair or replacement made under a registration. */
export const V2Claim = z
  .object(V2ClaimShape)
  .meta({ description: 'Version 2 claim: a repair or replacement made under a registration.' });

// ----------------------------------------------------------------------------------------------
// Sale (v2)
// ----------------------------------------------------------------------------------------------

/** Fields of a v2 sale (spec: Sale (v2)). */
export const V2SaleShape = {
  OrgID: s(50, 'N'),
  ShopID: s(25, 'Y', 'Shop that made the sale.'),
  InvoiceNumber: s(25, 'Y'),
  SaleDate: d('Y'),
  TireCount: i('Y', 'Tires sold.'),
  TireBrand: s(25, 'Y', 'Required for sales with and without a plan.'),
  TireModel: s(25, 'Y'),
  TireSize: s(25, 'Y'),
  TirePrice: m('Y', 'What the customer pays.'),
  TireCost: m('Y', 'What the shop pays.'),
};

/** A v2 sale as sent: tire sales, with or without a plan. */
export const V2Sale = z
  .object(V2SaleShape)
  .meta({ description: 'Version 2 sale: tire sales, with or without a plan.' });

// ----------------------------------------------------------------------------------------------
// Cancellation (v2, deprecated)
// ----------------------------------------------------------------------------------------------

/** Fields of a v2 cancellation (spec: Cancellation (v2, deprecated)). */
export const V2CancellationShape = {
  OrgID: s(50, 'N'),
  ShopID: s(25, 'Y', 'Shop of the original sale and registration.'),
  InvoiceNumber: s(25, 'Y', 'Invoice of the original sale and registration.'),
  CancelShopID: s(25, 'Y', 'Shop where the cancellation took place.'),
  CancelInvoiceNumber: s(25, 'Y', 'Invoice at the cancelling shop.'),
  TireCancelCount: i('Y', 'Tires cancelled.'),
  CancelDate: d('Y'),
};

/** A v2 cancellation as sent (deprecated and unsupported). */
export const V2Cancellation = z.object(V2CancellationShape).meta({
  description:
    'Version 2 cancellation (deprecated and unsupported). A cancellation with identical OrgID, ShopID, InvoiceNumber, CancelShopID and CancelInvoiceNumber is treated as an update, not a new cancellation.',
  deprecated: true,
  deprecationMessage: V2_CANCELLATION_DEPRECATED,
});

// ----------------------------------------------------------------------------------------------
// POST bodies
// ----------------------------------------------------------------------------------------------

const arrayOf = <T extends z.ZodType>(item: T, what: string) =>
  z
    .array(item, { error: errorFor(`${MESSAGES.array} of ${what}`) })
    .min(1, { error: `at least one ${what.replace(/s$/, '')}` });

/** POST body {Registrations: [...]} (spec: Version 2 record endpoints). */
export const V2RegistrationsBody = z.object({
  Registrations: arrayOf(V2Registration, 'registrations').meta({ description: 'Registrations to create or update.' }),
});
/** POST body {Claims: [...]}. */
export const V2ClaimsBody = z.object({
  Claims: arrayOf(V2Claim, 'claims').meta({ description: 'Claims to file.' }),
});
/** POST body {Sales: [...]}. */
export const V2SalesBody = z.object({
  Sales: arrayOf(V2Sale, 'sales').meta({ description: 'Sales to report.' }),
});
/** POST body {Cancellations: [...]} (deprecated). */
export const V2CancellationsBody = z
  .object({
    Cancellations: arrayOf(V2Cancellation, 'cancellations').meta({ description: 'Cancellations (deprecated).' }),
  })
  .meta({ deprecated: true, deprecationMessage: V2_CANCELLATION_DEPRECATED });

/** The four v2 POST bodies by their array property. */
export const V2_POST_BODIES = {
  Registrations: V2RegistrationsBody,
  Claims: V2ClaimsBody,
  Sales: V2SalesBody,
  Cancellations: V2CancellationsBody,
} as const;

/** Names of the array properties of a v2 POST body. */
export const V2_POST_KEYS = Object.keys(V2_POST_BODIES) as (keyof typeof V2_POST_BODIES)[];

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

// ----------------------------------------------------------------------------------------------
// Records read back (tolerant)
// ----------------------------------------------------------------------------------------------

/** Read version of one request field: same name, tolerant type, optional and nullable. */
function readFieldOf(schema: z.ZodType): z.ZodType {
  const info = infos.get(schema);
  const description = info ? describe({ ...info, req: 'N' }) : undefined;
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

/** Values of the v2 GET `rec` query parameter (spec: Version 2 record endpoints). */
export const V2_REC_VALUES = ['registrations', 'registrationstatus', 'claims', 'sales', 'cancellations'] as const;
export type V2Rec = (typeof V2_REC_VALUES)[number];

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

export type V2Registration = z.infer<typeof V2Registration>;
export type V2Claim = z.infer<typeof V2Claim>;
export type V2Sale = z.infer<typeof V2Sale>;
export type V2Cancellation = z.infer<typeof V2Cancellation>;
export type V2RegistrationsBody = z.infer<typeof V2RegistrationsBody>;
export type V2ClaimsBody = z.infer<typeof V2ClaimsBody>;
export type V2SalesBody = z.infer<typeof V2SalesBody>;
export type V2CancellationsBody = z.infer<typeof V2CancellationsBody>;
export type V2RegistrationRecord = z.infer<typeof V2RegistrationRecord>;
export type V2ClaimRecord = z.infer<typeof V2ClaimRecord>;
export type V2RegistrationStatus = z.infer<typeof V2RegistrationStatus>;
