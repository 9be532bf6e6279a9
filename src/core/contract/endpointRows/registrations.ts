import { schemas } from '../lazy';
import type { EndpointId } from '../types';
import { TableRow, created, errorBody, invoiceNumberFilter, invoiceNumberRequired, page, pageSize, storeNumber, unauthorized } from './common';

/**
 * Rows of the endpoint table (spec: Endpoints) for registrations: the earlier revision (paths without product
 * prefix), tire-protection registrations and their claims. Bodies and answers are built on first read.
 */
export const registrationRows = {
  // Registrations, earlier revision
  createRegistration: {
    method: 'POST',
    base: 'v3',
    path: '/registrations',
    query: {},
    get body() { return schemas.registration().Registration; },
    get responses() { return { ...created(schemas.responses().CreatedId), 400: errorBody(), ...unauthorized() }; },
    apiVersion: 3,
    product: 'registrations',
    summary: 'Create a registration (earlier revision).',
  },
  listRegistrations: {
    method: 'GET',
    base: 'v3',
    path: '/registrations',
    query: { pageSize, page },
    get responses() { return { 200: schemas.records().RegistrationList, 400: errorBody(), ...unauthorized() }; },
    apiVersion: 3,
    product: 'registrations',
    summary: 'List registrations (earlier revision).',
  },
  getRegistration: {
    method: 'GET',
    base: 'v3',
    path: '/registrations/:id',
    query: {},
    get responses() { return { 200: schemas.records().RegistrationRecord, ...unauthorized(), 404: errorBody() }; },
    apiVersion: 3,
    product: 'registrations',
    summary: 'Read a registration (earlier revision).',
  },
  cancelRegistration: {
    method: 'PATCH',
    base: 'v3',
    path: '/registrations/:id',
    query: {},
    get body() { return schemas.cancellation().CancellationBody; },
    get responses() { return { 204: null, 400: errorBody(), ...unauthorized(), 404: errorBody(), 409: errorBody() }; },
    apiVersion: 3,
    product: 'registrations',
    summary: 'Cancel a registration by identifier (earlier revision).',
  },
  cancelRegistrationByInvoice: {
    method: 'PATCH',
    base: 'v3',
    path: '/registrations',
    query: { invoiceNumber: invoiceNumberRequired },
    get body() { return schemas.cancellation().CancellationBody; },
    get responses() { return { 204: null, 400: errorBody(), ...unauthorized(), 404: errorBody(), 409: errorBody() }; },
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
    get body() { return schemas.tireProtection().TireProtectionRegistration; },
    get responses() { return { ...created(schemas.responses().CreatedId), 400: errorBody(), ...unauthorized() }; },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Create a tire-protection registration.',
  },
  listTireProtectionRegistrations: {
    method: 'GET',
    base: 'v3',
    path: '/tire-protection/registrations',
    query: { pageSize, page, invoiceNumber: invoiceNumberFilter, storeNumber },
    get responses() { return { 200: schemas.records().TireProtectionRegistrationList, 400: errorBody(), ...unauthorized() }; },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'List tire-protection registrations.',
  },
  getTireProtectionRegistration: {
    method: 'GET',
    base: 'v3',
    path: '/tire-protection/registrations/:id',
    query: {},
    get responses() { return { 200: schemas.records().TireProtectionRegistrationRecord, ...unauthorized(), 404: errorBody() }; },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Read a tire-protection registration with its claims.',
  },
  getTireProtectionRegistrationMetadata: {
    method: 'GET',
    base: 'v3',
    path: '/tire-protection/registrations/:id/metadata',
    query: {},
    get responses() { return { 200: schemas.responses().RegistrationMetadata, ...unauthorized(), 404: errorBody() }; },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Read the metadata of a tire-protection registration.',
  },
  cancelTireProtectionRegistration: {
    method: 'PATCH',
    base: 'v3',
    path: '/tire-protection/registrations/:id',
    query: {},
    get body() { return schemas.cancellation().CancellationBody; },
    get responses() { return { 204: null, 400: errorBody(), ...unauthorized(), 404: errorBody(), 409: errorBody() }; },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'Cancel a tire-protection registration by identifier.',
  },
  cancelTireProtectionRegistrationByInvoice: {
    method: 'PATCH',
    base: 'v3',
    path: '/tire-protection/registrations',
    query: { invoiceNumber: invoiceNumberRequired, storeNumber },
    get body() { return schemas.cancellation().CancellationBody; },
    get responses() { return { 204: null, 400: errorBody(), ...unauthorized(), 404: errorBody(), 409: errorBody() }; },
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
    get body() { return schemas.claim().TireProtectionClaim; },
    get responses() {
      return { ...created(schemas.responses().CreatedClaimId), 400: errorBody(), ...unauthorized(), 404: errorBody(), 409: errorBody() };
    },
    apiVersion: 3,
    product: 'tire-protection',
    summary: 'File a claim against a tire-protection registration.',
  },
} satisfies Partial<Record<EndpointId, TableRow>>;
