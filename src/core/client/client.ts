/**
 * The partner API client (spec: Endpoints, Authentication, Errors). Endpoints, paths, methods and schemas come
 * only from the contract's endpoint table; this module adds addresses, tokens, the repeat rules per endpoint,
 * and parsing of answers with the contract.
 */
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { BaseKind, EndpointDef, EndpointId } from '../contract/types';
import { ENDPOINTS, buildPath } from '../contract';
import { ClientConfigError, MalformedResponseError, PartnerApiError } from './errors';
import { describeStatus } from './status';
import { checkUrl, send, type CheckOutcome, type RawExchange, type RepeatPolicy, type TransportEvent } from './transport';
import type { RetrySettings } from './backoff';

/** A token source: called once per attempt and per redirect hop, so every request carries a new JWT (spec: Authentication 7). */
export type TokenProvider = () => string | Promise<string>;

/** Options of {@link createClientFor} / `createPartnerClient`. */
export interface PartnerClientOptions {
  /**
   * Base addresses per kind (spec: Base addresses): `v3` ends in /api/v3; `v2` is the version 2 host; `eligibility`
   * ends in /api/v1. https only, or http to a loopback address (the Local sandbox).
   */
  readonly baseUrls: Partial<Record<BaseKind, string>>;
  /** JWT for version 3 and version 2 calls. */
  readonly token: TokenProvider;
  /** The provider-issued token of the eligibility lookup (partner JWTs do not work there, spec: Vehicle eligibility lookup). */
  readonly eligibilityToken?: TokenProvider;
  /** Retry budget; defaults: 5 attempts, 30 000 ms total, 250 ms base delay, 8 000 ms cap. */
  readonly retry?: Partial<RetrySettings>;
  /** Time limit of one attempt, in milliseconds. Default 30 000. */
  readonly timeoutMs?: number;
  /** undici dispatcher (e.g. an `Agent` with tuned pools); undici's global one when omitted. */
  readonly dispatcher?: Dispatcher;
  /** Pages read at most by an invoice-number check on lists that cannot filter by invoice number. Default 50. */
  readonly maxCheckPages?: number;
  readonly userAgent?: string;
  /** Retries, redirects and invoice checks, for the log (no tokens, URLs masked). */
  readonly onEvent?: (event: TransportEvent) => void;
  /** Random source in [0, 1) for the backoff jitter (tests). */
  readonly random?: () => number;
}

/** Path, query, body and cancellation of one call. */
export interface CallOptions {
  /** Values of the endpoint's `:name` path parameters. */
  readonly params?: Readonly<Record<string, string | number>>;
  /** Query parameters; `undefined` values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** JSON body of POST/PATCH. */
  readonly body?: unknown;
  /** Aborting stops the call at once (also during backoff) with an `AbortError`. */
  readonly signal?: AbortSignal;
  /** Store number used with the invoice number when checking whether a create landed (version 3 tire protection). */
  readonly storeNumber?: string;
}

/** A successful answer, parsed with the contract. */
export interface ApiResponse<T = unknown> {
  readonly endpointId: EndpointId;
  readonly method: string;
  /** Final URL after same-origin redirects (secrets masked). */
  readonly url: string;
  readonly status: number;
  /** The spec's name of the status, e.g. `Created`. */
  readonly statusName: string;
  readonly meaning: string;
  readonly headers: IncomingHttpHeaders;
  /**
   * Body parsed with the endpoint's response schema (undefined for 204 / no body). When the only objection is
   * unknown properties, the JSON as received is returned (unknown fields tolerated).
   */
  readonly body: T;
  /** Body exactly as received (for a recovered create: the synthesised `{ "id": … }`). */
  readonly rawBody: string;
  /** Milliseconds from the call's start to its end, retries and backoff included. */
  readonly durationMs: number;
  readonly attempts: number;
  /**
   * Set when a create's answer was lost (network error, timeout, 5xx) but the invoice-number check found that it
   * had landed: `body` is then `{ id }` of the record found, and nothing was sent twice.
   */
  readonly recovered?: { readonly checkUrl: string; readonly record: unknown };
}

/** The client: one method per call shape; every endpoint of the contract's table is reachable through `call`. */
export interface PartnerClient {
  /**
   * Calls an endpoint of the contract's table.
   *
   * @throws PartnerApiError for a non-success status (after retries of 429/5xx), MalformedResponseError for a
   *   success whose body breaks the contract, PartnerNetworkError when no answer came, RequestPolicyError for a
   *   refused address or redirect, CallAbortedError (name `AbortError`) on cancellation, ClientConfigError for
   *   a missing base address, path parameter or eligibility token; errors of the token provider as they are.
   */
  call<T = unknown>(endpoint: EndpointId | EndpointDef, options?: CallOptions): Promise<ApiResponse<T>>;
}

/**
 * Creates endpoints whose repeated create can be detected by listing by invoice number, mapped to that list
 * (spec: "Registrations are unique by invoice number (version 3 additionally allows a store number to disambiguate)").
 */
export const CHECKABLE_CREATES: Readonly<Partial<Record<EndpointId, EndpointId>>> = {
  createTireProtectionRegistration: 'listTireProtectionRegistrations',
  createMotorClubRegistration: 'listMotorClubRegistrations',
  createRegistration: 'listRegistrations',
};

/** Version 2 record arrays whose resend updates instead of adding (spec: Registration (v2) and Cancellation (v2) rules). */
const V2_UPSERT_ARRAYS = ['Registrations', 'Cancellations'];

/**
 * Creates the partner API client over the contract's endpoint table (spec: Endpoints).
 *
 * @example
 *   const client = createPartnerClient({ baseUrls: { v3: 'https://host/api/v3' }, token: () => signJwt() });
 *   const res = await client.call('createTireProtectionRegistration', { body, signal });
 *   res.body; // { id: '…' }
 * @throws RequestPolicyError when a base address is not https (http is allowed for loopback only).
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  return createClientFor(ENDPOINTS, options);
}

/** The endpoint table lookup the client works from (the contract's `ENDPOINTS`). */
export type EndpointTable = Readonly<Record<EndpointId, EndpointDef>>;

/**
 * Builds a client over an endpoint table (normally the contract's ENDPOINTS; tests may pass a smaller one).
 * @throws ClientConfigError / RequestPolicyError when a given base address is not absolute or not allowed.
 */
export function createClientFor(endpoints: Partial<EndpointTable>, options: PartnerClientOptions): PartnerClient {
  for (const base of Object.values(options.baseUrls)) {
    if (base !== undefined && base !== '') checkUrl('GET', base);
  }
  const maxCheckPages = options.maxCheckPages ?? 50;

  const resolve = (endpoint: EndpointId | EndpointDef): EndpointDef => {
    if (typeof endpoint !== 'string') return endpoint;
    const def = endpoints[endpoint];
    if (!def) throw new ClientConfigError(`Unknown endpoint "${endpoint}"`);
    return def;
  };

  const urlFor = (def: EndpointDef, o: CallOptions): string => {
    const base = options.baseUrls[def.base];
    if (!base) throw new ClientConfigError(`No base address is set for ${def.base} endpoints (needed by ${def.id})`);
    let path: string;
    try {
      path = buildPath(def, o.params ?? {}, o.query);
    } catch (err) {
      throw new ClientConfigError(`${def.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const url = new URL(base.replace(/\/+$/, '') + path);
    return url.href;
  };

  const tokenFor = (def: EndpointDef): TokenProvider => {
    if (def.base !== 'eligibility') return options.token;
    if (!options.eligibilityToken) {
      throw new ClientConfigError('The eligibility lookup needs the token issued by the provider; partner JWTs do not work there.');
    }
    return options.eligibilityToken;
  };

  const repeatPolicyFor = (def: EndpointDef, o: CallOptions): RepeatPolicy => {
    if (def.method === 'GET') return { kind: 'safe' };
    if (def.id === 'v2PostRecords') {
      const body = o.body;
      const keys = body && typeof body === 'object' ? Object.keys(body) : [];
      return keys.length > 0 && keys.every((k) => V2_UPSERT_ARRAYS.includes(k)) ? { kind: 'safe' } : { kind: 'unsafe' };
    }
    const listId = CHECKABLE_CREATES[def.id];
    const invoiceNumber = (o.body as { invoiceNumber?: unknown } | undefined)?.invoiceNumber;
    if (def.method === 'POST' && listId && endpoints[listId] && typeof invoiceNumber === 'string' && invoiceNumber !== '') {
      const listDef = endpoints[listId];
      return { kind: 'check', check: (signal) => findByInvoice(listDef, invoiceNumber, o.storeNumber, signal) };
    }
    return { kind: 'unsafe' };
  };

  /** Lists by invoice number (paging through when the list cannot filter) to see whether a create landed. */
  const findByInvoice = async (
    listDef: EndpointDef,
    invoiceNumber: string,
    storeNumber: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<CheckOutcome> => {
    const filterable = Object.hasOwn(listDef.query, 'invoiceNumber');
    const query: Record<string, string | number> = {};
    if (filterable) query.invoiceNumber = invoiceNumber;
    if (filterable && storeNumber && Object.hasOwn(listDef.query, 'storeNumber')) query.storeNumber = storeNumber;
    for (let page = 1; ; page++) {
      if (page > maxCheckPages) throw new Error(`no record with invoice number ${invoiceNumber} in the first ${maxCheckPages} pages of ${listDef.path}`);
      const res = await call<unknown>(listDef, { query: page === 1 ? query : { ...query, page }, signal });
      const envelope = res.body as { results?: unknown; totalPages?: unknown };
      const results = Array.isArray(envelope?.results) ? (envelope.results as unknown[]) : [];
      const found = results.find((r) => (r as { invoiceNumber?: unknown } | null)?.invoiceNumber === invoiceNumber);
      if (found) {
        const id = (found as { _id?: unknown })._id;
        return { landed: true, body: { id }, checkUrl: res.url, record: found };
      }
      const filtered = filterable && results.every((r) => (r as { invoiceNumber?: unknown } | null)?.invoiceNumber === invoiceNumber);
      const totalPages = typeof envelope?.totalPages === 'number' ? envelope.totalPages : 1;
      if (filtered || page >= totalPages) return { landed: false };
    }
  };

  async function call<T>(endpoint: EndpointId | EndpointDef, o: CallOptions = {}): Promise<ApiResponse<T>> {
    const def = resolve(endpoint);
    const url = urlFor(def, o);
    const exchange = await send(
      {
        dispatcher: options.dispatcher,
        timeoutMs: options.timeoutMs,
        retry: options.retry,
        userAgent: options.userAgent,
        onEvent: options.onEvent,
        random: options.random,
      },
      { method: def.method, url, body: o.body, token: tokenFor(def), signal: o.signal, repeat: repeatPolicyFor(def, o) },
    );
    return interpret<T>(def, exchange);
  }

  return { call };
}

/** Reads the JSON of a body; `undefined` for an empty body; `{ text }` when it is not JSON. */
function readJson(raw: string): { json?: unknown; notJson?: true } {
  if (raw.trim() === '') return {};
  try {
    return { json: JSON.parse(raw) as unknown };
  } catch {
    return { notJson: true };
  }
}

/** The schema for a success status: its own row, else (when a body came) the first success row with a schema. */
function successSchema(def: EndpointDef, status: number, hasBody: boolean): z.ZodType | null | undefined {
  if (Object.hasOwn(def.responses, status)) return def.responses[status];
  if (!hasBody) return null;
  for (const [code, schema] of Object.entries(def.responses)) {
    if (Number(code) >= 200 && Number(code) < 300 && schema) return schema;
  }
  return undefined;
}

/**
 * Turns a raw exchange into an ApiResponse or a typed error (spec: Errors).
 * Unknown properties are tolerated: a body whose only schema issues are `unrecognized_keys` is accepted as received.
 */
export function interpret<T>(def: EndpointDef, ex: RawExchange): ApiResponse<T> {
  const info = describeStatus(ex.status);
  const call = { method: ex.method, url: ex.url, attempts: ex.attempts, durationMs: ex.durationMs };
  const parsed = readJson(ex.rawBody);
  if (info.kind !== 'success') {
    throw new PartnerApiError({
      ...call,
      status: ex.status,
      body: parsed.notJson ? ex.rawBody : parsed.json,
      rawBody: ex.rawBody,
      retriesExhausted: ex.retriesExhausted,
    });
  }
  const hasBody = ex.rawBody.trim() !== '';
  const schema = successSchema(def, ex.status, hasBody);
  let body: unknown;
  if (schema === null) {
    body = parsed.json;
  } else if (parsed.notJson || (schema && !hasBody)) {
    throw new MalformedResponseError({ ...call, status: ex.status, rawBody: ex.rawBody, issues: [], notJson: true });
  } else if (schema === undefined) {
    body = parsed.json;
  } else {
    const result = schema.safeParse(parsed.json);
    if (result.success) body = result.data;
    else {
      const issues = result.error.issues.filter((i) => i.code !== 'unrecognized_keys');
      if (issues.length > 0) throw new MalformedResponseError({ ...call, status: ex.status, rawBody: ex.rawBody, issues, notJson: false });
      body = parsed.json;
    }
  }
  return {
    endpointId: def.id,
    method: ex.method,
    url: ex.url,
    status: ex.status,
    statusName: info.name,
    meaning: info.meaning,
    headers: ex.headers,
    body: body as T,
    rawBody: ex.rawBody,
    durationMs: ex.durationMs,
    attempts: ex.attempts,
    ...(ex.recovered ? { recovered: { checkUrl: ex.recovered.checkUrl, record: ex.recovered.record } } : {}),
  };
}
