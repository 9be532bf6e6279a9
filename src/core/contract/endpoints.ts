import { z } from 'zod';
import { withCommonAnswers } from './answers';
import { ErrorBody, UnauthorizedBody } from './errors';
import { errorFor, str } from './primitives';
import { EndpointDef, EndpointId, QueryParamDef } from './types';
import { V2GetResponse, V2PostBody, V2PostResponse, V2_REC_VALUES } from './v2';
import {
  CancellationBody,
  CreatedClaimId,
  CreatedId,
  EligibilityResponse,
  MotorClubCustomerUpdate,
  MotorClubRegistration,
  MotorClubRegistrationList,
  MotorClubRegistrationRecord,
  Part,
  Registration,
  RegistrationList,
  RegistrationMetadata,
  RegistrationRecord,
  Shop,
  ShopLookupResult,
  ShopUpdate,
  TireProtectionClaim,
  TireProtectionRegistration,
  TireProtectionRegistrationList,
  TireProtectionRegistrationRecord,
  Transaction,
  VerifyTokenResponse,
} from './v3';

/**
 * The endpoint table (spec: Endpoints). The only place in the codebase where a method, path or query
 * parameter name is written. Paths are relative to the base address of `base` (see {@link BaseKind}).
 */

// ---------------------------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------------------------

/** Positive integer from the URL ("2") or from code (2); output number. '' and "0" are rejected. */
const positiveInt = () =>
  z
    .union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/)], { error: errorFor('positive integer') })
    .transform((v) => Number(v));

const pageSize: QueryParamDef = {
  schema: positiveInt(),
  default: 100,
  description: 'Records per page (positive integer; default 100).',
};
const page: QueryParamDef = { schema: positiveInt(), default: 1, description: 'Page number (positive integer; default 1).' };
const invoiceNumberRequired: QueryParamDef = {
  schema: str({ nonEmpty: true }),
  required: true,
  description: 'Invoice number of the registration (use the :id form when invoice numbers are not unique).',
};
const storeNumber: QueryParamDef = {
  schema: str({ nonEmpty: true }),
  description: 'Store number; needed when the invoice number alone is not unique.',
};
const invoiceNumberFilter: QueryParamDef = { schema: str({ nonEmpty: true }), description: 'Filter by invoice number.' };

/** Query of the three registration list calls (exported for the sandbox/client; spec: Limits). */
export const LIST_QUERY: Readonly<Record<string, QueryParamDef>> = { pageSize, page };

const unauthorized = { 401: UnauthorizedBody } as const;
const created = <S extends z.ZodType>(schema: S) => ({ 200: schema, 201: schema });

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

/** One row as written below; `path` is a template literal type so each row keeps its literal path (typed params). */
type TableRow = Omit<EndpointDef, 'id' | 'pathParams' | 'path'> & { readonly path: `/${string}` };

const table = {
  // Token verification
  verifyToken: {
    method: 'GET',
    base: 'v3',
    path: '/verify-token',
    query: {},
    responses: { 200: VerifyTokenResponse, ...unauthorized },
    apiVersion: 3,
    product: 'auth',
    summary: 'Confirm that a partner token is accepted.',
  },

  // Registrations, earlier revision
  createRegistration: {
    method: 'POST',
    base: 'v3',
    path: '/registrations',
    query: {},
    body: Registration,
    responses: { ...created(CreatedId), 400: ErrorBody, ...unauthorized },
    apiVersion: 3,
    product: 'registrations',
    summary: 'Create a registration (earlier revision).',
  },
  listRegistrations: {
    method: 'GET',
    base: 'v3',
    path: '/registrations',
    query: { pageSize, page },
    responses: { 200: RegistrationList, 400: ErrorBody, ...unauthorized },
    apiVersion: 3,
    product: 'registrations',
    summary: 'List registrations (earlier revision).',
  },
  getRegistration: {
    method: 'GET',
    base: 'v3',
    path: '/registrations/:id',
    query: {},
    responses: { 200: RegistrationRecord, ...unauthorized, 404: ErrorBody },
    apiVersion: 3,
    product: 'registrations',
    summary: 'Read a registration (earlier revision).',
  },
  cancelRegistration: {
    method: 'PATCH',
    base: 'v3',
    path: '/registrations/:id',
    query: {},
    body: CancellationBody,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'registrations',
    summary: 'Cancel a registration by identifier (earlier revision).',
  },
  cancelRegistrationByInvoice: {
    method: 'PATCH',
    base: 'v3',
    path: '/registrations',
    query: { invoiceNumber: invoiceNumberRequired },
    body: CancellationBody,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'registrations',
    summary: 'Cancel a registration by invoice number (earlier revision).',
  },

  // Tire-protection registrations
  createTireProtectionRegistration: {
    method: 'POST',
    base: 'v3',
    path: '/tire-protection/registrations',
    query: {},
    body: TireProtectionRegistration,
    responses: { ...created(CreatedId), 400: ErrorBody, ...unauthorized },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Create a tire-protection registration.',
  },
  listTireProtectionRegistrations: {
    method: 'GET',
    base: 'v3',
    path: '/tire-protection/registrations',
    query: { pageSize, page, invoiceNumber: invoiceNumberFilter, storeNumber },
    responses: { 200: TireProtectionRegistrationList, 400: ErrorBody, ...unauthorized },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'List tire-protection registrations.',
  },
  getTireProtectionRegistration: {
    method: 'GET',
    base: 'v3',
    path: '/tire-protection/registrations/:id',
    query: {},
    responses: { 200: TireProtectionRegistrationRecord, ...unauthorized, 404: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Read a tire-protection registration with its claims.',
  },
  getTireProtectionRegistrationMetadata: {
    method: 'GET',
    base: 'v3',
    path: '/tire-protection/registrations/:id/metadata',
    query: {},
    responses: { 200: RegistrationMetadata, ...unauthorized, 404: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Read the metadata of a tire-protection registration.',
  },
  cancelTireProtectionRegistration: {
    method: 'PATCH',
    base: 'v3',
    path: '/tire-protection/registrations/:id',
    query: {},
    body: CancellationBody,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Cancel a tire-protection registration by identifier.',
  },
  cancelTireProtectionRegistrationByInvoice: {
    method: 'PATCH',
    base: 'v3',
    path: '/tire-protection/registrations',
    query: { invoiceNumber: invoiceNumberRequired, storeNumber },
    body: CancellationBody,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Cancel a tire-protection registration by invoice number (and store number).',
  },

  // Claims
  createTireProtectionClaim: {
    method: 'POST',
    base: 'v3',
    path: '/tire-protection/registrations/:id/claims',
    query: {},
    body: TireProtectionClaim,
    responses: { ...created(CreatedClaimId), 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'File a claim against a tire-protection registration.',
  },

  // Shops and parts
  lookupShop: {
    method: 'GET',
    base: 'v3',
    path: '/tire-protection/shops/lookup',
    query: {
      query: {
        schema: str({ nonEmpty: true }),
        required: true,
        description: 'Phone number, or name and address, of the shop.',
      },
    },
    responses: { 200: ShopLookupResult, 400: ErrorBody, ...unauthorized, 404: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Look up a shop by phone number, or name and address.',
  },
  createShop: {
    method: 'POST',
    base: 'v3',
    path: '/tire-protection/shops',
    query: {},
    body: Shop,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 409: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Enrol a shop.',
  },
  updateShop: {
    method: 'PATCH',
    base: 'v3',
    path: '/tire-protection/shops/:uniqueId',
    query: {},
    body: ShopUpdate,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Update a shop (end date, start date, more e-mail addresses).',
  },
  addShopPart: {
    method: 'POST',
    base: 'v3',
    path: '/tire-protection/shops/:uniqueId/parts',
    query: {},
    body: Part,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Report a part sold to a shop.',
  },

  // Transactions
  createTransaction: {
    method: 'POST',
    base: 'v3',
    path: '/tire-protection/transactions',
    query: {},
    body: Transaction,
    responses: { 204: null, 400: ErrorBody, ...unauthorized },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Report a sale of tires from a manufacturer to a dealer.',
  },

  // Motor club
  createMotorClubRegistration: {
    method: 'POST',
    base: 'v3',
    path: '/motor-club/registrations',
    query: {},
    body: MotorClubRegistration,
    responses: { ...created(CreatedId), 400: ErrorBody, ...unauthorized },
    apiVersion: 3,
    product: 'motor-club',
    summary: 'Create a motor-club registration.',
  },
  listMotorClubRegistrations: {
    method: 'GET',
    base: 'v3',
    path: '/motor-club/registrations',
    query: { pageSize, page },
    responses: { 200: MotorClubRegistrationList, 400: ErrorBody, ...unauthorized },
    apiVersion: 3,
    product: 'motor-club',
    summary: 'List motor-club registrations.',
  },
  getMotorClubRegistration: {
    method: 'GET',
    base: 'v3',
    path: '/motor-club/registrations/:id',
    query: {},
    responses: { 200: MotorClubRegistrationRecord, ...unauthorized, 404: ErrorBody },
    apiVersion: 3,
    product: 'motor-club',
    summary: 'Read a motor-club registration.',
  },
  updateMotorClubCustomer: {
    method: 'PATCH',
    base: 'v3',
    path: '/motor-club/registrations/:id',
    query: {},
    body: MotorClubCustomerUpdate,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'motor-club',
    summary: 'Replace the customer of a motor-club registration by identifier.',
  },
  updateMotorClubCustomerByInvoice: {
    method: 'PATCH',
    base: 'v3',
    path: '/motor-club/registrations',
    query: { invoiceNumber: invoiceNumberRequired },
    body: MotorClubCustomerUpdate,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'motor-club',
    summary: 'Replace the customer of a motor-club registration by invoice number.',
  },
  cancelMotorClubRegistration: {
    method: 'PATCH',
    base: 'v3',
    path: '/motor-club/registrations/:id',
    query: {},
    body: CancellationBody,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'motor-club',
    summary: 'Cancel a motor-club registration by identifier.',
  },
  cancelMotorClubRegistrationByInvoice: {
    method: 'PATCH',
    base: 'v3',
    path: '/motor-club/registrations',
    query: { invoiceNumber: invoiceNumberRequired },
    body: CancellationBody,
    responses: { 204: null, 400: ErrorBody, ...unauthorized, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 3,
    product: 'motor-club',
    summary: 'Cancel a motor-club registration by invoice number.',
  },

  // Version 2 records
  v2GetRecords: {
    method: 'GET',
    base: 'v2',
    path: '/v2/partners/:company_name',
    query: {
      rec: {
        schema: z.enum(V2_REC_VALUES, { error: `one of ${V2_REC_VALUES.join(', ')}` }),
        required: true,
        description: 'Record kind: registrations, registrationstatus, claims, sales or cancellations.',
      },
      partnerid: { schema: str({ nonEmpty: true }), description: 'Partner ID.' },
      shopid: { schema: str({ nonEmpty: true }), description: 'Shop ID.', aliases: ['ShopID'] },
      invoicenumber: { schema: str({ nonEmpty: true }), description: 'Invoice number.', aliases: ['InvoiceNumber'] },
    },
    responses: { 200: V2GetResponse, 400: ErrorBody, ...unauthorized, 403: ErrorBody },
    apiVersion: 2,
    product: 'records',
    summary: 'Read version 2 records of the chosen kind.',
  },
  v2PostRecords: {
    method: 'POST',
    base: 'v2',
    path: '/v2/partners/:company_name',
    query: {},
    body: V2PostBody,
    responses: { ...created(V2PostResponse), 204: null, 400: ErrorBody, ...unauthorized, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
    apiVersion: 2,
    product: 'records',
    summary: 'Create version 2 records: Registrations, Claims, Sales or Cancellations (deprecated).',
  },

  // Eligibility lookup (retired)
  eligibilityLookup: {
    method: 'GET',
    base: 'eligibility',
    path: '/vehicle-lookup/:program/rsa/eligible',
    query: {
      vin: { schema: str({ nonEmpty: true }), description: 'Vehicle identification number; if sent, only vin is used.' },
      licensePlate: { schema: str({ nonEmpty: true }), description: 'License plate, together with state.' },
      state: {
        schema: z.string().regex(/^[A-Za-z]{2}$/, { error: 'two-letter state abbreviation' }),
        description: 'Two-letter state abbreviation, with licensePlate.',
      },
    },
    responses: { 200: EligibilityResponse, 400: ErrorBody },
    apiVersion: 1,
    product: 'eligibility',
    deprecated: true,
    summary:
      'Vehicle eligibility lookup for roadside assistance (retired: deprecated and unsupported; needs a dedicated token).',
  },
} satisfies Record<EndpointId, TableRow>;

/**
 * The endpoint table's rows with their exact types (literal paths, each response's zod schema): what
 * `ResponseOf`, `BodyOf`, `ParamsOf` and `QueryOf` in endpointTypes.ts read.
 */
export type EndpointShapes = typeof table;

/** Names of the `:name` parameters of a path template, in order. */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
}

/**
 * Every endpoint of the spec, by stable id. `responses` holds the statuses of the endpoint's spec row plus the
 * answers every call can give (see answers.ts: 401, 405, 429, 5xx; with a body also 400, 413, 415).
 */
export const ENDPOINTS: Readonly<Record<EndpointId, EndpointDef>> = Object.freeze(
  Object.fromEntries(
    Object.entries(table).map(([id, def]) => [id, Object.freeze({ id, pathParams: pathParamsOf(def.path), ...def, responses: withCommonAnswers(def) })]),
  ) as unknown as Record<EndpointId, EndpointDef>,
);

/** Query values accepted by {@link buildPath}; undefined values are left out. */
export type QueryValues = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Fills an endpoint's path template and appends a query string.
 *
 * @param endpoint endpoint id or definition, e.g. 'getTireProtectionRegistration'
 * @param params values of the `:name` path parameters, e.g. `{ id: 'a/b' }` (URL-encoded: `a%2Fb`)
 * @param query query parameters; undefined values are skipped; keys in insertion order
 * @returns the path relative to the endpoint's base, e.g. `/tire-protection/registrations/a%2Fb?page=2`
 * @throws Error when a path parameter is missing or empty
 */
export function buildPath(
  endpoint: EndpointId | EndpointDef,
  params: Readonly<Record<string, string | number>> = {},
  query?: QueryValues,
): string {
  const def = typeof endpoint === 'string' ? ENDPOINTS[endpoint] : endpoint;
  if (!def) throw new Error(`Unknown endpoint '${String(endpoint)}'.`);
  const path = def.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === '') throw new Error(`Path parameter '${name}' is required for ${def.method} ${def.path}.`);
    return encodeURIComponent(String(v));
  });
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) search.append(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * Finds the endpoints whose method and path template match a concrete request path (relative to the base, no
 * query). Several may match (the motor-club and registration PATCH forms are told apart by the body).
 */
export function matchEndpoints(method: string, path: string): { def: EndpointDef; params: Record<string, string> }[] {
  const out: { def: EndpointDef; params: Record<string, string> }[] = [];
  for (const def of Object.values(ENDPOINTS)) {
    if (def.method !== method.toUpperCase()) continue;
    const re = new RegExp(
      '^' + def.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '(?<$1>[^/]+)') + '/?$',
    );
    const m = re.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = decodeURIComponent(v);
    out.push({ def, params });
  }
  return out;
}
