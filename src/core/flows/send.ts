/**
 * Sending one resolved flow request (docs/flows.md, How requests are sent). A request to the environment's addresses
 * whose method and path are a row of the contract's endpoint table, without its own Authorization header and with a
 * JSON body (or none), goes through the partner client (docs/sending.md): a fresh JWT per attempt (spec:
 * Authentication 7), retries of 429 and 5xx with Retry-After, and duplicate-safe creates, so a flow never sends a
 * write twice blindly. Any other request is sent once as written (undici; bounded time and answer size); one to the
 * environment's addresses without an Authorization header still gets a fresh JWT. Every outcome is an Exchange with
 * secrets masked.
 */
import type { Dispatcher } from 'undici';
import { matchEndpoints } from '../contract/endpoints';
import type { BaseKind, EndpointDef, EndpointId } from '../contract/types';
import type { Exchange } from '../exchange/types';
import type { PartnerClient, TokenProvider } from '../client/client';
import { ApiError, MalformedResponseError } from '../client/errors';
import { exchangeOf } from '../exchange/exchangeOf';
import { maskSecrets } from '../log/mask';
import { atEnvironment, hostRefusal, type Carried, type HostPolicy } from './carried';
import { directExchange, sendDirect, type DirectRequest } from './sendDirect';
import type { FlowEnvironment } from './types';
import type { FlowAnswer } from './variables';

/** A request with its variables resolved: the request as written, and its body's JSON value when it is JSON. */
export interface PreparedRequest extends DirectRequest {
  readonly json?: { readonly value: unknown };
  /** What the request carries from the user's side (carried.ts); it goes only to the environment unless allowed. */
  readonly carried?: readonly Carried[];
}

/** What sending needs besides the request. */
export interface FlowSendContext {
  readonly environment: FlowEnvironment;
  /** The partner clients: `v3` (version 3 and eligibility calls) and `v2` (signed for the version 2 host). */
  readonly clients: { readonly v3: PartnerClient; readonly v2: PartnerClient };
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly dispatcher?: Dispatcher;
  readonly signal?: AbortSignal;
  /** Hosts outside the environment that may receive the user's values (carried.ts). */
  readonly hosts?: HostPolicy;
}

/** The outcome: the answer (when one came), the endpoints it was matched to, the exchange, or why no answer came. */
export interface SendOutcome {
  readonly answer?: FlowAnswer;
  readonly endpoints: readonly EndpointDef[];
  readonly exchange: Exchange;
  /** Set when nothing usable came back (network, timeout, too large, outcome unknown). */
  readonly error?: string;
}

/** The environment's base addresses by kind, without trailing slashes: v3, then eligibility, then the version 2 host. */
export function environmentBases(env: FlowEnvironment): [BaseKind, string][] {
  // Asked for each request a flow or a backfill row sends (docs/backfills.md, Sending): kept per environment object,
  // and made again when one of its addresses differs.
  const known = basesOf.get(env);
  if (known && known.v3 === env.baseUrl && known.v2 === env.v2BaseUrl && known.eligibility === env.eligibilityBaseUrl) return known.bases;
  const bases = basesFrom(env);
  basesOf.set(env, { v3: env.baseUrl, v2: env.v2BaseUrl, eligibility: env.eligibilityBaseUrl, bases });
  return bases;
}

const basesOf = new WeakMap<FlowEnvironment, { v3: string; v2: string | undefined; eligibility: string | undefined; bases: [BaseKind, string][] }>();

function basesFrom(env: FlowEnvironment): [BaseKind, string][] {
  let origin = '';
  try {
    origin = new URL(env.baseUrl).origin;
  } catch {
    // a base address that is not a URL matches nothing
  }
  const bases: [BaseKind, string | undefined][] = [
    ['v3', env.baseUrl],
    ['eligibility', env.eligibilityBaseUrl ?? (origin && `${origin}/api/v1`)],
    ['v2', env.v2BaseUrl ?? origin],
  ];
  return bases.flatMap(([k, b]) => (b ? [[k, b.replace(/\/+$/, '')] as [BaseKind, string]] : []));
}

/** Which of the environment's addresses `url` is under, and its path relative to it. */
function addressOf(url: URL, env: FlowEnvironment): { kind: BaseKind; path: string } | undefined {
  const plain = `${url.origin}${url.pathname}`;
  for (const [kind, base] of environmentBases(env)) {
    if (plain === base || plain.startsWith(`${base}/`)) return { kind, path: plain.slice(base.length) || '/' };
  }
  return undefined;
}

/** The contract endpoints a request matches, the one its body fits first. */
export function endpointsOf(method: string, url: string, env: FlowEnvironment, json?: { value: unknown }): { kind?: BaseKind; matches: { def: EndpointDef; params: Record<string, string> }[] } {
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

/** An answer's headers as assertions and references read them: lower-case names, as received (never masked). */
function headersOf(h: Readonly<Record<string, string | string[] | undefined>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h ?? {})) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** The token a request to `kind`'s address gets. */
function tokenFor(kind: BaseKind | undefined, env: FlowEnvironment): TokenProvider | undefined {
  if (kind === 'eligibility') return env.eligibilityToken;
  if (kind === 'v2') return env.v2Token ?? env.token;
  return kind ? env.token : undefined;
}

/**
 * Sends one request (see the module comment).
 * @returns the answer and exchange; never throws for a failed request (`error` says why no answer came).
 */
export async function sendFlowRequest(req: PreparedRequest, ctx: FlowSendContext): Promise<SendOutcome> {
  const env = ctx.environment;
  const refused = await hostRefusal(req.url, req.carried ?? [], env, ctx.hosts);
  if (refused) {
    const problem = `Not sent: ${refused}.`;
    return { endpoints: [], error: problem, exchange: directExchange(req, { env: env.id, partner: env.partnerId }, new Date().toISOString(), { problem, durationMs: 0 }) };
  }
  const { kind, matches } = endpointsOf(req.method, req.url, env, req.json);
  const endpoints = matches.map((m) => m.def);
  const ownAuth = req.headers.some((h) => h.name.toLowerCase() === 'authorization');
  const token = tokenFor(kind, env);
  const first = matches[0];
  if (first && !ownAuth && token && (req.body === undefined || req.json)) {
    const client = kind === 'v2' ? ctx.clients.v2 : ctx.clients.v3;
    const query = Object.fromEntries(new URL(req.url).searchParams.entries());
    const body = req.json?.value;
    const sent = { env: env.id, title: req.title, endpointId: first.def.id, params: first.params as Record<string, string>, ...(env.partnerId ? { partner: env.partnerId } : {}), method: req.method, url: req.url, body, time: new Date().toISOString() };
    try {
      const response = await client.call(first.def.id as EndpointId, first.params as never, body as never, { query: query as never, signal: ctx.signal });
      return { endpoints, exchange: exchangeOf(sent, { response }), answer: { status: response.status, headers: headersOf(response.headers), body: response.rawBody, durationMs: response.durationMs } };
    } catch (err) {
      const exchange = exchangeOf(sent, { error: err });
      if (err instanceof ApiError && !err.outcomeUnknown) return { endpoints, exchange, answer: { status: err.status, headers: headersOf(err.headers), body: err.rawBody, durationMs: err.durationMs } };
      if (err instanceof MalformedResponseError) return { endpoints, exchange, answer: { status: err.status, headers: {}, body: err.rawBody, durationMs: err.durationMs } };
      return { endpoints, exchange, error: maskSecrets(err instanceof Error ? err.message : String(err)) };
    }
  }
  const headers = [...req.headers];
  if (kind && !ownAuth && token) {
    try {
      headers.push({ name: 'Authorization', value: `Bearer ${await token()}` });
    } catch (err) {
      const message = maskSecrets(`No token could be made: ${err instanceof Error ? err.message : String(err)}`);
      return { endpoints, error: message, exchange: directExchange(req, { env: env.id, partner: env.partnerId }, new Date().toISOString(), { problem: message, durationMs: 0 }) };
    }
  }
  const direct = await sendDirect({ ...req, headers }, { env: env.id, partner: env.partnerId, timeoutMs: ctx.timeoutMs, maxResponseBytes: ctx.maxResponseBytes, dispatcher: ctx.dispatcher, signal: ctx.signal });
  if (direct.answer && !atEnvironment(new URL(req.url), env)) return { endpoints, ...direct, answer: { ...direct.answer, fromEnvironment: false } };
  return { endpoints, ...direct };
}
