import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../replies';
import { markFault } from '../requestLogHooks';
import { bad, pathOf, pathPattern } from './input';
import { faultBody, parseControl } from './schemas';
import { FaultKind, MAX_SCHEDULED_HITS } from './limits';

export { FAULT_KINDS, MAX_SCHEDULED_HITS, MAX_TIMEOUT_MS } from './limits';
export type { FaultKind } from './limits';

/**
 * Scheduled faults of the control API (docs/testing-your-application.md, Faults; spec: Errors — 429 with
 * Retry-After, 500, 502, 503, 504): for partner requests matching a method and a path pattern, answer with a fault
 * the next N times, in the order the faults were scheduled. Unlike `--fault-rate`, deterministic: `take` runs
 * synchronously on the event loop, so N matching requests get the fault however many clients send at once.
 */


/** When the fault strikes: before the request is processed (nothing stored) or after its write is committed (the duplicate case). */
export type FaultWhen = 'before' | 'after-commit';


/** One entry of the schedule, as `GET /__tpp/faults` answers it. */
export interface ScheduledFault {
  readonly id: number;
  /** HTTP method, upper case, or `*`. */
  readonly method: string;
  /** Path pattern (`*` within a segment, `**` across). */
  readonly path: string;
  readonly fault: FaultKind;
  readonly when: FaultWhen;
  /** Hits still to answer. */
  remaining: number;
  /** Retry-After seconds (always sent with 429; with another status only when given). */
  readonly retryAfter?: number;
  /** Milliseconds a `timeout` holds the request before closing the connection. */
  readonly timeoutMs: number;
}

interface Entry extends ScheduledFault {
  readonly pattern: RegExp;
}

/** Parses one fault of a POST body (an object, or an element of an array at `at`). @throws ApiError 400 naming the field. */
function parseFault(value: unknown, at: string): Omit<Entry, 'id' | 'remaining'> & { times: number } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad(at.replace(/\.$/, ''), 'must be a fault object');
  const o = parseControl(faultBody, value, at);
  const fault = o.fault as FaultKind;
  const retryAfter = o.retryAfter ?? (fault === 429 ? 1 : undefined);
  return { method: o.method ?? '*', path: o.path, pattern: pathPattern(o.path, `${at}path`), fault, when: o.when ?? 'before', times: o.times ?? 1, retryAfter, timeoutMs: o.timeoutMs ?? 30_000 };
}

/** The schedule of one sandbox. */
export class FaultSchedule {
  private entries: Entry[] = [];
  private nextId = 1;

  /**
   * Appends the faults of a POST body: one fault object, or an array of them. Nothing is added when one is invalid.
   * @throws ApiError 400 naming the field, or the limit of {@link MAX_SCHEDULED_HITS} pending hits.
   */
  add(body: unknown): ScheduledFault[] {
    const list = Array.isArray(body) ? body : [body];
    if (list.length === 0) throw bad('', 'give a fault object or a non-empty array of them');
    if (list.length > MAX_SCHEDULED_HITS) throw bad('', `at most ${MAX_SCHEDULED_HITS} faults may be scheduled`);
    const parsed = list.map((v, i) => parseFault(v, Array.isArray(body) ? `[${i}].` : ''));
    const pending = this.entries.reduce((n, e) => n + e.remaining, 0) + parsed.reduce((n, p) => n + p.times, 0);
    if (pending > MAX_SCHEDULED_HITS) throw bad(Array.isArray(body) ? '' : 'times', `at most ${MAX_SCHEDULED_HITS} scheduled hits may be pending; this would make ${pending}`);
    const added = parsed.map(({ times, ...p }) => ({ ...p, id: this.nextId++, remaining: times }));
    this.entries.push(...added);
    return added.map(publicOf);
  }

  /** Pending faults, in the order they are consumed. */
  list(): ScheduledFault[] {
    return this.entries.map(publicOf);
  }

  /** Drops every pending fault; returns how many entries there were. */
  clear(): number {
    const n = this.entries.length;
    this.entries = [];
    return n;
  }

  /** Consumes one hit of the first pending fault matching `method` and `url` (its query ignored); undefined when none. */
  take(method: string, url: string): ScheduledFault | undefined {
    if (this.entries.length === 0) return undefined;
    const path = pathOf(url);
    const i = this.entries.findIndex((e) => (e.method === '*' || e.method === method) && e.pattern.test(path));
    if (i < 0) return undefined;
    const e = this.entries[i] as Entry;
    e.remaining--;
    if (e.remaining === 0) this.entries.splice(i, 1);
    return publicOf(e);
  }
}

function publicOf(e: Entry): ScheduledFault {
  const { pattern: _pattern, ...rest } = e;
  return { ...rest };
}

/**
 * Answers `req` with the fault `f`: a status with an error body (and Retry-After), or no answer at all (`close`
 * destroys the connection; `timeout` holds it for `timeoutMs`, then destroys it). `committed` says whether the
 * request's write was already stored. The request is marked with the fault (its journal entry, `--log json` and
 * stderr lines name the schedule entry); `unanswered` records a request that gets no answer, which fastify's
 * onResponse hooks never see.
 */
export async function strike(f: ScheduledFault, req: FastifyRequest, reply: FastifyReply, committed: boolean, unanswered?: (req: FastifyRequest, reply: FastifyReply) => void): Promise<FastifyReply> {
  markFault(req, { by: 'schedule', id: f.id, fault: f.fault, when: committed ? 'after-commit' : 'before' });
  if (f.fault === 'timeout' || f.fault === 'close') {
    if (f.fault === 'timeout' && f.timeoutMs > 0) await new Promise((r) => setTimeout(r, f.timeoutMs).unref());
    reply.hijack();
    req.raw.socket?.destroy();
    unanswered?.(req, reply);
    return reply;
  }
  if (f.retryAfter !== undefined) reply.header('Retry-After', String(f.retryAfter));
  const what = committed ? 'after the request was processed and stored' : 'before anything was processed; retry later';
  return reply.code(f.fault).send(errorBody(f.fault, `Scheduled fault #${f.id} (${f.fault}) ${what}`));
}
