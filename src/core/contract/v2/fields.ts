import { z } from 'zod';
import { MESSAGES, ReqFlag, errorFor, int, isoDate, money, str } from '../primitives';

/**
 * What the spec's version 2 field tables say (spec: Resources and their fields > Version 2 records; Data type
 * formats (v2)): the field builders of the record modules beside this file, the table row each field was built
 * from, and the constants of the version 2 rules. Builds no schema of its own.
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

/** The description of a v2 field: its Notes, then its type and whether it is required, e.g. "(string(25), required)". */
export function describeField(info: V2FieldInfo): string {
  const notes = info.notes.trim();
  return notes ? `${notes} (${typeText(info)})` : `${typeText(info)[0]?.toUpperCase()}${typeText(info).slice(1)}.`;
}

/** Attaches the description of `info` to `schema` and records `info` for {@link v2FieldInfo}. */
export function register<T extends z.ZodType>(schema: T, info: V2FieldInfo): T {
  const described = schema.meta({ description: describeField(info) }) as T;
  infos.set(described, info);
  return described;
}

/** string(n) field; required fields must not be empty. */
export function s<R extends ReqFlag>(max: number, req: R, notes = '') {
  const base = str({ max, nonEmpty: req === 'Y' });
  const schema = (req === 'Y' ? base : base.optional()) as R extends 'Y' ? typeof base : z.ZodOptional<typeof base>;
  return register(schema, { type: 'string', max, req, notes });
}

/** int field (numbers sent as strings are converted). */
export function i<R extends ReqFlag>(req: R, notes = '') {
  const base = int({ required: req === 'Y' });
  const schema = (req === 'Y' ? base : base.optional()) as R extends 'Y' ? typeof base : z.ZodOptional<typeof base>;
  return register(schema, { type: 'int', req, notes });
}

/** money field (number with at most 2 decimals, or a matching string). */
export function m<R extends ReqFlag>(req: R, notes = '') {
  const base = money({ required: req === 'Y' });
  const schema = (req === 'Y' ? base : base.optional()) as R extends 'Y' ? typeof base : z.ZodOptional<typeof base>;
  return register(schema, { type: 'money', req, notes });
}

/** datetime field (ISO 8601: a date alone, or a timestamp with Z or an offset). */
export function d<R extends ReqFlag>(req: R, notes = '') {
  const base = isoDate({ required: req === 'Y' });
  const schema = (req === 'Y' ? base : base.optional()) as R extends 'Y' ? typeof base : z.ZodOptional<typeof base>;
  return register(schema, { type: 'datetime', req, notes });
}

/** The array of a v2 POST body: at least one record ("at least one registration"). */
export const arrayOf = <T extends z.ZodType>(item: T, what: string) =>
  z
    .array(item, { error: errorFor(`${MESSAGES.array} of ${what}`) })
    .min(1, { error: `at least one ${what.replace(/s$/, '')}` });

/** Values of ServiceType (spec: Claim (v2)). */
export const SERVICE_TYPES = ['REPLACE', 'REPAIR'] as const;
/** Values of CommercialVehicle as sent (spec: Registration (v2): "Yes or No; default No"). */
export const COMMERCIAL_VEHICLE_VALUES = ['Yes', 'No'] as const;
/**
 * CommercialVehicle as accepted: Yes or No in any letter case (the spec does not state the case; see
 * docs/contract.md), converted to Yes / No; '' means omitted ("Blank if omitted"). Other case: a warning.
 */
export const COMMERCIAL_VEHICLE_RE = /^(yes|no)$/i;
/** {@link COMMERCIAL_VEHICLE_RE} or '' as a JSON Schema pattern (no flags there: each letter in both cases). */
export const COMMERCIAL_VEHICLE_PATTERN = '^([Yy][Ee][Ss]|[Nn][Oo])?$';
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

/** Names of the array properties of a v2 POST body (spec: Version 2 record endpoints), in the spec's order. */
export const V2_POST_KEYS: ('Registrations' | 'Claims' | 'Sales' | 'Cancellations')[] = ['Registrations', 'Claims', 'Sales', 'Cancellations'];

/** Values of the v2 GET `rec` query parameter (spec: Version 2 record endpoints). */
export const V2_REC_VALUES = ['registrations', 'registrationstatus', 'claims', 'sales', 'cancellations'] as const;
export type V2Rec = (typeof V2_REC_VALUES)[number];
