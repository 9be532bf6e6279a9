import { motorClubRows } from './endpointRows/motorClub';
import { recordRows } from './endpointRows/records';
import { registrationRows } from './endpointRows/registrations';
import { shopRows } from './endpointRows/shops';
import { TableRow } from './endpointRows/common';
import { schemas } from './lazy';
import { EndpointDef, EndpointId } from './types';

/**
 * The endpoint table (spec: Endpoints). The only place in the codebase where a method, path or query
 * parameter name is written (its rows, by resource, are in endpointRows/). Paths are relative to the base
 * address of `base` (see {@link BaseKind}). A row's request body, answers and query schemas are built on first
 * read: looking up a path or a method builds no schema.
 */

/** Every row, in the order of the spec's Endpoints section. */
const table = {
  verifyToken: recordRows.verifyToken,
  ...registrationRows,
  ...shopRows,
  ...motorClubRows,
  v2GetRecords: recordRows.v2GetRecords,
  v2PostRecords: recordRows.v2PostRecords,
  eligibilityLookup: recordRows.eligibilityLookup,
} satisfies Record<EndpointId, TableRow>;

/**
 * The endpoint table's rows with their exact types (literal paths, each response's zod schema): what
 * `ResponseOf`, `BodyOf`, `ParamsOf` and `QueryOf` in endpointTypes.ts read.
 */
export type EndpointShapes = typeof table;

/** Names of the `:name` parameters of a path template, in order. */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
}

/**
 * Every endpoint of the spec, by stable id. `responses` holds the statuses of the endpoint's spec row plus the
 * answers every call can give (see answers.ts: 401, 405, 429, 5xx; with a body also 400, 413, 415).
 */
export const ENDPOINTS: Readonly<Record<EndpointId, EndpointDef>> = Object.freeze(
  Object.fromEntries(Object.entries(table).map(([id, row]) => [id, endpointDef(id as EndpointId, row)])) as Record<EndpointId, EndpointDef>,
);

/**
 * A frozen row with its id and path parameters. Its `body` stays the row's getter, and its `responses` (the row's
 * with the common answers) are built on first read, once.
 */
function endpointDef(id: EndpointId, row: TableRow): EndpointDef {
  let responses: EndpointDef['responses'] | undefined;
  const def = Object.defineProperties(
    { id, pathParams: pathParamsOf(row.path) },
    {
      ...Object.getOwnPropertyDescriptors(row),
      responses: { enumerable: true, get: () => (responses ??= schemas.answers().withCommonAnswers(row)) },
    },
  );
  return Object.freeze(def) as unknown as EndpointDef;
}

/** Query values accepted by {@link buildPath}; undefined values are left out. */
export type QueryValues = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Why `value` cannot fill a path parameter, or undefined: `.` and `..` survive `encodeURIComponent` and a URL parser
 * then resolves them, so `{"$registrationId": ".."}` would send a claim to another endpoint (spec: Endpoints, `{id}`
 * is one path segment).
 */
export function pathSegmentProblem(value: string): string | undefined {
  return value === '.' || value === '..' ? `"${value}" is not an identifier: as a path segment it would address another endpoint` : undefined;
}

/**
 * Fills an endpoint's path template and appends a query string.
 *
 * @param endpoint endpoint id or definition, e.g. 'getTireProtectionRegistration'
 * @param params values of the `:name` path parameters, e.g. `{ id: 'a/b' }` (URL-encoded: `a%2Fb`)
 * @param query query parameters; undefined values are skipped; keys in insertion order
 * @returns the path relative to the endpoint's base, e.g. `/tire-protection/registrations/a%2Fb?page=2`
 * @throws Error when a path parameter is missing or empty, or `.`/`..` ({@link pathSegmentProblem})
 */
export function buildPath(
  endpoint: EndpointId | EndpointDef,
  params: Readonly<Record<string, string | number>> = {},
  query?: QueryValues,
): string {
  const def = typeof endpoint === 'string' ? ENDPOINTS[endpoint] : endpoint;
  if (!def) throw new Error(`Unknown endpoint '${String(endpoint)}'.`);
  const path = def.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === '') throw new Error(`Path parameter '${name}' is required for ${def.method} ${def.path}.`);
    const problem = pathSegmentProblem(String(v));
    if (problem) throw new Error(`Path parameter '${name}' of ${def.method} ${def.path}: ${problem}.`);
    return encodeURIComponent(String(v));
  });
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) search.append(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * Finds the endpoints whose method and path template match a concrete request path (relative to the base, no
 * query). Several may match (the motor-club and registration PATCH forms are told apart by the body).
 */
export function matchEndpoints(method: string, path: string): { def: EndpointDef; params: Record<string, string> }[] {
  const out: { def: EndpointDef; params: Record<string, string> }[] = [];
  const upper = method.toUpperCase();
  for (const { def, re } of (matchers ??= pathMatchers())) {
    if (def.method !== upper) continue;
    const m = re.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = decodeURIComponent(v);
    out.push({ def, params });
  }
  return out;
}

/** Each endpoint with the regular expression of its path template, compiled once (the proxy matches every request). */
let matchers: { def: EndpointDef; re: RegExp }[] | undefined;
function pathMatchers(): { def: EndpointDef; re: RegExp }[] {
  return Object.values(ENDPOINTS).map((def) => ({
    def,
    re: new RegExp('^' + def.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '(?<$1>[^/]+)') + '/?$'),
  }));
}
