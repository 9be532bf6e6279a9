/**
 * Names and limits of the control API (docs/testing-your-application.md; docs/sandbox.md, Limits), kept apart from the
 * code that serves it, so that its OpenAPI description (./openapi.ts) loads none of the sandbox.
 */

/** Largest `count` of `POST /__tpp/seed`. */
export const MAX_SEED_COUNT = 1_000_000;

/** Largest number of fixtures in one seed. */
export const MAX_FIXTURES = 10_000;

/**
 * The faults one entry can answer with: an HTTP status, a timeout (no answer, then the connection closes), a closed
 * connection, or a malformed answer: the real answer (the request is processed and stored) cut in the middle of its
 * JSON (`truncated-json`) or sent as `text/html` (`wrong-content-type`).
 */
export const FAULT_KINDS = [429, 500, 502, 503, 504, 'timeout', 'close', 'truncated-json', 'wrong-content-type'] as const;
/** Malformed answers: the request is processed, its answer garbled. */
export const MALFORMED_KINDS: readonly string[] = ['truncated-json', 'wrong-content-type'];

/** Conditions on body fields of one scheduled fault. */
export const MAX_BODY_MATCHES = 16;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Largest number of scheduled hits (the sum of `times` still pending). */
export const MAX_SCHEDULED_HITS = 10_000;

/** Longest `timeoutMs`: 10 minutes. */
export const MAX_TIMEOUT_MS = 600_000;

/** Entries the journal keeps when the control API is on (the oldest are dropped beyond). */
export const JOURNAL_LIMIT = 10_000;

/** Snapshots kept at once (`POST /__tpp/snapshots`). */
export const MAX_SNAPSHOTS = 100;

/** Rows of one page of `GET /__tpp/records`: default and largest. */
export const RECORDS_PAGE = 100;
export const MAX_RECORDS_PAGE = 1000;

/** Seconds a client waits before calling a starting sandbox again: health's and the partner routes' `Retry-After`. */
export const STARTING_RETRY_AFTER_SECONDS = 1;

/** The prefix no path of the spec uses. */
export const CONTROL_PREFIX = '/__tpp';

/** Largest body of a seed (fixtures), in bytes. */
export const MAX_SEED_BODY_BYTES = 16 * 1024 * 1024;

/** The control calls that take a body; every other one refuses a body (400 naming `body`). */
export const CONTROL_BODY_CALLS: ReadonlySet<string> = new Set(['POST reset', 'POST seed', 'POST faults', 'POST clock', 'POST partners', 'POST snapshots']);

/** The control endpoints, as the 404 of an unknown control path lists them. */
export const CONTROL_ENDPOINTS: readonly (readonly [string, string])[] = [
  ['GET', 'health'],
  ['POST', 'reset'],
  ['POST', 'seed'],
  ['GET', 'requests'],
  ['DELETE', 'requests'],
  ['GET', 'faults'],
  ['POST', 'faults'],
  ['DELETE', 'faults'],
  ['GET', 'clock'],
  ['POST', 'clock'],
  ['POST', 'partners'],
  ['GET', 'snapshots'],
  ['POST', 'snapshots'],
  ['POST', 'snapshots/{name}/restore'],
  ['DELETE', 'snapshots/{name}'],
  ['GET', 'records'],
];

/** The control calls by name, as `tpp sandbox --help` and the OpenAPI description list them: each path's first segment. */
export const CONTROL_CALL_NAMES: readonly string[] = [...new Set(CONTROL_ENDPOINTS.map(([, path]) => path.split('/')[0] as string))];
