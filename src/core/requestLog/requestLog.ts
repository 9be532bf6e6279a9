import type { RequestLogEntry } from './requestLogEntry';

export { maskQuery } from './requestLogMask';
export { REQUEST_BODY_CAP, RESPONSE_BODY_CAP, RequestLogEntry, type InjectedFault, type RawRequest, type RequestLogLine } from './requestLogEntry';

/**
 * The Local sandbox's request log (spec: Errors): one entry per request the sandbox answers, from
 * any client, kept in a bounded ring and pushed to subscribers (`tpp sandbox --log json`, the editor's Integration
 * Log over the child process's IPC channel). An entry's cheap fields (time, method, path, status, ms, partner,
 * diagnosis) are set when the answer has gone out; its full {@link Exchange} (headers, bodies; capped and masked) is
 * built only when asked for, so that logging a successful read costs little. A diagnosis is computed only for
 * failures (./requestLogDiagnosis.ts).
 *
 * Secrets: the Authorization header is kept only as `Bearer [masked]`; URLs, headers and bodies pass through
 * `maskSecrets` when the exchange is built. A full token or private key never leaves an entry.
 */

/** Entries kept by default: the last 1,000 requests. */
export const DEFAULT_REQUEST_LOG_LIMIT = 1000;
/**
 * Bytes the entries kept may hold together, by {@link RequestLogEntry.bytes}' estimate (default of
 * {@link RequestLogOptions.maxBytes}): 10,000 entries with bodies near the caps would be hundreds of MiB; beyond it
 * the oldest entries are dropped (docs/sandbox.md, Limits).
 */
export const REQUEST_LOG_BYTES = 16 * 1024 * 1024;

/** Options of {@link RequestLog}. */
export interface RequestLogOptions {
  /** Entries kept (default {@link DEFAULT_REQUEST_LOG_LIMIT}); a positive integer. */
  readonly limit?: number;
  /** Bytes the entries kept may hold together (default {@link REQUEST_LOG_BYTES}); the newest entry is always kept. */
  readonly maxBytes?: number;
  /** Milliseconds an entry waits for the diagnosis of an earlier answer (default {@link ORDER_WAIT_MS}). */
  readonly orderWaitMs?: number;
  /** The clock of the order wait and of `settled`, in milliseconds (`performance.now` by default; tests move their own). */
  readonly now?: () => number;
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
  private readonly now: () => number;

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
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Takes the next place in the log's order, synchronously when an answer has gone out; the returned function
   * publishes that answer's entry once built. Entries are published in the order of their places; one that is not
   * filled within the order wait gives up its place (it is published whenever it is filled).
   */
  reserve(): (entry: RequestLogEntry) => void {
    const slot: Slot = { since: this.now() };
    if (this.waiting.length >= this.limit) this.giveUpHead();
    this.waiting.push(slot);
    return (entry) => {
      if (slot.entry) return;
      slot.entry = entry;
      if (slot.skipped) this.add(entry);
      else this.drain();
    };
  }

  /**
   * Resolves once every place taken so far is published (or given up on), or after `limitMs` milliseconds: an entry
   * whose answer went out is then in {@link list}.
   */
  async settled(limitMs: number): Promise<void> {
    const until = this.now() + limitMs;
    while (this.waiting.length > 0 && this.now() < until) await new Promise((r) => setTimeout(r, 2));
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
    this.timer = setTimeout(() => this.giveUpHead(), Math.max(0, head.since + this.orderWaitMs - this.now()));
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
