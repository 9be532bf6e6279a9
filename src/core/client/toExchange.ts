/**
 * The client's answers and errors as an {@link Exchange} (src/core/exchange/types.ts), for `tpp send --json` and
 * any other producer that sends with the client. Secrets are masked (`maskSecrets`): the token never appears, the
 * Authorization header reads `Bearer [masked]`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { DiagnosisItem, Exchange, ExchangeHeaders } from '../exchange/types';
import { maskSecrets } from '../log/mask';
import { ApiError, MalformedResponseError, NetworkError, ResponseTooLargeError } from './errors';
import type { ApiResponse } from './types';

let counter = 0;

/** A time-ordered unique id: milliseconds since epoch in base 36, then a counter. */
export function exchangeId(now: number = Date.now()): string {
  counter = (counter + 1) % 1_679_616;
  return `${now.toString(36)}-${counter.toString(36).padStart(4, '0')}`;
}

/** Headers as an Exchange keeps them: lower-case names, one string per header, values masked. */
export function exchangeHeaders(headers: IncomingHttpHeaders | Readonly<Record<string, string | string[] | undefined>> | undefined): ExchangeHeaders {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = maskSecrets(Array.isArray(value) ? value.join(', ') : String(value));
  }
  return out;
}

/** What was sent, for {@link toExchange}. */
export interface SentRequestInfo {
  readonly env: string;
  readonly title?: string;
  readonly endpointId?: string;
  readonly partner?: string;
  readonly method: string;
  /** The URL the request was meant for (used when the outcome names none). */
  readonly url: string;
  /** The JSON body sent, if any. */
  readonly body?: unknown;
  /** ISO 8601 start time. */
  readonly time: string;
}

/** The field problems of a 400 body (`issues: [{ path, message }]`, the Local sandbox's shape) as diagnosis items. */
export function fieldProblems(body: unknown): DiagnosisItem[] {
  const issues = (body as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.flatMap((i) => {
    const rec = (i ?? {}) as { path?: unknown; message?: unknown };
    if (typeof rec.message !== 'string') return [];
    const rule = typeof rec.path === 'string' && rec.path ? rec.path : Array.isArray(rec.path) ? rec.path.join('.') : 'body';
    const path = typeof rec.path === 'string' ? rec.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : Array.isArray(rec.path) ? (rec.path as (string | number)[]) : undefined;
    return [{ rule, message: maskSecrets(rec.message), ...(path ? { path } : {}) }];
  });
}

/**
 * Builds the Exchange of one call from its outcome: the ApiResponse of a success (a recovered create carries
 * `recovered`), or the error thrown (ApiError: the answer; NetworkError, ResponseTooLargeError and others: `problem`).
 */
export function toExchange(sent: SentRequestInfo, outcome: { response: ApiResponse } | { error: unknown }): Exchange {
  const requestBody = sent.body === undefined ? undefined : maskSecrets(JSON.stringify(sent.body));
  const requestHeaders: ExchangeHeaders = { authorization: 'Bearer [masked]', accept: 'application/json', ...(requestBody !== undefined ? { 'content-type': 'application/json' } : {}) };
  const base = {
    id: exchangeId(),
    env: sent.env,
    source: 'client' as const,
    time: sent.time,
    ...(sent.title ? { title: sent.title } : {}),
    ...(sent.endpointId ? { endpointId: sent.endpointId } : {}),
    ...(sent.partner ? { partner: sent.partner } : {}),
  };
  const request = (url: string) => ({ method: sent.method, url: maskSecrets(url), headers: requestHeaders, ...(requestBody !== undefined ? { body: requestBody } : {}) });
  if ('response' in outcome) {
    const r = outcome.response;
    return {
      ...base,
      request: request(r.url),
      response: { status: r.status, headers: exchangeHeaders(r.headers), body: maskSecrets(r.rawBody), size: Buffer.byteLength(r.rawBody) },
      durationMs: Math.round(r.durationMs),
      attempts: r.attempts,
      ...(r.recovered ? { recovered: { checkUrl: r.recovered.checkUrl } } : {}),
    };
  }
  const err = outcome.error;
  const info = (err ?? {}) as { url?: unknown; durationMs?: unknown; attempts?: unknown };
  const url = typeof info.url === 'string' ? info.url : sent.url;
  const durationMs = typeof info.durationMs === 'number' ? Math.round(info.durationMs) : 0;
  const attempts = typeof info.attempts === 'number' ? info.attempts : 0;
  const message = maskSecrets(err instanceof Error ? err.message : String(err));
  if (err instanceof ApiError) {
    const diagnosis: DiagnosisItem[] = [{ rule: 'status', message: `${err.status} ${err.statusName}: ${err.meaning}` }, ...(err.status === 400 ? fieldProblems(err.body) : [])];
    if (err.outcomeUnknown) diagnosis.push({ rule: 'fault', message: `Outcome unknown: it may have been stored before the failure, so it was not sent again. ${err.howToCheck ?? ''}`.trim() });
    return {
      ...base,
      request: request(url),
      response: { status: err.status, headers: exchangeHeaders(err.headers), body: maskSecrets(err.rawBody), size: Buffer.byteLength(err.rawBody) },
      durationMs,
      attempts,
      problem: message,
      diagnosis,
    };
  }
  if (err instanceof MalformedResponseError) {
    return { ...base, request: request(url), response: { status: err.status, body: maskSecrets(err.rawBody), size: Buffer.byteLength(err.rawBody) }, durationMs, attempts, problem: message };
  }
  if (err instanceof ResponseTooLargeError) {
    return { ...base, request: request(url), response: { status: err.status, size: err.sizeBytes, truncated: true }, durationMs, attempts, problem: message };
  }
  const diagnosis: DiagnosisItem[] | undefined = err instanceof NetworkError && err.outcomeUnknown ? [{ rule: 'fault', message: `Outcome unknown. ${err.howToCheck ?? 'Check whether it took effect before sending it again.'}` }] : undefined;
  return { ...base, request: request(url), durationMs, attempts, problem: message, ...(diagnosis ? { diagnosis } : {}) };
}
