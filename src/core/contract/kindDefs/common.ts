import { ENDPOINTS } from '../endpoints';
import type { MetaPropertyDef, PayloadKind, PayloadKindDef } from '../types';

/** What the payload kinds' definitions share (spec: Resources and their fields; Endpoints): meta properties, the `$schema` line. */

/** Scheme and prefix of payload schema URIs. */
export const SCHEMA_URI_PREFIX = 'tpp://schemas/';

/** A payload kind as defined in kindDefs/: its schema is a getter that builds it on first read. */
export type KindDef = Omit<PayloadKindDef, 'kind'>;

/** `tpp://schemas/<kind>.json`, the `$schema` value of a payload file of `kind`. */
export function schemaUri(kind: PayloadKind): string {
  return `${SCHEMA_URI_PREFIX}${kind}.json`;
}

/** The `$schema` line of a template. */
export const S = (kind: PayloadKind) => ({ $schema: schemaUri(kind) });

/** `$companyName`: the v2 path's {company_name}. */
export const companyName: MetaPropertyDef = {
  description: `The partner's name segment {company_name} of ${ENDPOINTS.v2PostRecords.path.replace(':company_name', '{company_name}')} (defaults to the environment's setting).`,
  pathParam: 'company_name',
};
/** `$registrationId`: the registration's :id. */
export const registrationId: MetaPropertyDef = {
  description: 'Identifier (_id) of the registration this payload is for; fills :id.',
  pathParam: 'id',
};
/** `$invoiceNumber`: the ?invoiceNumber= form. */
export const invoiceNumber: MetaPropertyDef = {
  description:
    'Invoice number of the registration, when $registrationId is not given (sends the ?invoiceNumber= form; use $registrationId when invoice numbers are not unique).',
  queryParam: 'invoiceNumber',
};
/** `$storeNumber`: with `$invoiceNumber`, when it alone is not unique. */
export const storeNumber: MetaPropertyDef = {
  description: 'Store number, with $invoiceNumber, when the invoice number alone is not unique (tire protection only).',
  queryParam: 'storeNumber',
};
/** `$uniqueId`: the shop's :uniqueId (required). */
export const uniqueId: MetaPropertyDef = {
  description: 'uniqueId of the shop; fills :uniqueId.',
  pathParam: 'uniqueId',
  required: true,
};
