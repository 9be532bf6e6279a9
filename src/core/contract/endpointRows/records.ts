import { z } from 'zod';
import { schemas } from '../lazy';
import type { EndpointId } from '../types';
import { VIN_MESSAGE, VIN_RE } from '../patterns';
import { V2_REC_VALUES } from '../v2/fields';
import { TableRow, created, errorBody, nonEmpty, param, unauthorized } from './common';

/**
 * Rows of the endpoint table (spec: Endpoints) outside the registrations of version 3: the token check, the
 * version 2 records and the retired eligibility lookup. Bodies and answers are built on first read.
 */
export const recordRows = {
  verifyToken: {
    method: 'GET',
    base: 'v3',
    path: '/verify-token',
    query: {},
    get responses() { return { 200: schemas.responses().VerifyTokenResponse, ...unauthorized() }; },
    apiVersion: 3,
    product: 'auth',
    resource: 'token',
    summary: 'Confirm that a partner token is accepted.',
    description: 'Answers 200 with partner_id (string) and name (string); 401 if the token is invalid.',
  },

  // Version 2 records
  v2GetRecords: {
    method: 'GET',
    base: 'v2',
    path: '/v2/partners/:company_name',
    query: {
      rec: param(() => z.enum(V2_REC_VALUES, { error: `one of ${V2_REC_VALUES.join(', ')}` }), {
        required: true,
        description: 'Record kind: registrations, registrationstatus, claims, sales or cancellations.',
      }),
      partnerid: param(nonEmpty, { description: 'Partner ID.' }),
      shopid: param(nonEmpty, { description: 'Shop ID.', aliases: ['ShopID'] }),
      invoicenumber: param(nonEmpty, { description: 'Invoice number.', aliases: ['InvoiceNumber'] }),
    },
    get responses() { return { 200: schemas.v2Records().V2GetResponse, 400: errorBody(), ...unauthorized(), 403: errorBody() }; },
    apiVersion: 2,
    product: 'records',
    resource: 'records',
    summary: 'Read version 2 records of the chosen kind.',
    description: 'Query rec = registrations, registrationstatus, claims, sales or cancellations; partnerid; shopid; invoicenumber (ShopID and InvoiceNumber are also written in mixed case). Answers the JSON record of the chosen kind; rec=registrationstatus returns the status record.',
  },
  v2PostRecords: {
    method: 'POST',
    base: 'v2',
    path: '/v2/partners/:company_name',
    query: {},
    get body() { return schemas.v2Bodies().V2PostBody; },
    sandboxStatus: 200,
    get responses() {
      return { ...created(schemas.v2Records().V2PostResponse), 204: null, 400: errorBody(), ...unauthorized(), 403: errorBody(), 404: errorBody(), 409: errorBody() };
    },
    apiVersion: 2,
    product: 'records',
    resource: 'records',
    summary: 'Create version 2 records: Registrations, Claims, Sales or Cancellations (deprecated).',
    description: 'Body is an object with one array property, Registrations, Claims, Sales or Cancellations, each holding records of the matching shape; creates one or more records. The cancellation record type is deprecated and unsupported.',
  },

  // Eligibility lookup (retired)
  eligibilityLookup: {
    method: 'GET',
    base: 'eligibility',
    path: '/vehicle-lookup/:program/rsa/eligible',
    query: {
      vin: param(() => z.string().regex(VIN_RE, { error: VIN_MESSAGE }), { description: 'Vehicle identification number (17 characters); if sent, only vin is used.' }),
      licensePlate: param(nonEmpty, { description: 'License plate, together with state.' }),
      state: param(() => z.string().regex(/^[A-Za-z]{2}$/, { error: 'two-letter state abbreviation' }), {
        description: 'Two-letter state abbreviation, with licensePlate.',
      }),
    },
    get responses() { return { 200: schemas.eligibility().EligibilityResponse, 400: errorBody() }; },
    apiVersion: 1,
    product: 'eligibility',
    resource: 'eligibility',
    deprecated: true,
    summary:
      'Vehicle eligibility lookup for roadside assistance (retired: deprecated and unsupported; needs a dedicated token).',
    description: 'Query vin, or licensePlate together with state (two-letter abbreviation); answers 200 with isEligible (boolean). If vin, licensePlate and state are all sent, only vin is used. Deprecated and unsupported; requires a dedicated token issued by the provider: tokens made with the partner ID and key pair do not work on it.',
  },
} satisfies Partial<Record<EndpointId, TableRow>>;
