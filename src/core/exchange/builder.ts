import type { Exchange, ExchangeHeaders } from './types';
import { maskSecrets } from '../log/mask';

/** Headers as Node gives them (`IncomingHttpHeaders`) or as a plain record; arrays are joined with `, `. */
export type RawHeaders = Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** What {@link buildExchange} is given: one request the extension sent and its answer (or why none came). */
export interface ExchangeInput {
  readonly env: string;
  readonly title?: string;
  readonly endpointId?: string;
  readonly partner?: string;
  /** ISO 8601 time the request started. */
  readonly time: string;
  readonly method: string;
  /** Absolute URL (masked again here). */
  readonly url: string;
  /** The JSON value sent as body; `undefined` without a body. */
  readonly requestBody?: unknown;
  /** User-Agent the client sent. */
  readonly userAgent?: string;
  /** True when the request carried a bearer token (shown masked, never kept). */
  readonly authorized: boolean;
  readonly response?: { readonly status: number; readonly headers?: RawHeaders; readonly rawBody?: string };
  readonly durationMs: number;
  readonly attempts: number;
  readonly problem?: string;
}

let seq = 0;

/** A unique, time-ordered exchange id, e.g. `lz4k2m1-7`. */
export function newExchangeId(): string {
  seq += 1;
  return `${Date.now().toString(36)}-${seq.toString(36)}`;
}

/** Lower-case names, string values (arrays joined by `, `), every value masked. */
export function headerRecord(h: RawHeaders | undefined): ExchangeHeaders {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = maskSecrets(Array.isArray(v) ? v.join(', ') : String(v));
  }
  return out;
}

/**
 * The {@link Exchange} of one request sent by the extension (source `client`). The request headers are the ones the
 * client sends (src/core/client/attempt.ts: `authorization`, `accept`, `user-agent`, `content-type` with a body),
 * the token masked as `Bearer [masked]`; every string is masked (`maskSecrets`). Bodies are kept whole here (history
 * caps them when it stores the exchange). Never throws.
 */
export function buildExchange(i: ExchangeInput): Exchange {
  const body = i.requestBody === undefined ? undefined : JSON.stringify(i.requestBody, null, 2);
  const requestHeaders: Record<string, string> = {
    ...(i.authorized ? { authorization: 'Bearer [masked]' } : {}),
    accept: 'application/json',
    'user-agent': i.userAgent ?? 'tpp-toolkit',
    ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
  };
  const r = i.response;
  return {
    id: newExchangeId(),
    env: i.env,
    source: 'client',
    time: i.time,
    ...(i.title ? { title: i.title } : {}),
    ...(i.endpointId ? { endpointId: i.endpointId } : {}),
    ...(i.partner ? { partner: i.partner } : {}),
    request: { method: i.method, url: maskSecrets(i.url), headers: requestHeaders, ...(body !== undefined ? { body: maskSecrets(body) } : {}) },
    ...(r
      ? {
          response: {
            status: r.status,
            headers: headerRecord(r.headers),
            ...(r.rawBody !== undefined && r.rawBody !== '' ? { body: maskSecrets(r.rawBody) } : {}),
            size: Buffer.byteLength(r.rawBody ?? '', 'utf8'),
          },
        }
      : {}),
    durationMs: Math.max(0, i.durationMs),
    attempts: i.attempts,
    ...(i.problem ? { problem: maskSecrets(i.problem) } : {}),
  };
}
