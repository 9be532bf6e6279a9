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
    summary: 'Look up a shop by phone number, or name and address.',
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
    summary: 'Enrol a shop.',
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
    summary: 'Update a shop (end date, start date, more e-mail addresses).',
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
    summary: 'Report a part sold to a shop.',
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
    summary: 'Report a sale of tires from a manufacturer to a dealer.',
  },
} satisfies Partial<Record<EndpointId, TableRow>>;
