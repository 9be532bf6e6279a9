import type { RequestLog, RequestLogEntry, RequestLogLine } from '../../requestLog/requestLog';
import { bad, fieldPath, fieldText, pathOf, pathPattern } from './input';
import { JOURNAL_LIMIT } from './limits';

export { JOURNAL_LIMIT } from './limits';

/**
 * `GET /__tpp/requests`: the partner requests the sandbox answered (the request log the Integration Log shows), newest
 * last, filtered, each masked exactly as `tpp sandbox --log json` prints it plus the masked request and answer
 * (docs/testing-your-application.md, Journal). Control calls are never in it.
 */


/** One entry of the answer: the `--log json` line, its id, and the masked request and answer. */
export interface JournalEntry extends RequestLogLine {
  readonly id: string;
  readonly request: { readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body?: string };
  readonly response: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body?: string };
}

/** The answer of `GET /__tpp/requests`: how many entries match and (at most `limit` of) them, oldest first. */
export interface JournalPage {
  readonly total: number;
  readonly entries: JournalEntry[];
}

/**
 * The filters of `GET /__tpp/requests`, each given once (control/schemas.ts `requestsQuery` checks them first), and
 * `body.<field path>` filters.
 */
export interface JournalQuery {
  readonly method?: string;
  readonly path?: string;
  readonly status?: string;
  readonly partner?: string;
  readonly since?: string;
  readonly limit?: string;
  readonly fault?: string;
  readonly [bodyFilter: `body.${string}`]: string | undefined;
}

/**
 * Whether an entry's request body has `value` at each field path: a string field equals it as text, any other field
 * (number, boolean, null, object) as JSON text (`body.tiresCovered=4`). A body that is not JSON, or was cut at its
 * cap, matches no body filter.
 */
function bodyMatcher(query: JournalQuery): ((e: RequestLogEntry) => boolean) | undefined {
  const filters = Object.entries(query)
    .filter(([k, v]) => k.startsWith('body.') && v !== undefined)
    .map(([k, v]) => [fieldPath(k.slice('body.'.length)), v as string, JSON.stringify(v)] as const);
  if (filters.length === 0) return undefined;
  return (e) => {
    let body: unknown;
    try {
      body = JSON.parse(e.requestBody() ?? '');
    } catch {
      return false;
    }
    return filters.every(([path, value, asString]) => {
      const found = fieldText(body, path);
      return found === value || found === asString;
    });
  };
}

/** Whether an entry was answered as `fault` asks: `true`, `false`, `fault-rate`, or a scheduled fault's id. */
function faultMatcher(fault: string | undefined): ((e: RequestLogEntry) => boolean) | undefined {
  if (fault === undefined) return undefined;
  if (fault === 'true' || fault === 'false') return (e) => (e.fault !== undefined) === (fault === 'true');
  if (fault === 'fault-rate') return (e) => e.fault?.by === 'fault-rate';
  const id = Number(fault);
  return (e) => e.fault?.by === 'schedule' && e.fault.id === id;
}

/** The matcher of the named filters but `fault` and the body. @throws ApiError 400 naming the query parameter. */
function filterMatcher(query: JournalQuery): (e: RequestLogEntry) => boolean {
  const method = query.method?.toUpperCase();
  const pathText = query.path;
  const path = pathText === undefined ? undefined : pathPattern(pathText, 'query.path');
  const statusText = query.status;
  if (statusText !== undefined && !/^([1-5](\d\d|xx)|0)$/i.test(statusText)) throw bad('query.status', `must be a status code such as 503, a class such as 5xx, or 0 (no answer), not '${statusText}'`);
  const status = statusText?.toLowerCase();
  const partner = query.partner;
  const sinceText = query.since;
  const since = sinceText === undefined ? undefined : Date.parse(sinceText);
  if (since !== undefined && Number.isNaN(since)) throw bad('query.since', `must be an ISO 8601 time such as 2026-01-31T12:00:00Z, not '${sinceText}'`);
  return (e) =>
    (method === undefined || e.method === method) &&
    (partner === undefined || e.partner === partner) &&
    (status === undefined || (status.endsWith('xx') ? String(e.status)[0] === status[0] : String(e.status) === status)) &&
    (since === undefined || Date.parse(e.time) >= since) &&
    (path === undefined || path.test(pathOf(e.path)));
}

/**
 * Filters the journal by the query: `method`, `path` (pattern: `*` within a segment, `**` across), `status` (a code
 * or a class such as `5xx`), `partner`, `since` (ISO 8601: entries at or after it), `fault` (`true`, `false`,
 * `fault-rate` or a scheduled fault's id), `body.<field path>` (the request body's field equals the value), `limit`
 * (1..10,000, default 1000). Every filter given must match.
 * @throws ApiError 400 naming the query parameter.
 */
export function queryJournal(log: RequestLog, query: JournalQuery): JournalPage {
  const limitText = query.limit ?? '1000';
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > JOURNAL_LIMIT) throw bad('query.limit', `must be an integer from 1 to ${JOURNAL_LIMIT} (the limit), not '${limitText}'`);
  const named = filterMatcher(query);
  const fault = faultMatcher(query.fault);
  // The body is parsed last, only for entries every other filter kept.
  const body = bodyMatcher(query);
  const matches = (e: RequestLogEntry): boolean => named(e) && (fault === undefined || fault(e)) && (body === undefined || body(e));
  const entries: JournalEntry[] = [];
  let total = 0;
  for (const e of log.list()) {
    if (!matches(e)) continue;
    total++;
    if (entries.length < limit) entries.push(entryOf(e));
  }
  return { total, entries };
}

function entryOf(e: RequestLogEntry): JournalEntry {
  const x = e.exchange();
  return {
    id: e.id,
    ...e.line(),
    request: { url: x.request.url, headers: x.request.headers ?? {}, ...(x.request.body !== undefined ? { body: x.request.body } : {}) },
    response: { status: e.status, headers: x.response?.headers ?? {}, ...(x.response?.body !== undefined ? { body: x.response.body } : {}) },
  };
}
