/**
 * Types of each endpoint of the contract's table (spec: Endpoints), derived from the table itself so that a
 * call names its endpoint once and gets its path parameters, query, request body and parsed answer typed:
 *
 *   const res = await client.call('getTireProtectionRegistrationMetadata', { id }, undefined);
 *   res.body.availableTiresCount; // number, from the RegistrationMetadata schema
 *
 * For a dynamic endpoint id (the full `EndpointId` union, e.g. a routed payload file or a history entry), the
 * types fall back to plain records and `unknown`: such bodies were validated by the contract beforehand.
 */
import type { z } from 'zod';
import type { EndpointShapes } from './endpoints';
import type { EndpointId } from './types';

/** True when `E` is the whole union (a dynamic id), not one endpoint. */
type IsDynamic<E extends EndpointId> = EndpointId extends E ? true : false;

/** `:name` parameters of a path template: `'/a/:id/b/:x'` → `'id' | 'x'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}`
  ? N | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer N}`
    ? N
    : never;

/**
 * Path parameters of endpoint `E`, e.g. `{ id: string }`. `company_name` (v2) and `program` (eligibility) are
 * optional: the extension fills them from the environment's settings.
 */
export type ParamsOf<E extends EndpointId> =
  IsDynamic<E> extends true
    ? Readonly<Record<string, string | number>>
    : {
        readonly [K in Exclude<PathParamNames<EndpointShapes[E]['path']>, 'company_name' | 'program'>]: string | number;
      } & { readonly [K in Extract<PathParamNames<EndpointShapes[E]['path']>, 'company_name' | 'program'>]?: string | number };

/** Query parameters of endpoint `E` (all optional here; the server checks required ones). */
export type QueryOf<E extends EndpointId> =
  IsDynamic<E> extends true
    ? Readonly<Record<string, string | number | boolean | undefined>>
    : { readonly [K in keyof EndpointShapes[E]['query']]?: string | number | boolean };

/** Request body of endpoint `E` as the contract's schema accepts it; `undefined` for calls without a body. */
export type BodyOf<E extends EndpointId> =
  IsDynamic<E> extends true ? unknown : EndpointShapes[E] extends { readonly body: infer B extends z.ZodType } ? z.input<B> : undefined;

type SuccessStatus = 200 | 201 | 204;
type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * The parsed body of a success answer of endpoint `E`: the union over its documented 2xx statuses (`undefined`
 * for 204). Unknown properties are tolerated at run time, so the value may carry more fields than the type.
 */
export type ResponseOf<E extends EndpointId> =
  IsDynamic<E> extends true
    ? unknown
    : {
        [S in Extract<keyof EndpointShapes[E]['responses'], SuccessStatus>]: SchemaOutput<EndpointShapes[E]['responses'][S]>;
      }[Extract<keyof EndpointShapes[E]['responses'], SuccessStatus>];
