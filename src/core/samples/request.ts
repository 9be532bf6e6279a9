/**
 * The request a code sample makes (spec: Endpoints; Authentication), independent of the language: method, which
 * base address (read from an environment variable, never embedded), the path relative to it (literal parts and
 * record ids left to environment variables), the query and the JSON body. Built from a payload file (through
 * `routePayload`, as `tpp send` and Send Payload route it) or from a recorded {@link Exchange} (history, Integration
 * Log). No editor, no I/O.
 */
import { ENDPOINTS, matchEndpoints } from '../contract/endpoints';
import type { EndpointDef, EndpointId } from '../contract/types';
import type { Exchange } from '../exchange/types';
import { PayloadRefused, routePayload, type RouteAnswers } from '../client/route';
import { kindFromSchemaUri, stripMeta } from '../contract/kinds';
import { resolvePayloadVariables, type VariableScope } from '../variables';
import { SAMPLE_ENV } from './env';
import { freshBody, type FreshValue } from './fresh';

export { SAMPLE_ENV, audienceEnvOf } from './env';

/** Environment variables that stand in for a record the payload file does not name. */
export const RECORD_ENV: Readonly<Record<string, { readonly env: string; readonly what: string }>> = {
  id: { env: 'TPP_REGISTRATION_ID', what: 'the _id of the registration' },
  uniqueId: { env: 'TPP_SHOP_UNIQUE_ID', what: 'the uniqueId of the shop' },
  company_name: { env: 'TPP_COMPANY_NAME', what: 'your version 2 name segment {company_name}' },
};

/** One piece of the path: literal text (already URL-encoded) or a value read from an environment variable. */
export type PathPart = string | { readonly env: string; readonly what: string };

/** A language-independent request of a code sample. */
export interface SampleRequest {
  readonly method: string;
  /** Environment variable holding the base address (also the JWT `aud`). */
  readonly baseEnv: typeof SAMPLE_ENV.baseUrl | typeof SAMPLE_ENV.v2BaseUrl;
  /** Path relative to the base, query string included (literal parts URL-encoded), e.g. `['/tire-protection/registrations/', {env…}, '/claims']`. */
  readonly path: readonly PathPart[];
  /** JSON body, absent for a request without one. */
  readonly body?: unknown;
  /** One line for the sample's header comment, e.g. `POST /tire-protection/registrations (createTireProtectionRegistration)`. */
  readonly title: string;
  /** Occurrences of `{{$guid}}`, `{{$timestamp}}`, `{{$randomInt a b}}` kept in `body`, generated afresh at run time (see fresh.ts). */
  readonly fresh?: readonly FreshValue[];
}

/** How a sample is written beyond its request. */
export interface SampleOptions {
  /**
   * A dotenv file the program loads itself before reading its variables (a name relative to the program's folder,
   * e.g. `tpp-local.env`): the program then runs as it is (Write Program…). Only the languages of
   * `PROGRAM_LANGUAGES` (program.ts) take it.
   */
  readonly dotenv?: string;
}

/** Thrown when no sample can be made for a request (the message says why). */
export class SampleRefused extends Error {
  override readonly name = 'SampleRefused';
}

const MARK = '\u0000env:';

function baseEnvOf(def: EndpointDef): SampleRequest['baseEnv'] {
  if (def.base === 'eligibility') throw new SampleRefused('No code sample for the eligibility lookup: it is deprecated and uses its own token, not a partner JWT (spec: Versioning).');
  return def.base === 'v2' ? SAMPLE_ENV.v2BaseUrl : SAMPLE_ENV.baseUrl;
}

/** Merges adjacent literal parts. */
function joinParts(parts: PathPart[]): PathPart[] {
  const out: PathPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (typeof p === 'string' && typeof last === 'string') out[out.length - 1] = last + p;
    else if (p !== '') out.push(p);
  }
  return out;
}

/**
 * A sample request for one endpoint of the contract.
 *
 * @param endpointId e.g. `getTireProtectionRegistration`.
 * @param params path parameters; a missing one (or one given as `envParam('id')`) is read from its environment
 *   variable ({@link RECORD_ENV}, e.g. `TPP_REGISTRATION_ID`) by the sample.
 * @param query query parameters, in order.
 * @param body JSON body (POST/PATCH), absent for none.
 * @throws SampleRefused for the eligibility lookup (not signed with a partner JWT).
 */
export function sampleRequestFor(endpointId: EndpointId, params: Readonly<Record<string, string>> = {}, query: Readonly<Record<string, string>> = {}, body?: unknown): SampleRequest {
  const def = ENDPOINTS[endpointId];
  const baseEnv = baseEnvOf(def);
  const parts: PathPart[] = [];
  let rest = def.path;
  for (const m of def.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const at = rest.indexOf(m[0]);
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + m[0].length);
    const v = params[m[1]!];
    if (v !== undefined && v !== '' && !v.startsWith(MARK)) parts.push(encodeURIComponent(v));
    else parts.push(RECORD_ENV[m[1]!] ?? { env: `TPP_${m[1]!.toUpperCase()}`, what: `the ${m[1]!} path parameter` });
  }
  parts.push(rest);
  const qs = new URLSearchParams(Object.entries(query)).toString();
  if (qs) parts.push(`?${qs}`);
  return { method: def.method, baseEnv, path: joinParts(parts), body, title: `${def.method} ${def.path} (${def.id})` };
}

/** A path parameter value that the sample reads from its environment variable instead. */
export function envParam(name: string): string {
  return MARK + name;
}

/**
 * A payload file's `{{variables}}` resolved as a send resolves them (a program holds values, not placeholders; the
 * body's `{{$guid}}`, `{{$timestamp}}` and `{{$randomInt}}` are generated afresh by the program, see fresh.ts),
 * except a `$` meta property naming a record through a capture not made yet (`"$registrationId":
 * "{{lastRegistration.id}}"` before any registration was sent): it is dropped, so the sample reads the record from
 * its environment variable (`TPP_REGISTRATION_ID`).
 * @throws VariableError for any other variable that cannot be resolved.
 */
function resolveForSample(value: unknown, scope: VariableScope): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [k, v] of Object.entries(copy)) {
    if (k === '$schema' || !k.startsWith('$') || typeof v !== 'string' || !v.includes('{{')) continue;
    try {
      resolvePayloadVariables({ [k]: v }, undefined, scope);
    } catch {
      delete copy[k];
    }
  }
  const schema = copy.$schema;
  const kind = typeof schema === 'string' ? kindFromSchemaUri(schema) : undefined;
  return resolvePayloadVariables(copy, kind, scope);
}

/**
 * A sample request from a parsed payload file, routed as Send Payload and `tpp send` route it. A record the file
 * does not name (no `$registrationId` or `$uniqueId`) becomes an environment variable of the sample
 * (`TPP_REGISTRATION_ID`, `TPP_SHOP_UNIQUE_ID`); the version 2 `{company_name}` without `$companyName` becomes `TPP_COMPANY_NAME`.
 *
 * @param value the file's JSON value; @param name its name, for messages; @param scope variables and captures of
 *   the environment (`{{variables}}` are resolved, see resolveForSample).
 * @throws PayloadRefused when the file names no kind or does not validate (see `routePayload`); SampleRefused for the eligibility lookup.
 */
export function sampleRequestFromPayload(file: unknown, name: string, scope: VariableScope = {}): SampleRequest {
  const value = resolveForSample(file, scope);
  let routed = routePayload(value, name);
  if ('missing' in routed) {
    const answers: RouteAnswers = routed.missing.need === 'shop' ? { uniqueId: envParam('uniqueId') } : { registrationId: envParam('id') };
    routed = routePayload(value, name, answers);
    if ('missing' in routed) throw new PayloadRefused(`Not sent: ${name} does not say which record it is for.`);
  }
  const { route } = routed;
  if (!ENDPOINTS[route.endpointId].body) return sampleRequestFor(route.endpointId, route.params, route.query);
  const { body, fresh } = freshBody(stripMeta(file), route.body, scope);
  return { ...sampleRequestFor(route.endpointId, route.params, route.query, body), ...(fresh.length ? { fresh } : {}) };
}

/**
 * A sample request from a recorded exchange (a history entry or an Integration Log entry): the same method, path,
 * query and body, against the base address of its interface.
 *
 * @throws SampleRefused when the URL matches no endpoint of the contract, or the body is not JSON.
 */
export function sampleRequestFromExchange(exchange: Exchange): SampleRequest {
  const { method } = exchange.request;
  let url: URL;
  try {
    url = new URL(exchange.request.url);
  } catch {
    throw new SampleRefused(`No code sample: ${exchange.request.url} is not an absolute URL.`);
  }
  const path = url.pathname;
  const v3 = path.indexOf('/api/v3/');
  const v1 = path.indexOf('/api/v1/');
  const rel = v3 >= 0 ? path.slice(v3 + 7) : v1 >= 0 ? path.slice(v1 + 7) : path;
  const matches = matchEndpoints(method, rel).filter(({ def }) => (v3 >= 0 ? def.base === 'v3' : v1 >= 0 ? def.base === 'eligibility' : def.base === 'v2'));
  const hinted = matches.find(({ def }) => def.id === exchange.endpoint?.id) ?? matches[0];
  if (!hinted) throw new SampleRefused(`No code sample: ${method} ${path} is no endpoint of the partner interface.`);
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  let body: unknown;
  if (exchange.request.body !== undefined && exchange.request.body !== '') {
    try {
      body = JSON.parse(exchange.request.body);
    } catch {
      throw new SampleRefused('No code sample: the recorded body is not JSON.');
    }
  }
  const params = Object.fromEntries(Object.entries(hinted.params).map(([k, v]) => [k, decodeURIComponent(v)]));
  return sampleRequestFor(hinted.def.id, params, query, body);
}
