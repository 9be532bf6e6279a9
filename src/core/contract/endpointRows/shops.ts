import { schemas } from '../lazy';
import type { EndpointId } from '../types';
import { TableRow, errorBody, nonEmpty, param, unauthorized } from './common';

/**
 * Rows of the endpoint table (spec: Endpoints) for shops, the parts sold to them, and transactions. Bodies and
 * answers are built on first read.
 */
export const shopRows = {
  lookupShop: {
    method: 'GET',
    base: 'v3',
    path: '/tire-protection/shops/lookup',
    query: { query: param(nonEmpty, { required: true, description: 'Phone number, or name and address, of the shop.' }) },
    get responses() { return { 200: schemas.shopLookup().ShopLookupResult, 400: errorBody(), ...unauthorized(), 404: errorBody() }; },
    apiVersion: 3,
    product: 'tire-protection',
    resource: 'shop',
    summary: 'Look up a shop by phone number, or name and address.',
    description: 'Query: query (phone number, or name and address). Answers 200 with the lookup result; 400, 401, 404 (no result).',
  },
  createShop: {
    method: 'POST',
    base: 'v3',
    path: '/tire-protection/shops',
    query: {},
    get body() { return schemas.shop().Shop; },
    get responses() { return { 204: null, 400: errorBody(), ...unauthorized(), 409: errorBody() }; },
    apiVersion: 3,
    product: 'tire-protection',
    resource: 'shop',
    summary: 'Enrol a shop.',
    description: 'Takes the shop create body and answers 204, no body; 400, 401, 409 (uniqueId already exists).',
  },
  updateShop: {
    method: 'PATCH',
    base: 'v3',
    path: '/tire-protection/shops/:uniqueId',
    query: {},
    get body() { return schemas.shopUpdate().ShopUpdate; },
    get responses() { return { 204: null, 400: errorBody(), ...unauthorized(), 404: errorBody() }; },
    apiVersion: 3,
    product: 'tire-protection',
    resource: 'shop',
    summary: 'Update a shop (end date, start date, more e-mail addresses).',
    description: 'Takes the shop update body and answers 204; 400, 401.',
  },
  addShopPart: {
    method: 'POST',
    base: 'v3',
    path: '/tire-protection/shops/:uniqueId/parts',
    query: {},
    get body() { return schemas.part().Part; },
    get responses() { return { 204: null, 400: errorBody(), ...unauthorized(), 404: errorBody() }; },
    apiVersion: 3,
    product: 'tire-protection',
    resource: 'part',
    summary: 'Report a part sold to a shop.',
    description: 'Takes a part object and answers 204; 400, 401.',
  },

  // Transactions
  createTransaction: {
    method: 'POST',
    base: 'v3',
    path: '/tire-protection/transactions',
    query: {},
    get body() { return schemas.transaction().Transaction; },
    get responses() { return { 204: null, 400: errorBody(), ...unauthorized() }; },
    apiVersion: 3,
    product: 'tire-protection',
    resource: 'transaction',
    summary: 'Report a sale of tires from a manufacturer to a dealer.',
    description: 'Takes a transaction object (a sale of tires from a manufacturer to a dealer) and answers 204, no body; 400, 401.',
  },
} satisfies Partial<Record<EndpointId, TableRow>>;
