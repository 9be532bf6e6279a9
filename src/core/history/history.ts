/**
 * Request history (every request the extension sends, per environment): a ring of the newest
 * {@link HISTORY_LIMIT} entries, masked when added, serialisable to plain JSON for the editor's extension
 * storage, and re-sendable (the endpoint, path parameters, query and body are kept — masked).
 *
 * Secrets: tokens are never recorded (the Authorization header is not part of an entry), and every string of an
 * entry passes through `maskSecrets` (JWTs, `Bearer …`, private keys, secret-named properties), so a token that
 * appears in a URL or a body is masked too (Developers' guide: Secrets).
 */
import { maskSecrets } from '../log/mask';
import type { Exchange } from '../exchange/types';
import { describeExchange } from '../exchange/describe';
import { exchangeEndpoint } from '../exchange/endpoint';
import { newExchangeId } from '../exchange/id';

/** How many entries are kept (all environments together); the oldest fall out first. */
export const HISTORY_LIMIT = 200;

/** Largest request body kept for re-sending, in characters of JSON; a larger body is dropped (not re-sendable). */
export const MAX_STORED_BODY_CHARS = 64 * 1024;

/** What is needed to send a recorded request again. */
export interface ReplayInfo {
  /** Endpoint id of the contract's table (e.g. `createTireProtectionRegistration`). */
  readonly endpointId: string;
  readonly params?: Readonly<Record<string, string | number>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Request body as JSON text (masked); absent for calls without a body or when too large. */
  readonly bodyJson?: string;
}

/** One recorded request. Times in ISO 8601 (UTC), durations in milliseconds. */
export interface HistoryEntry {
  /** Unique within the store (time-ordered). */
  readonly id: string;
  /** Environment id (`local`, `sandbox`, `production`). */
  readonly env: string;
  /** ISO 8601 time the request started. */
  readonly time: string;
  readonly method: string;
  /** Path and query relative to the origin, e.g. `/api/v3/tire-protection/registrations?page=2` (masked). */
  readonly path: string;
  /** Absolute URL (masked). */
  readonly url: string;
  /** HTTP status of the final answer; `undefined` when no answer came (network error, cancelled, refused). */
  readonly status?: number;
  /** Wall time of the call, retries included, in milliseconds. */
  readonly durationMs: number;
  /** Attempts made (1 = no retry). */
  readonly attempts: number;
  /** Short outcome when there was no answer, e.g. `ECONNREFUSED` or `cancelled` (masked). */
  readonly error?: string;
  readonly replay?: ReplayInfo;
  /** The request and its answer as the response view shows them (masked; each body cut at {@link MAX_STORED_BODY_CHARS}). */
  readonly exchange?: Exchange;
}

/** Input of {@link HistoryStore.add}: an entry without its id (assigned) — strings are masked on the way in. */
export type NewHistoryEntry = Omit<HistoryEntry, 'id'> & { readonly id?: string };

/** Masks every secret-bearing string of a value (recursively: object values, array items, keys kept). */
function maskValue(v: unknown): unknown {
  if (typeof v === 'string') return maskSecrets(v);
  if (Array.isArray(v)) return v.map(maskValue);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = maskValue(x);
    return out;
  }
  return v;
}

/**
 * A request body as stored for re-sending: JSON text with every secret masked (by property name and by shape),
 * or `undefined` when there is no body or it is larger than {@link MAX_STORED_BODY_CHARS}.
 */
export function storableBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  const raw = JSON.stringify(body);
  if (raw === undefined || raw.length > MAX_STORED_BODY_CHARS) return undefined;
  return maskSecrets(JSON.stringify(maskValue(body)));
}

/** `text` cut at {@link MAX_STORED_BODY_CHARS} characters: `[kept, truncated]`. */
function capped(text: string | undefined): [string | undefined, boolean] {
  if (text === undefined || text.length <= MAX_STORED_BODY_CHARS) return [text, false];
  return [text.slice(0, MAX_STORED_BODY_CHARS), true];
}

/**
 * An exchange as history stores it: every string masked (`maskSecrets`, by shape and by secret-named property) and
 * each body cut at {@link MAX_STORED_BODY_CHARS} characters (flagged `truncated`). `undefined` when `raw` is not an
 * exchange (no request method and URL, no id). Never throws.
 */
export function storableExchange(raw: unknown): Exchange | undefined {
  if (!isRecord(raw) || !isRecord(raw.request) || typeof raw.id !== 'string') return undefined;
  if (typeof raw.request.method !== 'string' || typeof raw.request.url !== 'string') return undefined;
  const x = maskValue(raw) as Exchange;
  const [reqBody, reqCut] = capped(typeof x.request.body === 'string' ? x.request.body : undefined);
  const request = { ...x.request, body: reqBody, ...(reqCut || x.request.truncated ? { truncated: true } : {}) };
  if (request.body === undefined) delete request.body;
  let response = isRecord(x.response) && typeof x.response.status === 'number' ? x.response : undefined;
  if (response) {
    const [resBody, resCut] = capped(typeof response.body === 'string' ? response.body : undefined);
    response = { ...response, body: resBody, ...(resCut || response.truncated ? { truncated: true } : {}) };
    if (response.body === undefined) delete (response as { body?: string }).body;
  }
  const out: Exchange = { ...x, request, response };
  if (!response) delete (out as { response?: unknown }).response;
  // Lines of an earlier version name the endpoint only (`endpointId`) and carry no description of a sent request:
  // the typed endpoint is read from the table and URL, the description computed as exchangeOf computes it.
  const legacy = out as Exchange & { endpointId?: unknown };
  if (legacy.endpointId === undefined && (out.diagnosis || out.source !== 'client')) return out;
  const endpoint = out.endpoint ?? (typeof legacy.endpointId === 'string' ? exchangeEndpoint(legacy.endpointId, request.url) : undefined);
  delete legacy.endpointId;
  const typed: Exchange = endpoint ? { ...out, endpoint } : out;
  if (typed.diagnosis || typed.source !== 'client') return typed;
  const diagnosis = describeExchange(typed);
  return diagnosis.length ? { ...typed, diagnosis } : typed;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Checks and masks a stored entry; `undefined` when it is not one (stored data from another version, damage). */
function sanitize(raw: unknown, id: string): HistoryEntry | undefined {
  if (!isRecord(raw)) return undefined;
  const { env, time, method, path, url, status, durationMs, attempts, error, replay } = raw;
  const exchange = storableExchange(raw.exchange);
  if (typeof env !== 'string' || typeof time !== 'string' || typeof method !== 'string' || typeof path !== 'string') return undefined;
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || typeof attempts !== 'number') return undefined;
  let rep: ReplayInfo | undefined;
  if (isRecord(replay) && typeof replay.endpointId === 'string') {
    rep = {
      endpointId: replay.endpointId,
      ...(isRecord(replay.params) ? { params: maskValue(replay.params) as ReplayInfo['params'] } : {}),
      ...(isRecord(replay.query) ? { query: maskValue(replay.query) as ReplayInfo['query'] } : {}),
      ...(typeof replay.bodyJson === 'string' && replay.bodyJson.length <= MAX_STORED_BODY_CHARS
        ? { bodyJson: maskSecrets(replay.bodyJson) }
        : {}),
    };
  }
  return {
    id,
    env,
    time,
    method,
    path: maskSecrets(path),
    url: maskSecrets(typeof url === 'string' ? url : path),
    ...(typeof status === 'number' ? { status } : {}),
    durationMs: Math.max(0, durationMs),
    attempts: Math.max(0, Math.floor(attempts)),
    ...(typeof error === 'string' ? { error: maskSecrets(error) } : {}),
    ...(rep ? { replay: rep } : {}),
    ...(exchange ? { exchange } : {}),
  };
}

/**
 * The ring of recorded requests. Newest first in {@link list}. Not thread-safe (single event loop).
 *
 * @example
 *   const h = new HistoryStore();
 *   h.add({ env: 'local', time: new Date().toISOString(), method: 'GET', path: '/api/v3/verify-token', url, status: 200, durationMs: 12, attempts: 1 });
 *   globalState.update('tpp.history', h.toJSON());
 */
export class HistoryStore {
  private entries: HistoryEntry[] = [];

  /** @param limit entries kept (default {@link HISTORY_LIMIT}); must be a positive integer. */
  constructor(readonly limit = HISTORY_LIMIT) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`History limit must be a positive integer (got ${String(limit)})`);
  }

  /**
   * Restores a store from {@link toJSON} output. Tolerant: anything that is not an entry is skipped, every
   * string is masked again, and only the newest `limit` entries are kept. Never throws on bad data.
   */
  static fromJSON(data: unknown, limit = HISTORY_LIMIT): HistoryStore {
    const store = new HistoryStore(limit);
    const list = isRecord(data) && Array.isArray(data.entries) ? data.entries : Array.isArray(data) ? data : [];
    const kept: HistoryEntry[] = [];
    for (const raw of list as unknown[]) {
      const id = isRecord(raw) && typeof raw.id === 'string' ? raw.id : newExchangeId();
      const e = sanitize(raw, id);
      if (e) kept.push(e);
    }
    // Stored newest first.
    store.entries = kept.slice(0, limit);
    return store;
  }

  /**
   * Records a request (masking every string) and drops the oldest beyond the limit.
   * @returns the stored (masked) entry. Throws TypeError when a required field is missing.
   */
  add(entry: NewHistoryEntry): HistoryEntry {
    const stored = sanitize(entry, entry.id ?? newExchangeId());
    if (!stored) throw new TypeError('Not a history entry: env, time, method, path, durationMs and attempts are required');
    this.entries.unshift(stored);
    if (this.entries.length > this.limit) this.entries.length = this.limit;
    return stored;
  }

  /** Entries newest first; with `env`, only that environment's. */
  list(env?: string): readonly HistoryEntry[] {
    return env === undefined ? [...this.entries] : this.entries.filter((e) => e.env === env);
  }

  /** The entry with `id`, if still kept. */
  get(id: string): HistoryEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Removes all entries (or only those of `env`). */
  clear(env?: string): void {
    this.entries = env === undefined ? [] : this.entries.filter((e) => e.env !== env);
  }

  /** Plain JSON for storage: `{ version: 1, entries: [...] }`, newest first. */
  toJSON(): { version: 1; entries: HistoryEntry[] } {
    return { version: 1, entries: this.entries.map((e) => ({ ...e })) };
  }
}

/** Path and query relative to the base address: the `/api/v3` (or eligibility `/api/v1`) prefix removed. */
export function relativePath(path: string): string {
  return path.replace(/^\/api\/v[13](?=[/?]|$)/, '') || '/';
}

/**
 * The label of a history row: `POST /tire-protection/registrations → 201 · 184 ms · 10:42` (path relative to the
 * base address, local time of day; `→ ECONNREFUSED` or `→ no answer` when none came).
 */
export function historyLabel(e: HistoryEntry): string {
  const d = new Date(e.time);
  const hhmm = Number.isNaN(d.getTime()) ? e.time : `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  const outcome = e.status !== undefined ? String(e.status) : (e.error ?? 'no answer');
  return `${e.method} ${relativePath(e.path)} → ${outcome} · ${Math.round(e.durationMs)} ms · ${hhmm}`;
}

