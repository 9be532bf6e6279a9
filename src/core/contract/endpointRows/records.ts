import { z } from 'zod';
import { schemas } from '../lazy';
import type { EndpointId } from '../types';
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
    summary: 'Confirm that a partner token is accepted.',
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
    summary: 'Read version 2 records of the chosen kind.',
  },
  v2PostRecords: {
    method: 'POST',
    base: 'v2',
    path: '/v2/partners/:company_name',
    query: {},
    get body() { return schemas.v2Bodies().V2PostBody; },
    get responses() {
      return { ...created(schemas.v2Records().V2PostResponse), 204: null, 400: errorBody(), ...unauthorized(), 403: errorBody(), 404: errorBody(), 409: errorBody() };
    },
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
      vin: param(nonEmpty, { description: 'Vehicle identification number; if sent, only vin is used.' }),
      licensePlate: param(nonEmpty, { description: 'License plate, together with state.' }),
      state: param(() => z.string().regex(/^[A-Za-z]{2}$/, { error: 'two-letter state abbreviation' }), {
        description: 'Two-letter state abbreviation, with licensePlate.',
      }),
    },
    get responses() { return { 200: schemas.eligibility().EligibilityResponse, 400: errorBody() }; },
    apiVersion: 1,
    product: 'eligibility',
    deprecated: true,
    summary:
      'Vehicle eligibility lookup for roadside assistance (retired: deprecated and unsupported; needs a dedicated token).',
  },
} satisfies Partial<Record<EndpointId, TableRow>>;
