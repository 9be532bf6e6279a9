/**
 * The one way a request leaves the toolkit (docs/sending.md): the editor's sends, `tpp send`, flows in the editor and
 * in `tpp run`, and backfill rows all go through a {@link ToolkitClient} made by {@link clientFor} from an environment,
 * its limits and the caller's hooks. A request is one of two kinds:
 * - a contract call (an endpoint of the table): a fresh JWT per attempt (spec: Authentication 7), retries of 429 and
 *   5xx with Retry-After, duplicate-safe creates (client.ts, transport.ts);
 * - a request as written (a flow's): when its method and path are a contract endpoint at one of the environment's
 *   addresses, without its own Authorization header and with a JSON body or none, it is that contract call (carrying
 *   the headers the file writes); any other is sent once, exactly as written (transport.ts `asWritten`, written.ts),
 *   with the same time and size limits, redirects and cookies as the policy says, and a fresh JWT when it goes to the
 *   environment's addresses without an Authorization header.
 * Every outcome is one {@link Exchange} built by exchange/exchangeOf.ts, described (`hooks.describe`) and reported
 * (`hooks.onExchange`: the editor's history and data events) the same way, whichever front sent it.
 */
import { ENDPOINTS, matchEndpoints } from '../contract/endpoints';
import { changesData } from '../contract/methods';
import type { BaseKind, EndpointDef, EndpointId } from '../contract/types';
import { environmentBases, type EnvironmentAddresses } from '../environments';
import { exchangeOf, type CallOutcome, type SentRequestInfo } from '../exchange/exchangeOf';
import type { Exchange } from '../exchange/types';
import { maskSecrets } from '../log/mask';
import { answerOf, bodyText, type Answer } from './answerOf';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './attempt';
import { createPartnerClient, type PartnerClient, type TokenProvider } from './client';

import { send } from './transport';
import type { ApiResponse, CookieJarLike, RawExchange, RedirectPolicy, TransportEvent, TransportOptions, WrittenHeader } from './types';

/** Where requests go and how they are signed. */
export interface ClientEnvironment extends EnvironmentAddresses {
  /** Environment id the exchanges carry (`local`, `sandbox`, `production`; `cli` for `tpp send` unless named). */
  readonly id: string;
  /** Partner ID (the JWT `iss`). */
  readonly partnerId?: string;
  /** A fresh JWT per attempt for version 3 calls and requests to the environment's addresses. */
  readonly token?: TokenProvider;
  /** A fresh JWT for version 2 calls (`aud` the version 2 host); `token` when absent. */
  readonly v2Token?: TokenProvider;
  /** The provider-issued token of the eligibility lookup. */
  readonly eligibilityToken?: TokenProvider;
}

/**
 * The client's limits (docs/sending.md, Limits), the transport's own options: one attempt's time (ms, default 30 000),
 * the largest answer read (bytes, default 16 MiB), retries, dispatcher, the User-Agent of contract calls, the jitter.
 */
export type ClientLimits = Pick<TransportOptions, 'timeoutMs' | 'maxResponseBytes' | 'retry' | 'dispatcher' | 'userAgent' | 'random'>;

/** What a request was, for those who keep it (the history replays a contract call). */
export interface SentReport {
  readonly exchange: Exchange;
  /** The contract call it was, when it was one. */
  readonly call?: { readonly endpointId: EndpointId; readonly params: Readonly<Record<string, string | number>>; readonly query?: Readonly<Record<string, unknown>>; readonly body?: unknown };
  /** True for a 2xx answer. */
  readonly ok: boolean;
  /** The client's error when there was no success (ApiError, NetworkError…). */
  readonly error?: unknown;
}

/** The caller's hooks. */
export interface ClientHooks {
  /** Retries, redirects and duplicate checks (no tokens; URLs masked). */
  readonly onEvent?: (event: TransportEvent) => void;
  /** The caller's part of a failed request's description (the editor: a 401's JWT checklist, a 409's record). */
  readonly describe?: (exchange: Exchange) => Promise<Exchange>;
  /** Every request, once described: the editor's history and data events. */
  readonly onExchange?: (sent: SentReport) => void;
}

/** A request of the toolkit. */
export type ToolkitRequest =
  | { readonly kind: 'call'; readonly endpointId: EndpointId; readonly params: Readonly<Record<string, string | number>>; readonly body?: unknown; readonly query?: Readonly<Record<string, unknown>>; readonly storeNumber?: string; readonly title?: string }
  | WrittenRequest;

/** A request as a file writes it (a flow's), its variables resolved. */
export interface WrittenRequest {
  readonly kind: 'written';
  readonly method: string;
  readonly url: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  /** The body as sent: text, or bytes (a multipart body holding a file's bytes). */
  readonly body?: string | Uint8Array;
  /** The body's JSON value, when it is JSON (a contract call sends that). */
  readonly json?: { readonly value: unknown };
  readonly title: string;
}

/** How one request is sent. */
export interface SendPolicy {
  readonly signal?: AbortSignal;
  /** The run's cookie jar (docs/flows.md: a cookie jar per file run); absent: no cookies are kept or sent. */
  readonly cookies?: CookieJarLike;
  /**
   * How a request as written follows redirects (got's rules, as REST Client and httpyac); absent: not followed. A
   * request whose policy does not follow them is sent as written even to a contract endpoint (the partner client
   * follows same-origin 301/302).
   */
  readonly redirects?: RedirectPolicy;
}

export type { Answer };

/** The outcome of one request. */
export interface Sent {
  /** The answer, when one came (any status). */
  readonly answer?: Answer;
  /** A contract call's successful answer, parsed with the contract. */
  readonly response?: ApiResponse;
  /** Why there is no parsed success: the client's error (ApiError, NetworkError…), as thrown. */
  readonly error?: unknown;
  readonly exchange: Exchange;
  /** The contract endpoints the request matched (several share a route), the one sent first. */
  readonly endpoints: readonly EndpointDef[];
  /** A create whose answer was lost but that the duplicate check found stored. */
  readonly recovered?: boolean;
}

/** The client of one environment. */
export interface ToolkitClient {
  readonly environment: ClientEnvironment;
  /** Sends one request (see the module comment). Never throws for the request's failure: it is `error`. */
  send(request: ToolkitRequest, policy?: SendPolicy): Promise<Sent>;
  /** The partner client signing for `base` (the duplicate check of a resumed backfill row reads through it). */
  partner(base: BaseKind): PartnerClient;
}


/** Which of the environment's addresses `url` is under, and its path there. */
function addressOf(url: URL, env: ClientEnvironment): { kind: BaseKind; path: string } | undefined {
  const plain = `${url.origin}${url.pathname}`;
  for (const [kind, base] of environmentBases(env)) if (plain === base || plain.startsWith(`${base}/`)) return { kind, path: plain.slice(base.length) || '/' };
  return undefined;
}

/**
 * The contract endpoints a request as written matches at the environment's addresses, the one its body fits first.
 * @returns the address kind (absent: not at the environment) and the matches (empty: not a contract endpoint).
 */
export function endpointsOf(method: string, url: string, env: ClientEnvironment, json?: { readonly value: unknown }): { kind?: BaseKind; matches: { def: EndpointDef; params: Record<string, string> }[] } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { matches: [] };
  }
  const at = addressOf(parsed, env);
  if (!at) return { matches: [] };
  const matches = matchEndpoints(method, at.path).filter((m) => m.def.base === at.kind);
  if (matches.length > 1 && json) matches.sort((a, b) => Number(b.def.body?.safeParse(json.value).success ?? false) - Number(a.def.body?.safeParse(json.value).success ?? false));
  return { kind: at.kind, matches };
}

/** Sends a request once, as written (transport.ts `asWritten`, written.ts), with the client's limits and `token` when given. */
function sendAsWritten(limits: ClientLimits, r: WrittenRequest, policy: SendPolicy, token: TokenProvider | undefined): Promise<RawExchange> {
  return send(
    { timeoutMs: limits.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxResponseBytes: limits.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, retry: { maxAttempts: 1 }, ...(limits.dispatcher ? { dispatcher: limits.dispatcher } : {}) },
    {
      method: r.method,
      url: r.url,
      repeat: { kind: 'unsafe' },
      signal: policy.signal,
      ...(token ? { token } : {}),
      ...(policy.cookies ? { cookies: policy.cookies } : {}),
      asWritten: { headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}), ...(policy.redirects ? { redirects: policy.redirects } : {}) },
    },
  );
}

/**
 * The client of `env` (see the module comment).
 * @param limits time and size limits, retries, dispatcher, User-Agent of contract calls.
 * @param hooks the caller's description, report and event hooks.
 */
export function clientFor(env: ClientEnvironment, limits: ClientLimits = {}, hooks: ClientHooks = {}): ToolkitClient {
  const bases = Object.fromEntries(environmentBases(env)) as Partial<Record<BaseKind, string>>;
  const partners = new Map<BaseKind, PartnerClient>();
  const partner = (base: BaseKind): PartnerClient => {
    const kind = base === 'v2' ? 'v2' : 'v3';
    let p = partners.get(kind);
    if (!p) {
      const token = (kind === 'v2' ? (env.v2Token ?? env.token) : env.token) ?? (() => Promise.reject(new Error('No key is set for this environment, so no token can be made.')));
      try {
        p = createPartnerClient({
          baseUrls: bases,
          token,
          ...(env.eligibilityToken ? { eligibilityToken: env.eligibilityToken } : {}),
          ...(limits.retry ? { retry: limits.retry } : {}),
          timeoutMs: limits.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxResponseBytes: limits.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
          ...(limits.dispatcher ? { dispatcher: limits.dispatcher } : {}),
          ...(limits.userAgent ? { userAgent: limits.userAgent } : {}),
          ...(limits.random ? { random: limits.random } : {}),
          ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
        });
      } catch (err) {
        p = { call: () => Promise.reject(err) };
      }
      partners.set(kind, p);
    }
    return p;
  };

  /** Describes, reports and returns the outcome of one request. */
  const finish = async (info: SentRequestInfo, outcome: CallOutcome, extra: Omit<Sent, 'exchange'>, call?: SentReport['call']): Promise<Sent> => {
    const built = exchangeOf(info, outcome);
    const ok = 'response' in outcome || ('raw' in outcome && outcome.raw.status >= 200 && outcome.raw.status < 300);
    const exchange = !ok && hooks.describe ? await hooks.describe(built) : built;
    hooks.onExchange?.({ exchange, ok, ...(call ? { call } : {}), ...('error' in outcome ? { error: outcome.error } : {}) });
    return { ...extra, exchange };
  };

  const call = async (r: Extract<ToolkitRequest, { kind: 'call' }>, endpoints: readonly EndpointDef[], policy: SendPolicy, url?: string, headers?: readonly WrittenHeader[]): Promise<Sent> => {
    const def = endpoints[0] ?? ENDPOINTS[r.endpointId];
    const info: SentRequestInfo = { env: env.id, ...(r.title ? { title: r.title } : {}), endpointId: r.endpointId, params: r.params, ...(env.partnerId ? { partner: env.partnerId } : {}), method: def.method, url: url ?? `${bases[def.base] ?? ''}${def.path}`, body: r.body, time: new Date().toISOString(), ...(limits.userAgent ? { userAgent: limits.userAgent } : {}), authorized: def.base !== 'eligibility' || env.eligibilityToken !== undefined };
    const report = { endpointId: r.endpointId, params: r.params, ...(r.query ? { query: r.query } : {}), ...(r.body !== undefined ? { body: r.body } : {}) };
    const started = performance.now();
    try {
      const response = await partner(def.base).call(r.endpointId, r.params as never, r.body as never, { query: r.query as never, signal: policy.signal, ...(r.storeNumber ? { storeNumber: r.storeNumber } : {}), ...(headers ? { headers } : {}), ...(policy.cookies ? { cookies: policy.cookies } : {}) });
      const outcome = { response };
      return await finish(info, outcome, { answer: answerOf(outcome), response, endpoints, recovered: response.recovered !== undefined }, report);
    } catch (error) {
      const outcome = { error, durationMs: performance.now() - started };
      return finish(info, outcome, { ...(answerOf(outcome) ? { answer: answerOf(outcome) } : {}), error, endpoints }, report);
    }
  };

  const written = async (r: WrittenRequest, policy: SendPolicy): Promise<Sent> => {
    const { kind, matches } = endpointsOf(r.method, r.url, env, r.json);
    const endpoints = matches.map((m) => m.def);
    const ownAuth = r.headers.some((h) => h.name.toLowerCase() === 'authorization');
    const token = kind === 'eligibility' ? env.eligibilityToken : kind === 'v2' ? (env.v2Token ?? env.token) : kind ? env.token : undefined;
    const first = matches[0];
    if (first && !ownAuth && token && (r.body === undefined || r.json) && policy.redirects?.follow !== false) {
      const query = Object.fromEntries(new URL(r.url).searchParams.entries());
      return call({ kind: 'call', endpointId: first.def.id, params: first.params, body: r.json?.value, query, title: r.title }, endpoints, policy, r.url, r.headers.length > 0 ? r.headers : undefined);
    }
    const addToken = kind !== undefined && !ownAuth && token !== undefined;
    const info: SentRequestInfo = { env: env.id, title: r.title, ...(env.partnerId ? { partner: env.partnerId } : {}), method: r.method, url: r.url, time: new Date().toISOString(), authorized: addToken, written: { headers: r.headers, ...(r.body !== undefined ? { body: bodyText(r.body) } : {}) } };
    const started = performance.now();
    try {
      const outcome = { raw: await sendAsWritten(limits, r, policy, addToken ? token : undefined) };
      return await finish(info, outcome, { answer: answerOf(outcome), endpoints });
    } catch (error) {
      return finish(info, { error, durationMs: performance.now() - started }, { error, endpoints });
    }
  };

  return {
    environment: env,
    partner,
    send: (request, policy = {}) => (request.kind === 'call' ? call(request, [], policy) : written(request, policy)),
  };
}

/** One line of why a request got no usable answer, secrets masked. */
export function sentError(sent: Sent): string | undefined {
  if (sent.answer) return undefined;
  const err = sent.error;
  return maskSecrets(err instanceof Error ? err.message : err === undefined ? 'No answer.' : String(err));
}

/** True when a request as written may change data (every method but the safe ones, contract/methods.ts). */
export const isWrite = (r: { readonly method: string }): boolean => changesData(r.method);
