import { z } from 'zod';
import { schemas } from '../lazy';
import { errorFor, str } from '../primitives';
import type { EndpointDef, QueryParamDef } from '../types';

/**
 * What the rows of the endpoint table (spec: Endpoints) share: their type, the query parameters several calls
 * take, and the 401 and create answers. A schema here is built on first use, like every schema of a row.
 */

/** One row as written in a table; `path` is a template literal type so each row keeps its literal path (typed params). */
export type TableRow = Omit<EndpointDef, 'id' | 'pathParams' | 'path'> & { readonly path: `/${string}` };

/** A query parameter whose schema is built on its first read. */
export function param(build: () => z.ZodType, rest: Omit<QueryParamDef, 'schema'>): QueryParamDef {
  let schema: z.ZodType | undefined;
  return {
    get schema() {
      return (schema ??= build());
    },
    ...rest,
  };
}

/** Positive integer from the URL ("2") or from code (2); output number. '' and "0" are rejected. */
const positiveInt = () =>
  z
    .union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/)], { error: errorFor('positive integer') })
    .transform((v) => Number(v));
/** A string that must not be empty. */
export const nonEmpty = () => str({ nonEmpty: true });

export const pageSize = param(positiveInt, { default: 100, description: 'Records per page (positive integer; default 100).' });
export const page = param(positiveInt, { default: 1, description: 'Page number (positive integer; default 1).' });
export const invoiceNumberRequired = param(nonEmpty, {
  required: true,
  description: 'Invoice number of the registration (use the :id form when invoice numbers are not unique).',
});
export const storeNumber = param(nonEmpty, { description: 'Store number; needed when the invoice number alone is not unique.' });
export const invoiceNumberFilter = param(nonEmpty, { description: 'Filter by invoice number.' });

/** The spec's 401 answer (spec: Authentication step 6). */
export const unauthorized = () => ({ 401: schemas.errors().UnauthorizedBody }) as const;
/** The tolerant body of every other error (spec: Errors). */
export const errorBody = () => schemas.errors().ErrorBody;
/**
 * 409 of a registration create whose invoice number (with the store number) is already stored: the spec names no
 * status for a duplicate invoice; the decision is recorded in docs/contract.md ("Choices where the spec says not shown").
 */
export const duplicateInvoice = () => ({ 409: errorBody() }) as const;
/** A create's answer: 200 or 201 with `schema`. */
export const created = <S extends z.ZodType>(schema: S) => ({ 200: schema, 201: schema });
