import { z } from 'zod';

/**
 * Error bodies (spec: Authentication step 6; Errors). The 401 body is fixed by the spec; the shape of every
 * other error body is "not shown", so {@link ErrorBody} is a tolerant object that the local sandbox fills in
 * fully and that real servers may fill in partly (every property optional, unknown properties kept).
 */

/** The 401 body: exactly {"error":"unauthorized","statusCode":401} (extra properties tolerated when read). */
export const UnauthorizedBody = z
  .looseObject({
    error: z.literal('unauthorized'),
    statusCode: z.literal(401),
  })
  .meta({
    description:
      'Returned when a JWT claim is missing, fails validation or holds a wrong value, or the signature cannot be verified.',
  });

/** One problem in a request: `path` is the dotted path of the bad field, e.g. "Registrations.0.ShopID". */
export const ErrorIssue = z.looseObject({
  path: z.string().meta({ description: 'Dotted path of the field, e.g. "Registrations.0.ShopID"; "" for the body.' }),
  message: z.string().meta({ description: 'What is wrong, in the spec\'s words (e.g. "at most 25 characters").' }),
});

/**
 * Body of errors other than 401 ("Body shape of errors other than 401: not shown"). The local sandbox answers
 * e.g. {"error":"bad_request","statusCode":400,"message":"...","issues":[{"path":"Registrations.0.ShopID",
 * "message":"required field is missing"}]}. Every property is optional so that real servers' bodies parse.
 */
export const ErrorBody = z
  .looseObject({
    error: z.string().optional().meta({ description: 'Snake-case name of the status, e.g. "bad_request" (see ERROR_NAMES).' }),
    statusCode: z.number().int().optional(),
    message: z.string().optional(),
    issues: z.array(ErrorIssue).optional().meta({ description: 'Every bad field of a 400, when known.' }),
  })
  .meta({ description: 'Error body (shape not shown by the spec; tolerant).' });

/**
 * The spec's status-code table (spec: Errors — "Status | Name | Meaning / resolution", plus its success and
 * redirect codes), verbatim. Read by the client (describeStatus), the OpenAPI document and the UI.
 */
export const STATUS_TABLE: Readonly<Record<number, { readonly name: string; readonly meaning: string }>> = {
  200: { name: 'OK', meaning: 'Content returned.' },
  201: { name: 'Created', meaning: 'Created.' },
  204: { name: 'No Content', meaning: 'Succeeded; no body.' },
  301: { name: 'Moved Permanently', meaning: 'The new address is given in the response.' },
  302: { name: 'Found', meaning: 'The new address is given in the response.' },
  400: {
    name: 'Bad Request',
    meaning: 'Request not understood; invalid parameters; in version 2, a required field empty or malformed.',
  },
  401: { name: 'Unauthorized', meaning: 'Unauthenticated; invalid JWT.' },
  403: { name: 'Forbidden', meaning: 'No access rights; check Partner ID, endpoint and method.' },
  404: { name: 'Not Found', meaning: 'Resource not found (unknown registration, or shop lookup without result).' },
  405: { name: 'Not Allowed', meaning: 'Method not allowed.' },
  409: {
    name: 'Conflict',
    meaning:
      'State conflict: cancelling a registration twice or when program terms forbid it; claim against an expired or cancelled registration; shop create with an existing uniqueId.',
  },
  429: { name: 'Too Many Requests', meaning: 'Rate limited; wait and retry.' },
  500: { name: 'Internal Server Error', meaning: 'Retry later.' },
  502: { name: 'Bad Gateway', meaning: 'Retry later.' },
  503: { name: 'Service Unavailable', meaning: 'Retry later.' },
  504: { name: 'Gateway Timeout', meaning: 'Retry later.' },
};

/**
 * Statuses the Local sandbox answers that the spec's Errors table does not list (docs/sandbox.md), with the
 * meaning shown in the response view and the OpenAPI document, and the `error` name of the sandbox's answer. Every
 * endpoint with a body lists them.
 */
export const SANDBOX_STATUS_TABLE: Readonly<Record<number, { readonly name: string; readonly error: string; readonly meaning: string }>> = {
  413: { name: 'Content Too Large', error: 'payload_too_large', meaning: 'Not in the spec\'s Errors table: the Local sandbox refuses a body over 1 MiB. Send fewer records per request.' },
  415: { name: 'Unsupported Media Type', error: 'unsupported_media_type', meaning: 'Not in the spec\'s Errors table: the body is not JSON. Send Content-Type: application/json (spec: Endpoints).' },
};

/** `error` names for each status of the spec's Errors table (used by the sandbox; 401 is fixed by the spec). */
export const ERROR_NAMES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  429: 'too_many_requests',
  500: 'internal_server_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** Statuses after which the client should retry (spec: Errors: 5xx and 429). */
export const RETRYABLE_STATUSES: readonly number[] = [429, 500, 502, 503, 504];

export type UnauthorizedBody = z.infer<typeof UnauthorizedBody>;
export type ErrorIssue = z.infer<typeof ErrorIssue>;
export type ErrorBody = z.infer<typeof ErrorBody>;
