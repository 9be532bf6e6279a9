import { ApiError, MalformedResponseError, NetworkError, ResponseTooLargeError } from '../client/errors';
import type { ApiResponse, RawExchange } from '../client/types';
import { maskHeaders, maskSecrets } from '../log/mask';
import { describeExchange } from './describe';
import { exchangeEndpoint } from './endpoint';
import { newExchangeId } from './id';
import type { DiagnosisItem, Exchange, ExchangeHeaders } from './types';

/**
 * The one builder of the {@link Exchange} of a request the toolkit sent (every request leaves through
 * client/clientFor.ts: the editor, `tpp send`, flows, backfill rows): typed endpoint, masked record, and its
 * description, computed here once. Secrets are masked (`maskSecrets`, `maskHeaders`): the token never appears, the
 * Authorization header reads `Bearer [masked]` (Developers' guide: Secrets).
 */

/** What was sent, for {@link exchangeOf}. */
export interface SentRequestInfo {
  /** Environment id (`local`, `sandbox`, `production`; `tpp send`: `cli` unless named). */
  readonly env: string;
  /** What was done, e.g. "Send tire-protection-registration.json". */
  readonly title?: string;
  /** Contract endpoint id (e.g. `createTireProtectionRegistration`); an id outside the table is left out. */
  readonly endpointId?: string;
  /** Path parameters as filled (`{ id }`); read back from the URL when absent. */
  readonly params?: Readonly<Record<string, string | number>>;
  /** Partner ID (`iss`). */
  readonly partner?: string;
  readonly method: string;
  /** The URL the request was meant for (used when the outcome names none). */
  readonly url: string;
  /** The JSON value sent as body; `undefined` without a body. */
  readonly body?: unknown;
  /** ISO 8601 start time. */
  readonly time: string;
  /** User-Agent sent, shown among the request headers when given. */
  readonly userAgent?: string;
  /** False when the request carried no bearer token (an eligibility lookup without one); default true. */
  readonly authorized?: boolean;
  /**
   * A request sent as written (a flow's request outside the contract): its headers and body text exactly as sent,
   * instead of the client's own headers and a JSON `body`. `authorized` then says whether a token was added.
   */
  readonly written?: { readonly headers: readonly { readonly name: string; readonly value: string }[]; readonly body?: string };
}

/**
 * How the call ended: the client's answer, or the error it threw with, optionally, the wall time measured by the
 * caller (milliseconds; used when the error carries none).
 */
export type CallOutcome = { readonly response: ApiResponse } | { readonly raw: RawExchange } | { readonly error: unknown; readonly durationMs?: number };

/** The request headers an exchange shows: the client's own for a contract call, else those written (masked). */
function requestHeaders(sent: SentRequestInfo, json: boolean): ExchangeHeaders {
  if (sent.written) {
    const joined: Record<string, string> = {};
    for (const h of sent.written.headers) joined[h.name.toLowerCase()] = joined[h.name.toLowerCase()] !== undefined ? `${joined[h.name.toLowerCase()]}, ${h.value}` : h.value;
    return maskHeaders({ ...joined, ...(sent.authorized ? { authorization: 'Bearer [masked]' } : {}) });
  }
  return {
    ...(sent.authorized === false ? {} : { authorization: 'Bearer [masked]' }),
    accept: 'application/json',
    ...(sent.userAgent ? { 'user-agent': sent.userAgent } : {}),
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}


/** An answer as an Exchange keeps it: status, masked headers and body (none when empty), size in bytes. */
function answer(status: number, rawBody: string, headers?: Readonly<Record<string, unknown>>): NonNullable<Exchange['response']> {
  return { status, ...(headers ? { headers: maskHeaders(headers) } : {}), ...(rawBody !== '' ? { body: maskSecrets(rawBody) } : {}), size: Buffer.byteLength(rawBody) };
}

/**
 * The Exchange of one call: a success (a recovered create carries `recovered`), or the error thrown (ApiError and
 * MalformedResponseError: the answer; ResponseTooLargeError: its status and size, `truncated`; anything else: no
 * answer, `problem` the error's message). `diagnosis` is the description of ./describe.ts, after the client's own
 * finding that the outcome is unknown (a write that failed after it may have been stored). Never throws.
 */
export function exchangeOf(sent: SentRequestInfo, outcome: CallOutcome): Exchange {
  const text = sent.written ? sent.written.body : sent.body === undefined ? undefined : JSON.stringify(sent.body);
  const requestBody = text === undefined ? undefined : maskSecrets(text);
  const headers = requestHeaders(sent, requestBody !== undefined);
  const info = ('response' in outcome ? outcome.response : 'raw' in outcome ? outcome.raw : (outcome.error ?? {})) as { url?: unknown; durationMs?: unknown; attempts?: unknown };
  const url = typeof info.url === 'string' ? info.url : sent.url;
  const endpoint = sent.endpointId ? exchangeEndpoint(sent.endpointId, url, sent.params) : undefined;
  const measured = typeof info.durationMs === 'number' ? info.durationMs : 'error' in outcome ? (outcome.durationMs ?? 0) : 0;
  const record: Exchange = {
    id: newExchangeId(),
    env: sent.env,
    source: 'client',
    time: sent.time,
    ...(sent.title ? { title: sent.title } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(sent.partner ? { partner: sent.partner } : {}),
    request: { method: sent.method, url: maskSecrets(url), headers, ...(requestBody !== undefined ? { body: requestBody } : {}) },
    durationMs: Math.max(0, Math.round(measured)),
    attempts: typeof info.attempts === 'number' ? info.attempts : 0,
    ...outcomeFields(outcome),
  };
  const diagnosis = [...unknownOutcome(outcome), ...describeExchange(record)];
  return diagnosis.length ? { ...record, diagnosis } : record;
}

/** The answer, problem and recovery of an outcome. */
function outcomeFields(outcome: CallOutcome): Pick<Exchange, 'response' | 'problem' | 'recovered'> {
  if ('raw' in outcome) return { response: answer(outcome.raw.status, outcome.raw.rawBody, outcome.raw.headers) };
  if ('response' in outcome) {
    const r = outcome.response;
    return { response: answer(r.status, r.rawBody, r.headers), ...(r.recovered ? { recovered: { checkUrl: maskSecrets(r.recovered.checkUrl) } } : {}) };
  }
  const err = outcome.error;
  if (err instanceof ApiError) return { response: answer(err.status, err.rawBody, err.headers ?? {}) };
  const problem = maskSecrets(err instanceof Error ? err.message : String(err));
  if (err instanceof MalformedResponseError) return { response: answer(err.status, err.rawBody), problem };
  if (err instanceof ResponseTooLargeError) return { response: { status: err.status, size: err.sizeBytes, truncated: true }, problem };
  return { problem };
}

/** The client's finding that a failed write may have been stored (it was not sent again), and how to check. */
function unknownOutcome(outcome: CallOutcome): DiagnosisItem[] {
  if (!('error' in outcome)) return [];
  const err = outcome.error;
  if (err instanceof ApiError && err.outcomeUnknown) return [{ rule: 'fault', message: `Outcome unknown: it may have been stored before the failure, so it was not sent again. ${err.howToCheck ?? ''}`.trim() }];
  if (err instanceof NetworkError && err.outcomeUnknown) return [{ rule: 'fault', message: `Outcome unknown. ${err.howToCheck ?? 'Check whether it took effect before sending it again.'}` }];
  return [];
}
