/**
 * The partner API client (spec: Endpoints, Authentication, Errors). Endpoints, paths, methods and schemas come
 * only from the contract's endpoint table; this module adds addresses, tokens, the repeat rules per endpoint,
 * and parsing of answers with the contract.
 */
import type { Dispatcher } from './types';
import type { BaseKind, EndpointDef, EndpointId } from '../contract/types';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf } from '../contract/endpointTypes';
import { ENDPOINTS, buildPath } from '../contract';
import { ClientConfigError } from './errors';
import { interpret } from './interpret';
import { CHECKABLE_CREATES, repeatPolicyFor, type ReadForCheck } from './repeat';
import { checkUrl, send } from './transport';
import type { ApiResponse, CookieJarLike, TransportEvent, WrittenHeader } from './types';

export type { ApiResponse };
import type { Clock, RetrySettings } from './backoff';

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
  /** Time limit of one attempt, in milliseconds. Default 30 000; cut to what is left of `retry.maxTotalMs`. */
  readonly timeoutMs?: number;
  /** Largest response body read, in bytes (default 16 MiB); a larger answer fails with ResponseTooLargeError. */
  readonly maxResponseBytes?: number;
  /** undici dispatcher (e.g. an `Agent` with tuned pools); undici's global one when omitted. */
  readonly dispatcher?: Dispatcher;
  /** Pages read at most by an invoice-number check on lists that cannot filter by invoice number (last pages first). Default 50. */
  readonly maxCheckPages?: number;
  readonly userAgent?: string;
  /** Retries, redirects and invoice checks, for the log (no tokens, URLs masked). */
  readonly onEvent?: (event: TransportEvent) => void;
  /** Random source in [0, 1) for the backoff jitter (tests). */
  readonly random?: () => number;
  /** The calls' deadlines and waits (real time by default; tests move their own). */
  readonly clock?: Clock;
}

/** Query, cancellation and duplicate-check hints of one call (path parameters and body are arguments of `call`). */
export interface CallOptions<E extends EndpointId = EndpointId> {
  /** Query parameters of the endpoint; `undefined` values are left out. */
  readonly query?: QueryOf<E>;
  /** Aborting stops the call at once (also during backoff) with a {@link CancelledError}. */
  readonly signal?: AbortSignal;
  /** Store number used with the invoice number when checking whether a create landed (version 3 tire protection). */
  readonly storeNumber?: string;
  /** Headers sent besides the client's own (a flow request's written headers: docs/flows.md, How requests are sent). */
  readonly headers?: readonly WrittenHeader[];
  /** The run's cookie jar (a flow's): its cookies go with the call, the answer's Set-Cookie is kept in it. */
  readonly cookies?: CookieJarLike;
}

/** The client: every endpoint of the contract's table is reachable through `call`, typed by its row. */
export interface PartnerClient {
  /**
   * Calls an endpoint of the contract's table (spec: Endpoints).
   *
   * @param endpoint the endpoint id, e.g. `'getTireProtectionRegistrationMetadata'`.
   * @param params its `:name` path parameters, e.g. `{ id }` (`{}` when it has none).
   * @param body the request body the contract's schema accepts; `undefined` for GET.
   * @returns the answer with `body` of type {@link ResponseOf}<E>, parsed with the endpoint's response schema.
   * @throws ApiError for a non-success status (AuthError for 401; after retries of 429/5xx; a 5xx to a write that
   *   cannot be checked at once, with `outcomeUnknown`), ResponseTooLargeError beyond `maxResponseBytes`, MalformedResponseError
   *   for a success whose body breaks the contract, NetworkError when no answer came, PolicyError for a refused
   *   address or redirect, CancelledError (name `AbortError`) on cancellation, ClientConfigError for a missing base
   *   address, path parameter or eligibility token; errors of the token provider as they are.
   */
  call<E extends EndpointId>(endpoint: E, params: ParamsOf<E>, body: BodyOf<E>, options?: CallOptions<E>): Promise<ApiResponse<ResponseOf<E>>>;
}

export { CHECKABLE_CREATES };

/**
 * Creates the partner API client over the contract's endpoint table (spec: Endpoints).
 *
 * @example
 *   const client = createPartnerClient({ baseUrls: { v3: 'https://host/api/v3' }, token: () => signJwt() });
 *   const res = await client.call('createTireProtectionRegistration', {}, body, { signal });
 *   res.body.id; // typed by the contract's CreatedId schema
 * @throws PolicyError when a base address is not https (http is allowed for loopback only).
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  return createClientFor(ENDPOINTS, options);
}

/** The endpoint table lookup the client works from (the contract's `ENDPOINTS`). */
export type EndpointTable = Readonly<Record<EndpointId, EndpointDef>>;

type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Builds a client over an endpoint table (normally the contract's ENDPOINTS; tests may pass a smaller one).
 * @throws ClientConfigError / PolicyError when a given base address is not absolute or not allowed.
 */
export function createClientFor(endpoints: Partial<EndpointTable>, options: PartnerClientOptions): PartnerClient {
  for (const base of Object.values(options.baseUrls)) {
    if (base !== undefined && base !== '') checkUrl('GET', base);
  }
  const maxCheckPages = options.maxCheckPages ?? 50;

  const resolve = (endpoint: EndpointId): EndpointDef => {
    const def = endpoints[endpoint];
    if (!def) throw new ClientConfigError(`Unknown endpoint "${endpoint}"`);
    return def;
  };

  const urlFor = (def: EndpointDef, params: Readonly<Record<string, string | number>>, query: Query | undefined): string => {
    const base = options.baseUrls[def.base];
    if (!base) throw new ClientConfigError(`No base address is set for ${def.base} endpoints (needed by ${def.id})`);
    let path: string;
    try {
      path = buildPath(def, params, query);
    } catch (err) {
      throw new ClientConfigError(`${def.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return new URL(base.replace(/\/+$/, '') + path).href;
  };

  const tokenFor = (def: EndpointDef): TokenProvider => {
    if (def.base !== 'eligibility') return options.token;
    if (!options.eligibilityToken) {
      throw new ClientConfigError('The eligibility lookup needs the token issued by the provider; partner JWTs do not work there.');
    }
    return options.eligibilityToken;
  };

  async function callDef(
    def: EndpointDef,
    params: Readonly<Record<string, string | number>>,
    body: unknown,
    o: { query?: Query; signal?: AbortSignal; storeNumber?: string; deadlineAt?: number; headers?: readonly WrittenHeader[]; cookies?: CookieJarLike },
  ): Promise<ApiResponse<unknown>> {
    const url = urlFor(def, params, o.query);
    const readId = CHECKABLE_CREATES[def.id];
    const read: ReadForCheck = (readDef, p, query, signal, deadlineAt) => callDef(readDef, p, undefined, { query, signal, deadlineAt });
    const repeat = repeatPolicyFor(def, params, body, o.storeNumber, readId ? endpoints[readId] : undefined, read, maxCheckPages);
    const exchange = await send(
      {
        dispatcher: options.dispatcher,
        timeoutMs: options.timeoutMs,
        maxResponseBytes: options.maxResponseBytes,
        retry: options.retry,
        userAgent: options.userAgent,
        onEvent: options.onEvent,
        random: options.random,
        clock: options.clock,
      },
      { method: def.method, url, body, token: tokenFor(def), signal: o.signal, repeat, deadlineAt: o.deadlineAt, ...(o.headers ? { extraHeaders: o.headers } : {}), ...(o.cookies ? { cookies: o.cookies } : {}) },
    );
    return interpret(def, exchange);
  }

  return {
    call: async (endpoint, params, body, o = {}) => {
      const res = await callDef(resolve(endpoint), params as Readonly<Record<string, string | number>>, body, o as { query?: Query; signal?: AbortSignal; storeNumber?: string; headers?: readonly WrittenHeader[]; cookies?: CookieJarLike });
      return res as ApiResponse<ResponseOf<typeof endpoint>>;
    },
  };
}

export { interpret };
