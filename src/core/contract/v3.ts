import { z } from 'zod';
import { MESSAGES, bool, email, errorFor, integer, isoDate, num, readInt, str } from './primitives';

/**
 * Version 3 object schemas (spec: Resources and their fields > Version 3 objects; Endpoints).
 *
 * Request schemas are plain `z.object`s (unknown keys are stripped, not rejected: the diagnostics layer reports
 * them as warnings by walking `.shape`). Where the spec shows required flags (the earlier-revision registration,
 * its customer, address, tire and vehicle; the cancelledOn and customer PATCH bodies) they are enforced and a
 * required string must not be empty. Where the flags are "not shown" (tire-protection registration, claim, shop,
 * part, transaction, motor-club) every property is optional and only its type/format is checked when present.
 *
 * Response (read) schemas are derived with {@link readOf}: `z.looseObject`s, every field optional and nullable,
 * formats not re-checked, unknown properties kept.
 */

// ---------------------------------------------------------------------------------------------
// Small builders
// ---------------------------------------------------------------------------------------------

/** A version 3 date: "Dates are ISO 8601 strings" (no zone required). */
const date3 = () => isoDate({ zone: 'optional' });
/**
 * Required string. '' is accepted: the spec makes an empty required field a 400 only in version 2 ("in version
 * 2, a required field empty or malformed"); the diagnostics warn about it (code empty-value).
 */
const rs = (description: string) => str().meta({ description });
/** Optional string. */
const os = (description: string) => str().optional().meta({ description });
/** Optional wrapper with a description. */
const opt = <T extends z.ZodType>(schema: T, description: string) => schema.optional().meta({ description });
/** Required wrapper with a description. */
const req = <T extends z.ZodType>(schema: T, description: string) => schema.meta({ description });

const obj = <S extends z.core.$ZodLooseShape>(shape: S) => z.object(shape, { error: errorFor(MESSAGES.object) });
const arr = <T extends z.ZodType>(item: T) => z.array(item, { error: errorFor(MESSAGES.array) });

/** Four-digit year as a JSON number (spec: Vehicle: year 4-digit number). */
const year = () =>
  z
    .number({ error: errorFor(MESSAGES.vehicleYear.replace('"2021"', '2021')) })
    .int({ error: 'four-digit year (e.g. 2021)' })
    .min(1000, { error: 'four-digit year (e.g. 2021)' })
    .max(9999, { error: 'four-digit year (e.g. 2021)' });

// ---------------------------------------------------------------------------------------------
// Registration, earlier revision (paths without product prefix)
// ---------------------------------------------------------------------------------------------

/** Address of the earlier-revision registration's customer: line1, city, state, zip required. */
export const Address = obj({
  line1: rs('Street address, first line (required).'),
  line2: os('Street address, second line.'),
  city: rs('City (required).'),
  state: rs('State (required).'),
  zip: rs('Postal code (required).'),
  country: os('Country; accepted in samples.'),
}).meta({ description: 'Address: line1, city, state and zip are required.' });

/** Customer of the earlier-revision registration: name and email required. */
export const Customer = obj({
  name: rs('Customer name (required).'),
  phone: opt(str(), 'Phone number.'),
  email: req(email(), 'E-mail address (required).'),
  address: opt(Address, 'Customer address.'),
}).meta({ description: 'Customer: name and email are required.' });

/** Tire of the earlier-revision registration. */
export const Tire = obj({
  make: rs('Tire make (brand) (required).'),
  model: rs('Tire model (required).'),
  size: rs('Tire size, e.g. 225/65R17 (required).'),
  retailPrice: req(num(), 'Retail price of the tire (number, required).'),
  dot: os('DOT serial of the tire.'),
  partNumber: os('Part number of the tire.'),
}).meta({ description: 'Tire: make, model, size and retailPrice are required.' });

/** Vehicle of the earlier-revision registration. */
export const Vehicle = obj({
  year: req(year(), 'Four-digit model year (number, required).'),
  make: rs('Vehicle make (required).'),
  model: rs('Vehicle model (required).'),
  vin: os('Vehicle identification number.'),
  plateNumber: os('License plate number.'),
  plateState: os('State of the license plate.'),
  mileage: opt(num(), 'Mileage (number).'),
}).meta({ description: 'Vehicle: year, make and model are required.' });

/** Registration of the earlier revision (POST /registrations, dated 06-JUN-2022). */
export const Registration = obj({
  product_id: rs('Program product identifier (required).'),
  invoiceNumber: rs('Invoice number; registrations are unique by invoice number (required).'),
  enrollDate: req(date3(), 'Enrolment date, ISO 8601 (required).'),
  customer: req(Customer, 'Customer (required).'),
  tires: req(arr(Tire).min(1, { error: 'at least one tire' }), 'Tires sold with the plan (required, at least one).'),
  vehicle: opt(Vehicle, 'Vehicle.'),
  comments: os('Comments.'),
}).meta({ description: 'Registration of the earlier revision (paths without product prefix).' });

// ---------------------------------------------------------------------------------------------
// Tire-protection registration (required flags not shown: every property optional)
// ---------------------------------------------------------------------------------------------

/** Customer of a tire-protection registration (name, email). */
export const TireProtectionCustomer = obj({
  name: os('Customer name.'),
  email: opt(email(), 'Customer e-mail address (a customer\'s email is an "email string" in the spec).'),
});

/** Vehicle of a tire-protection registration (year, make, model). */
export const TireProtectionVehicle = obj({
  year: opt(year(), 'Four-digit model year (number).'),
  make: os('Vehicle make.'),
  model: os('Vehicle model.'),
});

/** Tire of a tire-protection registration (make, model, size, retailPrice). */
export const TireProtectionTire = obj({
  make: os('Tire make (brand).'),
  model: os('Tire model.'),
  size: os('Tire size, e.g. 225/65R17.'),
  retailPrice: opt(num(), 'Retail price of the tire (number).'),
});

/** Tire-protection registration (POST /tire-protection/registrations). Required flags: not shown. */
export const TireProtectionRegistration = obj({
  product_id: os('Program product identifier.'),
  invoiceNumber: os('Invoice number; unique per registration (a store number may disambiguate).'),
  enrollDate: opt(date3(), 'Enrolment date, ISO 8601.'),
  customer: opt(TireProtectionCustomer, 'Customer (name, email).'),
  vehicle: opt(TireProtectionVehicle, 'Vehicle (year, make, model).'),
  tires: opt(arr(TireProtectionTire), 'Tires (make, model, size, retailPrice).'),
}).meta({ description: 'Tire-protection registration: the sale of tires with an attached protection plan.' });

// ---------------------------------------------------------------------------------------------
// Claim (tire protection)
// ---------------------------------------------------------------------------------------------

/** make, model, size of an original or replacement tire of a claim. */
export const ClaimTireSpec = obj({
  make: os('Tire make (brand).'),
  model: os('Tire model.'),
  size: os('Tire size, e.g. 225/65R17.'),
});

/** One tire of a claim: original and (when the tire was replaced) replacement. */
export const ClaimTire = obj({
  original: opt(ClaimTireSpec, 'The original tire (make, model, size).'),
  replacement: opt(ClaimTireSpec, 'The replacement tire (make, model, size); applies when the tire was replaced.'),
});

/** Claim against a tire-protection registration (POST /tire-protection/registrations/:id/claims). */
export const TireProtectionClaim = obj({
  serviceInvoiceNumber: os('Invoice number of the service.'),
  serviceInvoiceDate: opt(date3(), 'Date of the service invoice, ISO 8601.'),
  vehicleMileage: opt(num(), 'Vehicle mileage at the service (number).'),
  damageReason: os('Reason of the damage.'),
  damageDescription: os('Description of the damage.'),
  authorizedAmount: opt(num(), 'Authorized amount (number).'),
  tires: opt(
    arr(ClaimTire),
    'Tires claimed; each has original (make, model, size) and replacement (make, model, size), which applies when the tire was replaced.',
  ),
}).meta({
  description:
    'Claim: a repair or replacement made under a registration. Only against a registration that is not cancelled and not expired, while tires remain insured.',
});

// ---------------------------------------------------------------------------------------------
// Shops and parts
// ---------------------------------------------------------------------------------------------

/** Shop address: line1, line2, city, state, country, zip. */
export const ShopAddress = obj({
  line1: os('Street address, first line.'),
  line2: os('Street address, second line.'),
  city: os('City.'),
  state: os('State.'),
  country: os('Country.'),
  zip: os('Postal code.'),
});

/** Shop create body (POST /tire-protection/shops). */
export const Shop = obj({
  product_id: os('Program product identifier.'),
  placeId: os("The mapping provider's place identifier of the shop."),
  uniqueId: os('Unique per shop; a second create with the same uniqueId answers 409.'),
  legalName: os('Legal name of the business.'),
  startDate: opt(date3(), 'Start date, ISO 8601.'),
  dba: os('Doing-business-as name.'),
  groupName: os('Group name.'),
  phone: os('Phone number, international format (e.g. +1 555 010 0199).'),
  address: opt(ShopAddress, 'Physical address: line1, line2, city, state, country, zip.'),
  mailingAttn: os('Attention line of the mailing address.'),
  mailingAddress: opt(ShopAddress, 'Mailing address: line1, line2 (optional), city, state, country, zip.'),
  paymentPreference: os('Payment preference (allowed values: not shown).'),
  email: os('E-mail address (typed "string" by the spec: an address format is only a warning).'),
}).meta({
  description:
    'Shop: a business with a physical location that sells, installs and repairs tires. Parts sold to a shop and reported are covered by the program.',
});

/** Shop update body (PATCH /tire-protection/shops/:uniqueId). The e-mail field name is not shown: `email`. */
export const ShopUpdate = obj({
  product_id: os('Program product identifier.'),
  endDate: opt(date3(), 'End date, ISO 8601.'),
  startDate: opt(date3(), 'Start date, ISO 8601.'),
  email: opt(
    z.union([str(), arr(str())], { error: errorFor(MESSAGES.stringOrStrings) }),
    'More e-mail addresses for the shop: one address or an array (field name not shown by the spec; this toolkit uses email, as in the create body).',
  ),
}).meta({ description: 'Shop update: end date; may also add more e-mail addresses and set a start date.' });

/** Query of the shop lookup: `query` is a phone number, or name and address. */
export const ShopLookupQuery = z.object({
  query: str({ nonEmpty: true }).meta({ description: 'Phone number, or name and address.' }),
});

/** location of a shop lookup result: coordinates are [longitude, latitude]. */
export const GeoLocation = z.looseObject({
  type: z.string().optional().meta({ description: 'Geometry type, e.g. Point.' }),
  coordinates: z
    .tuple([z.number(), z.number()])
    .optional()
    .meta({ description: 'Two numbers: longitude, then latitude.' }),
});

/** Shop lookup result (GET /tire-protection/shops/lookup). */
export const ShopLookupResult = z.looseObject({
  name: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  line1: z.string().nullable().optional(),
  line2: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  zip: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  placeId: z.string().nullable().optional().meta({ description: "The mapping provider's place identifier." }),
  location: GeoLocation.nullable().optional().meta({ description: 'type, and coordinates [longitude, latitude].' }),
});

/** Part sold to a shop (POST /tire-protection/shops/:uniqueId/parts). */
export const Part = obj({
  product_id: os('Program product identifier.'),
  partNumber: os('Part number.'),
  make: os('Tire make (brand).'),
  model: os('Tire model.'),
  size: os('Tire size, e.g. 225/65R17.'),
  date: opt(date3(), 'Date of the sale, ISO 8601.'),
  quantity: opt(integer(), 'Quantity (integer).'),
  cost: opt(num(), 'Cost (number).'),
}).meta({ description: 'Part sold to a shop.' });

// ---------------------------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------------------------

/** Transaction: a sale of tires from a manufacturer to a dealer (POST /tire-protection/transactions). */
export const Transaction = obj({
  product_id: os('Program product identifier.'),
  make: os('Tire make (brand).'),
  model: os('Tire model.'),
  size: os('Tire size, e.g. 225/65R17.'),
  treadDepth: opt(num(), 'Tread depth (number).'),
  date: opt(date3(), 'Date of the transaction, ISO 8601.'),
  unitPrice: opt(num(), 'Unit price (number).'),
  quantity: opt(integer(), 'Quantity (integer).'),
  isTrailer: opt(bool(), 'Whether the tire is a trailer tire.'),
  partNumber: os('Part number.'),
  dot: os('DOT serial.'),
}).meta({ description: 'Transaction: sale of tires from a manufacturer to a dealer, with no dealer or consumer data.' });

// ---------------------------------------------------------------------------------------------
// Motor club
// ---------------------------------------------------------------------------------------------

/** Address of a motor-club customer: line1, line2, city, state, zip, country. */
export const MotorClubAddress = obj({
  line1: os('Street address, first line.'),
  line2: os('Street address, second line.'),
  city: os('City.'),
  state: os('State.'),
  zip: os('Postal code.'),
  country: os('Country.'),
});

/** Motor-club customer: name, phone, email, address. */
export const MotorClubCustomer = obj({
  name: os('Customer name.'),
  phone: os('Phone number.'),
  email: opt(email(), 'E-mail address (a customer\'s email is an "email string" in the spec).'),
  address: opt(MotorClubAddress, 'Address: line1, line2, city, state, zip, country.'),
});

/** Motor-club registration (POST /motor-club/registrations): carries only consumer information. */
export const MotorClubRegistration = obj({
  product_id: os('Program product identifier.'),
  invoiceNumber: os('Invoice number.'),
  enrollDate: opt(date3(), 'Enrolment date, ISO 8601.'),
  customer: opt(MotorClubCustomer, 'Customer: name, phone, email, address.'),
}).meta({ description: 'Motor-club registration: a registration that carries only consumer information.' });

/** Motor-club customer update body (PATCH /motor-club/registrations/:id): customer required. */
export const MotorClubCustomerUpdate = obj({
  customer: req(MotorClubCustomer, 'Customer object (required).'),
}).meta({ description: 'Replaces the customer of a motor-club registration (told apart from a cancellation by the body).' });

// ---------------------------------------------------------------------------------------------
// Shared bodies and responses
// ---------------------------------------------------------------------------------------------

/** Cancellation body {cancelledOn} of every v3 registration PATCH (required, ISO 8601). */
export const CancellationBody = obj({
  cancelledOn: req(date3(), 'Date of the cancellation, ISO 8601 (required).'),
}).meta({ description: 'Cancels a registration. A registration can be cancelled only once (a second cancellation answers 409).' });

/** Response of creates that return an id string (registrations, motor-club registrations). */
export const CreatedId = z.looseObject({
  id: z.union([z.string(), z.number()]).meta({ description: 'Identifier of the new record (string).' }),
});

/** Response of a claim create: the claim identifier, a number (numeric strings tolerated and converted). */
export const CreatedClaimId = z.looseObject({
  id: readInt().meta({ description: 'Identifier of the new claim (number).' }),
});

/** Response of GET /verify-token. */
export const VerifyTokenResponse = z.looseObject({
  partner_id: z.union([z.string(), z.number()]).meta({ description: 'The Partner ID the token was issued for (string).' }),
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

// ---------------------------------------------------------------------------------------------
// Read schemas derived from request schemas
// ---------------------------------------------------------------------------------------------

/** Type of a record read back: every property optional/nullable, unknown properties kept. */
export type ReadOf<T> = T extends readonly (infer U)[]
  ? ReadOf<U>[]
  : T extends object
    ? { [K in keyof T]?: ReadOf<T[K]> | null } & { [k: string]: unknown }
    : T;

function defOf(schema: z.ZodType): { type: string; [k: string]: unknown } {
  return (schema as unknown as { _zod: { def: { type: string; [k: string]: unknown } } })._zod.def;
}

/** Tolerant read version of one (request) schema, keeping descriptions. */
function readNode(schema: z.ZodType): z.ZodType {
  const meta = z.globalRegistry.get(schema);
  const def = defOf(schema);
  let out: z.ZodType;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return withMeta(readNode(def.innerType as z.ZodType), meta);
    case 'object': {
      const shape: Record<string, z.ZodType> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        shape[k] = readNode(v).nullable().optional();
      }
      out = z.looseObject(shape);
      break;
    }
    case 'array':
      out = z.array(readNode(def.element as z.ZodType));
      break;
    case 'union':
      out = z.union((def.options as z.ZodType[]).map(readNode) as [z.ZodType, z.ZodType]);
      break;
    case 'string':
      out = z.string();
      break;
    case 'number':
      out = z.number();
      break;
    case 'boolean':
      out = z.boolean();
      break;
    default:
      out = z.unknown();
  }
  return withMeta(out, meta);
}

function withMeta(schema: z.ZodType, meta: Record<string, unknown> | undefined): z.ZodType {
  return meta ? schema.meta(meta) : schema;
}

/**
 * Builds the read (response) schema of a request object schema: a `z.looseObject` with every property optional
 * and nullable, nested objects and arrays likewise, string formats not re-checked; `extra` adds read-only fields.
 */
export function readOf<T extends z.ZodType, E extends z.core.$ZodLooseShape = Record<never, never>>(
  schema: T,
  extra?: E,
): z.ZodType<ReadOf<z.output<T> & z.output<z.ZodObject<E>>>> {
  const base = readNode(schema) as z.ZodObject;
  return (extra ? base.extend(extra) : base) as unknown as z.ZodType<ReadOf<z.output<T> & z.output<z.ZodObject<E>>>>;
}

const idField = z.union([z.string(), z.number()]).meta({ description: 'Record identifier (string).' });
const cancelledOnField = z
  .string()
  .nullable()
  .optional()
  .meta({ description: 'Set after cancellation (ISO 8601).' });

/** Earlier-revision registration read back: adds _id and, after cancellation, cancelledOn. */
export const RegistrationRecord = readOf(Registration, { _id: idField.optional(), cancelledOn: cancelledOnField });

/**
 * Tire-protection registration read back: adds _id, program_id and cancelledOn; a read by identifier also
 * returns the claims filed against it (their shape: not shown, kept as loose objects).
 */
export const TireProtectionRegistrationRecord = readOf(TireProtectionRegistration, {
  _id: idField.optional(),
  program_id: z.union([z.string(), z.number()]).nullable().optional().meta({ description: 'Program identifier (string).' }),
  cancelledOn: cancelledOnField,
  claims: z
    .array(z.looseObject({}))
    .nullable()
    .optional()
    .meta({ description: 'Claims filed against the registration (shape not shown).' }),
});

/** Motor-club registration read back: adds _id (and cancelledOn when cancelled). */
export const MotorClubRegistrationRecord = readOf(MotorClubRegistration, {
  _id: idField.optional(),
  cancelledOn: cancelledOnField,
});

/** List envelope of a registration list, with `results` of the given record schema. */
export function listEnvelope<T extends z.ZodType>(record: T) {
  return z.looseObject({
    results: z.array(record).meta({ description: 'Registrations of this page.' }),
    totalRecordCount: z.number().int().optional(),
    page: z.number().int().optional(),
    pageSize: z.number().int().optional(),
    totalPages: z.number().int().optional(),
  });
}

/** List envelope of earlier-revision registrations. */
export const RegistrationList = listEnvelope(RegistrationRecord);
/** List envelope of tire-protection registrations. */
export const TireProtectionRegistrationList = listEnvelope(TireProtectionRegistrationRecord);
/** List envelope of motor-club registrations. */
export const MotorClubRegistrationList = listEnvelope(MotorClubRegistrationRecord);

// ---------------------------------------------------------------------------------------------
// Vehicle eligibility lookup (retired)
// ---------------------------------------------------------------------------------------------

/** Query of the eligibility lookup: vin; or licensePlate together with state (two-letter). vin wins. */
export const EligibilityQuery = z
  .object({
    vin: str({ nonEmpty: true }).optional().meta({ description: 'Vehicle identification number; if sent, only vin is used.' }),
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

export type Address = z.infer<typeof Address>;
export type Customer = z.infer<typeof Customer>;
export type Tire = z.infer<typeof Tire>;
export type Vehicle = z.infer<typeof Vehicle>;
export type Registration = z.infer<typeof Registration>;
export type TireProtectionRegistration = z.infer<typeof TireProtectionRegistration>;
export type TireProtectionClaim = z.infer<typeof TireProtectionClaim>;
export type Shop = z.infer<typeof Shop>;
export type ShopUpdate = z.infer<typeof ShopUpdate>;
export type ShopLookupResult = z.infer<typeof ShopLookupResult>;
export type Part = z.infer<typeof Part>;
export type Transaction = z.infer<typeof Transaction>;
export type MotorClubCustomer = z.infer<typeof MotorClubCustomer>;
export type MotorClubRegistration = z.infer<typeof MotorClubRegistration>;
export type MotorClubCustomerUpdate = z.infer<typeof MotorClubCustomerUpdate>;
export type CancellationBody = z.infer<typeof CancellationBody>;
export type CreatedId = z.infer<typeof CreatedId>;
export type CreatedClaimId = z.infer<typeof CreatedClaimId>;
export type VerifyTokenResponse = z.infer<typeof VerifyTokenResponse>;
export type RegistrationMetadata = z.infer<typeof RegistrationMetadata>;
export type RegistrationRecord = z.infer<typeof RegistrationRecord>;
export type TireProtectionRegistrationRecord = z.infer<typeof TireProtectionRegistrationRecord>;
export type MotorClubRegistrationRecord = z.infer<typeof MotorClubRegistrationRecord>;
export type EligibilityQuery = z.infer<typeof EligibilityQuery>;
export type EligibilityResponse = z.infer<typeof EligibilityResponse>;
