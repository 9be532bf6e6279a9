import type { DiagnosisItem, Exchange } from '../exchange/types';
import { maskSecrets } from '../log/mask';
import { cut, maskHeaders, maskQuery } from './requestLogMask';

export { maskQuery } from './requestLogMask';

/**
 * The Local sandbox's request log (spec: Errors): one entry per request the sandbox answers, from
 * any client, kept in a bounded ring and pushed to subscribers (`tpp sandbox --log json`, the editor's Integration
 * Log over the child process's IPC channel). An entry's cheap fields (time, method, path, status, ms, partner,
 * diagnosis) are set when the answer has gone out; its full {@link Exchange} (headers, bodies; capped and masked) is
 * built only when first asked for, so that logging a successful read costs little. A diagnosis is computed only for
 * failures (./requestLogDiagnosis.ts).
 *
 * Secrets: the Authorization header is kept only as `Bearer [masked]`; URLs, headers and bodies pass through
 * `maskSecrets` when the exchange is built. A full token or private key never leaves an entry.
 */

/** Entries kept by default (the "last 1,000 requests"). */
export const DEFAULT_REQUEST_LOG_LIMIT = 1000;
/** Characters of a request body kept in an entry (the rest is cut; `truncated` is not set for requests). */
export const REQUEST_BODY_CAP = 32 * 1024;
/** Characters of a response body kept in an entry (`response.truncated` says when cut). */
export const RESPONSE_BODY_CAP = 16 * 1024;
/**
 * Bytes the entries kept may hold together, by {@link RequestLogEntry.bytes}' estimate (default of
 * {@link RequestLogOptions.maxBytes}): 10,000 entries with bodies near the caps would be hundreds of MiB; beyond it
 * the oldest entries are dropped (docs/sandbox.md, Limits).
 */
export const REQUEST_LOG_BYTES = 16 * 1024 * 1024;
/** What an entry holds besides its URL and bodies (fields, both header objects), in {@link RequestLogEntry.bytes}. */
const ENTRY_OVERHEAD = 1024;

/** What the sandbox hands the log about one answered request (raw: masked when the exchange is built). */
export interface RawRequest {
  readonly method: string;
  /** Absolute URL as called (origin from the Host header, path and query). */
  readonly url: string;
  /** Path and query as received. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Request body text, when one was read (absent for a rejected token: the body is never read then). */
  readonly body?: string;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, unknown>>;
  /** Response body text (JSON), when there was one. */
  readonly responseBody?: string;
  /** Milliseconds from the request's arrival to the end of the answer. */
  readonly ms: number;
  /** Partner ID: the verified `iss`, or for a refused token the `iss` it claimed, when readable. */
  readonly partner?: string;
}

/**
 * One line of `tpp sandbox --log json`; the control API's journal and `tpp proxy --log json` use the same field names.
 */
export interface RequestLogLine {
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  readonly partner: string | null;
  readonly diagnosis: readonly { readonly rule: string; readonly message: string }[];
}

let counter = 0;
const PID36 = process.pid.toString(36);

/** One request the sandbox answered. */
export class RequestLogEntry {
  /** Milliseconds and per-process counter of {@link id}, formatted only when read (most entries never are). */
  private readonly idMs: number;
  private readonly idCount: number;
  /** ISO 8601 UTC time the request arrived. */
  readonly time: string;
  readonly method: string;
  /** Path and query as received, secrets in the query masked. */
  readonly path: string;
  readonly status: number;
  /** Milliseconds, one decimal. */
  readonly ms: number;
  readonly partner: string | undefined;
  private built: Exchange | undefined;
  private raw: RawRequest | undefined;
  /** Bytes of an answer longer than {@link RESPONSE_BODY_CAP}, whose text is kept cut. */
  private readonly cutAnswerBytes: number | undefined;
  /** Estimate of the memory this entry holds (its URL, bodies, and a fixed allowance for the rest), in bytes. */
  readonly bytes: number;

  constructor(
    raw: RawRequest,
    /** What went wrong and how to fix it; empty for a success. */
    readonly diagnosis: readonly DiagnosisItem[],
    nowMs: number,
  ) {
    // Only what the exchange shows is held: the log may keep 10,000 entries (the control API's journal), and a
    // body may be 1 MiB, an answer 16 MiB.
    const answer = raw.responseBody;
    this.cutAnswerBytes = answer !== undefined && answer.length > RESPONSE_BODY_CAP ? Buffer.byteLength(answer) : undefined;
    this.raw =
      (raw.body?.length ?? 0) > REQUEST_BODY_CAP || this.cutAnswerBytes !== undefined
        ? { ...raw, body: raw.body === undefined ? undefined : cut(raw.body, REQUEST_BODY_CAP), responseBody: answer === undefined ? undefined : cut(answer, RESPONSE_BODY_CAP) }
        : raw;
    this.bytes = ENTRY_OVERHEAD + raw.url.length + (this.raw.body?.length ?? 0) + (this.raw.responseBody?.length ?? 0);
    this.idMs = nowMs;
    this.idCount = counter = (counter + 1) % 1_679_616;
    this.time = new Date(nowMs - raw.ms).toISOString();
    this.method = raw.method;
    this.path = /[?=]|eyJ|-----/.test(raw.path) ? maskQuery(raw.path) : raw.path;
    this.status = raw.status;
    this.ms = Math.round(raw.ms * 10) / 10;
    this.partner = raw.partner;
  }

  /** Time-ordered unique id: milliseconds in base 36, then a per-process counter, then the process. */
  get id(): string {
    return `${this.idMs.toString(36)}-${this.idCount.toString(36).padStart(4, '0')}-${PID36}`;
  }

  /** The `--log json` line of this entry. */
  line(): RequestLogLine {
    return { time: this.time, method: this.method, path: this.path, status: this.status, ms: this.ms, partner: this.partner ?? null, diagnosis: this.diagnosis.map(({ rule, message }) => ({ rule, message })) };
  }

  /** The whole exchange (source `sandbox-log`, environment `local`), masked and capped; built once. */
  exchange(): Exchange {
    if (this.built) return this.built;
    const raw = this.raw as RawRequest;
    const reqBody = raw.body === undefined ? undefined : maskSecrets(raw.body.length > REQUEST_BODY_CAP ? raw.body.slice(0, REQUEST_BODY_CAP) : raw.body);
    const resText = raw.responseBody;
    const resBody = resText === undefined ? undefined : maskSecrets(resText.length > RESPONSE_BODY_CAP ? resText.slice(0, RESPONSE_BODY_CAP) : resText);
    this.built = {
      id: this.id,
      env: 'local',
      source: 'sandbox-log',
      time: this.time,
      ...(this.partner ? { partner: this.partner } : {}),
      request: { method: raw.method, url: maskQuery(raw.url), headers: maskHeaders(raw.headers), ...(reqBody !== undefined ? { body: reqBody } : {}) },
      response: {
        status: raw.status,
        headers: maskHeaders(raw.responseHeaders),
        ...(resBody !== undefined ? { body: resBody, size: this.cutAnswerBytes ?? Buffer.byteLength(resText as string), ...(this.cutAnswerBytes !== undefined ? { truncated: true } : {}) } : {}),
      },
      durationMs: this.ms,
      attempts: 1,
      ...(this.diagnosis.length ? { diagnosis: this.diagnosis } : {}),
    };
    this.raw = undefined; // the raw texts (and the Authorization header) are no longer held
    return this.built;
  }
}

/** Options of {@link RequestLog}. */
export interface RequestLogOptions {
  /** Entries kept (default {@link DEFAULT_REQUEST_LOG_LIMIT}); a positive integer. */
  readonly limit?: number;
  /** Bytes the entries kept may hold together (default {@link REQUEST_LOG_BYTES}); the newest entry is always kept. */
  readonly maxBytes?: number;
  /** Milliseconds an entry waits for the diagnosis of an earlier answer (default {@link ORDER_WAIT_MS}). */
  readonly orderWaitMs?: number;
}

/**
 * Longest wait, in milliseconds, of the entries answered after one whose diagnosis is still running: past it that
 * entry loses its place (it is published when ready), so a slow diagnosis never stalls the log.
 */
export const ORDER_WAIT_MS = 2000;

/** A place in the log's order, taken when the answer went out and filled once the entry is built. */
interface Slot {
  entry?: RequestLogEntry;
  /** Given up on after the order wait: its entry is published as soon as it arrives. */
  skipped?: boolean;
  readonly since: number;
}

/**
 * The bounded ring of entries, newest last, with subscribers called once per entry in the order the answers were
 * sent ({@link reserve}), whatever order their diagnoses finish in. A subscriber that throws is dropped from that
 * call only; the sandbox never fails a request because of its log.
 */
export class RequestLog {
  readonly limit: number;
  readonly maxBytes: number;
  private readonly ring: (RequestLogEntry | undefined)[];
  private next = 0;
  private count = 0;
  /** Sum of the kept entries' {@link RequestLogEntry.bytes}. */
  private bytes = 0;
  private readonly listeners = new Set<(e: RequestLogEntry) => void>();
  /** Places taken and not yet published, oldest first (at most `limit`: beyond, the oldest is given up on). */
  private readonly waiting: Slot[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly orderWaitMs: number;

  /** @throws RangeError when `limit` or `maxBytes` is not a positive integer. */
  constructor(options: RequestLogOptions = {}) {
    const limit = options.limit ?? DEFAULT_REQUEST_LOG_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`The request log limit must be a positive integer, not ${limit}`);
    const maxBytes = options.maxBytes ?? REQUEST_LOG_BYTES;
    if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new RangeError(`The request log's byte bound must be a positive integer, not ${maxBytes}`);
    this.limit = limit;
    this.maxBytes = maxBytes;
    this.ring = new Array<RequestLogEntry | undefined>(limit);
    this.orderWaitMs = options.orderWaitMs ?? ORDER_WAIT_MS;
  }

  /**
   * Takes the next place in the log's order, synchronously when an answer has gone out; the returned function
   * publishes that answer's entry once built. Entries are published in the order of their places; one that is not
   * filled within the order wait gives up its place (it is published whenever it is filled).
   */
  reserve(): (entry: RequestLogEntry) => void {
    const slot: Slot = { since: performance.now() };
    if (this.waiting.length >= this.limit) this.giveUpHead();
    this.waiting.push(slot);
    return (entry) => {
      if (slot.entry) return;
      slot.entry = entry;
      if (slot.skipped) this.add(entry);
      else this.drain();
    };
  }

  /** Publishes the filled places at the head of the order; arms the order wait of the first unfilled one. */
  private drain(): void {
    let head = this.waiting[0];
    while (head?.entry) {
      this.waiting.shift();
      this.add(head.entry);
      head = this.waiting[0];
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!head) return;
    this.timer = setTimeout(() => this.giveUpHead(), Math.max(0, head.since + this.orderWaitMs - performance.now()));
    this.timer.unref?.();
  }

  private giveUpHead(): void {
    const head = this.waiting.shift();
    if (head) head.skipped = true;
    this.drain();
  }

  /**
   * Keeps `entry` (dropping the oldest beyond the limit of entries or of bytes) and tells every subscriber, now (see
   * {@link reserve}).
   */
  add(entry: RequestLogEntry): void {
    while (this.count > 0 && (this.count === this.limit || this.bytes + entry.bytes > this.maxBytes)) this.dropOldest();
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.limit;
    this.count++;
    this.bytes += entry.bytes;
    for (const l of this.listeners) {
      try {
        l(entry);
      } catch {
        // a failing subscriber must not fail the sandbox
      }
    }
  }

  private dropOldest(): void {
    const oldest = (this.next - this.count + this.limit) % this.limit;
    this.bytes -= (this.ring[oldest] as RequestLogEntry).bytes;
    this.ring[oldest] = undefined;
    this.count--;
  }

  /** Entries kept, oldest first. */
  list(): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    const start = (this.next - this.count + this.limit) % this.limit;
    for (let i = 0; i < this.count; i++) out.push(this.ring[(start + i) % this.limit] as RequestLogEntry);
    return out;
  }

  /** Number of entries kept. */
  get size(): number {
    return this.count;
  }

  /** Drops every entry (entries still waiting for a diagnosis are published when ready). */
  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
    this.bytes = 0;
  }

  /** Calls `listener` with each new entry until the returned function is called. */
  subscribe(listener: (e: RequestLogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
