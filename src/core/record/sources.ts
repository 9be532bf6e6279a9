import type { DiagnosisItem, Exchange, ExchangeHeaders } from '../exchange/types';
import { REQUEST_BODY_CAP, RESPONSE_BODY_CAP } from '../requestLog/requestLogEntry';

/**
 * What `tpp record` reads, as exchanges (docs/flows.md, Recording a flow): the entries of a sandbox's journal
 * (`GET /__tpp/requests`, docs/testing-your-application.md), and the JSON Lines a log keeps: journal entries, whole
 * exchanges (the Integration Log's file, `tpp run --reporter json`'s), or the bare lines of `tpp sandbox --log json`
 * and `tpp proxy --log json`, which keep no bodies and no answers (so only what needs neither can be recorded).
 */

/** Origin given to the paths of a bare log line (a proxy's or sandbox's path, without a host): never written to a flow. */
export const LOGGED_ORIGIN = 'http://logged.invalid';

/** Why a log line holds no body, for the refusal of a request that needs one. */
export const LOG_LINE_BODY_HINT =
  "the lines of tpp proxy --log json and tpp sandbox --log json keep no bodies: record a tpp sandbox's journal (--sandbox), or watch the application from the editor (Watch My Application) and Save as Flow from the Integration Log";

type Fields = Readonly<Record<string, unknown>>;
const fields = (v: unknown): Fields | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : undefined);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function headers(v: unknown): ExchangeHeaders {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(fields(v) ?? {})) if (typeof x === 'string') out[k.toLowerCase()] = x;
  return out;
}

function diagnosis(v: unknown, fault: unknown): DiagnosisItem[] {
  const items = (Array.isArray(v) ? v : []).flatMap((d) => {
    const f = fields(d);
    return f && typeof f.rule === 'string' && typeof f.message === 'string' ? [{ rule: f.rule, message: f.message }] : [];
  });
  const injected = fields(fault);
  // A journal entry names the fault that answered it; its diagnosis may not (a delay alone keeps the real answer).
  if (injected && injected.fault !== 'delay' && !items.some((d) => d.rule === 'fault')) items.push({ rule: 'fault', message: `injected ${String(injected.fault)}${injected.id !== undefined ? `, scheduled fault #${String(injected.id)}` : ''}` });
  return items;
}

/**
 * Whether a journal's body text was cut at its cap: the journal keeps 32 KB of a request and 16 KB of an answer and
 * says nothing of it (docs/testing-your-application.md, Journal), so a text of that length that is not JSON was cut.
 */
function cutAt(body: string | undefined, cap: number): boolean {
  if (body === undefined || body.length < cap) return false;
  try {
    JSON.parse(body);
    return false;
  } catch {
    return true;
  }
}

/** An exchange from a journal entry (`{ id, time, method, path, status, ms, partner, diagnosis, request, response }`). */
function fromJournalEntry(e: Fields, request: Fields, env: string): Exchange {
  const response = fields(e.response);
  const status = typeof e.status === 'number' ? e.status : 0;
  const found = diagnosis(e.diagnosis, e.fault);
  const body = text(request.body);
  const answer = text(response?.body);
  return {
    id: text(e.id) ?? '',
    env,
    source: 'sandbox-log',
    time: text(e.time) ?? '',
    ...(text(e.partner) ? { partner: text(e.partner) } : {}),
    request: { method: text(e.method) ?? 'GET', url: text(request.url) ?? '', headers: headers(request.headers), ...(body !== undefined ? { body } : {}), ...(cutAt(body, REQUEST_BODY_CAP) ? { truncated: true } : {}) },
    ...(status > 0 ? { response: { status, headers: headers(response?.headers), ...(answer !== undefined ? { body: answer } : {}), ...(cutAt(answer, RESPONSE_BODY_CAP) ? { truncated: true } : {}) } } : {}),
    durationMs: typeof e.ms === 'number' ? e.ms : 0,
    attempts: 1,
    ...(found.length ? { diagnosis: found } : {}),
  };
}

/** An exchange from a bare `--log json` line: no bodies, no headers, no answer text. */
function fromLogLine(e: Fields): Exchange {
  const status = typeof e.status === 'number' ? e.status : 0;
  const method = text(e.method) ?? 'GET';
  const found = diagnosis(e.diagnosis, e.fault);
  // The proxy marks its own answers (the upstream did not answer); they are not the server's.
  if (e.kind === 'proxy-error' && !found.some((d) => d.rule === 'fault')) found.unshift({ rule: 'fault', message: "the proxy's own answer: the server did not answer" });
  return {
    id: '',
    env: text(e.environment) ?? 'local',
    source: e.environment !== undefined ? 'proxy-log' : 'sandbox-log',
    time: text(e.time) ?? '',
    ...(text(e.partner) ? { partner: text(e.partner) } : {}),
    request: { method, url: `${LOGGED_ORIGIN}${text(e.path) ?? ''}`, ...(method === 'GET' || method === 'HEAD' ? {} : { truncated: true }) },
    ...(status > 0 ? { response: { status, truncated: true } } : {}),
    durationMs: typeof e.ms === 'number' ? e.ms : 0,
    attempts: 1,
    ...(found.length ? { diagnosis: found } : {}),
  };
}

/**
 * The exchange a parsed line or entry is: a journal entry, a whole exchange, or a bare log line; undefined when it is
 * none of them. `env` names the environment of journal entries (a journal does not say it).
 */
export function exchangeOfRecord(value: unknown, env = 'local'): { exchange: Exchange; bare: boolean } | undefined {
  const e = fields(value);
  const request = fields(e?.request);
  if (!e) return undefined;
  if (request && typeof request.method === 'string' && typeof request.url === 'string') return { exchange: value as Exchange, bare: false };
  if (request && typeof e.method === 'string' && typeof request.url === 'string') return { exchange: fromJournalEntry(e, request, env), bare: false };
  if (typeof e.method === 'string' && typeof e.path === 'string' && typeof e.status === 'number') return { exchange: fromLogLine(e), bare: true };
  return undefined;
}

/** A line of a log file that is not a record: the base address `tpp sandbox` and `tpp proxy` print first. */
const BASE_LINE = /^https?:\/\/\S+$/;

/**
 * The exchanges of a log file's text: a journal page (`{ "total", "entries": [...] }`, as `GET /__tpp/requests`
 * answers), or JSON Lines of journal entries, exchanges or `--log json` lines (a first line that is a base address is
 * skipped). `bare` is true when some came from bare lines (no bodies: see {@link LOG_LINE_BODY_HINT}).
 * @throws Error naming the line that is neither JSON nor one of these records.
 */
export function exchangesOfLog(content: string, name: string): { exchanges: Exchange[]; bare: boolean } {
  const trimmed = content.trim();
  if (trimmed.startsWith('{') && !trimmed.includes('\n{')) {
    let page: Fields | undefined;
    try {
      page = fields(JSON.parse(trimmed) as unknown);
    } catch {
      page = undefined; // not one JSON value: read line by line below, which names the line
    }
    if (page && Array.isArray(page.entries)) return collect(page.entries.map((e, i) => [e, `${name}: entries[${i}]`] as const));
  }
  const records: (readonly [unknown, string])[] = [];
  content.split(/\r?\n/).forEach((line, i) => {
    const t = line.trim();
    if (t === '' || BASE_LINE.test(t)) return;
    let value: unknown;
    try {
      value = JSON.parse(t);
    } catch {
      throw new Error(`${name}:${i + 1}: not a JSON line (a journal entry, an exchange or a --log json line)`);
    }
    records.push([value, `${name}:${i + 1}`]);
  });
  return collect(records);
}

function collect(records: readonly (readonly [unknown, string])[]): { exchanges: Exchange[]; bare: boolean } {
  let bare = false;
  const exchanges = records.map(([value, where]) => {
    const r = exchangeOfRecord(value);
    if (!r) throw new Error(`${where}: not a journal entry, an exchange or a --log json line`);
    bare ||= r.bare;
    return r.exchange;
  });
  return { exchanges, bare };
}
