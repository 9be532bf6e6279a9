/**
 * An outcome of the client as flows and backfill rows read it (client/clientFor.ts): the answer, whatever its status,
 * with lower-case header names, and a body as an exchange shows it.
 */
import type { CallOutcome } from '../exchange/exchangeOf';
import { ApiError, MalformedResponseError } from './errors';

/** An answer as flows and rows read it: status, headers (lower-case names, as received), body text, duration (ms). */
export interface Answer {
  readonly status: number;
  /** The URL that answered (after redirects), secrets masked. */
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly durationMs: number;
}

/** Answer headers as flows read them: lower-case names, one string each. */
function flatHeaders(h: Readonly<Record<string, string | string[] | number | undefined>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h ?? {})) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
}

/** The answer inside an outcome, if one came. */
export function answerOf(outcome: CallOutcome): Answer | undefined {
  if ('response' in outcome) return { status: outcome.response.status, url: outcome.response.url, headers: flatHeaders(outcome.response.headers), body: outcome.response.rawBody, durationMs: outcome.response.durationMs };
  if ('raw' in outcome) return { status: outcome.raw.status, url: outcome.raw.url, headers: flatHeaders(outcome.raw.headers), body: outcome.raw.rawBody, durationMs: outcome.raw.durationMs };
  const err = outcome.error;
  if (err instanceof ApiError && !err.outcomeUnknown) return { status: err.status, headers: flatHeaders(err.headers), body: err.rawBody, durationMs: err.durationMs };
  if (err instanceof MalformedResponseError) return { status: err.status, headers: {}, body: err.rawBody, durationMs: err.durationMs };
  return undefined;
}

/** A body as the exchange shows it: its text, or a note of its size when it is bytes that are not UTF-8. */
export function bodyText(body: string | Uint8Array): string {
  if (typeof body === 'string') return body;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return `[${body.byteLength} bytes, not UTF-8 text]`;
  }
}

