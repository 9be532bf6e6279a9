import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../replies';
import { markFault } from '../requestLogHooks';
import type { InjectedFault } from '../../requestLog/requestLog';
import { bad, fieldPath, fieldText, pathOf, pathPattern } from './input';
import { faultBody, parseControl } from './schemas';
import { FaultKind, MALFORMED_KINDS, MAX_SCHEDULED_HITS } from './limits';
import { seededRandom } from '../realism';

export { FAULT_KINDS, MAX_SCHEDULED_HITS, MAX_TIMEOUT_MS } from './limits';
export type { FaultKind } from './limits';

/**
 * Scheduled faults of the control API (docs/testing-your-application.md, Faults; spec: Errors — 429 with
 * Retry-After, 500, 502, 503, 504): for partner requests matching a method, a path pattern, a partner and body
 * fields, answer with a fault (or late, or garbled) the next N times, or with a probability, in the order the faults
 * were scheduled. Unlike `--fault-rate`, deterministic: `take` runs synchronously on the event loop, so N matching
 * requests get the fault however many clients send at once, and a seeded probability draws the same hits.
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
  /** Only this partner's requests (Partner ID). */
  readonly partner?: string;
  /** Only requests whose JSON body has these values at these field paths (`a.b.0.c`). */
  readonly body?: Readonly<Record<string, unknown>>;
  /** Absent: a `delayMs` alone (slow, then the real answer). */
  readonly fault?: FaultKind;
  /** Milliseconds the answer is held back first. */
  readonly delayMs?: number;
  readonly when: FaultWhen;
  /** Hits still to answer; null: until cleared (a `probability` without `times`). */
  remaining: number | null;
  /** The chance that a matching request is hit (absent: every one). */
  readonly probability?: number;
  /** Seed of the draws of `probability`: the same seed, the same hits for the same requests. */
  readonly seed?: number;
  /** Retry-After seconds (always sent with 429; with another status only when given). */
  readonly retryAfter?: number;
  /** Milliseconds a `timeout` holds the request before closing the connection. */
  readonly timeoutMs: number;
}

interface Entry extends ScheduledFault {
  readonly pattern: RegExp;
  readonly draw?: () => number;
  readonly matches: readonly (readonly [string[], string])[];
}

/** The request a schedule is asked about; `body` absent: not read yet (the gate runs before the body is read). */
export interface FaultCandidate {
  readonly method: string;
  readonly url: string;
  readonly partner?: string;
  readonly body?: unknown;
}

/** Answer of {@link FaultSchedule.take} when the first candidate entry needs the body, which is not read yet. */
export const AFTER_BODY = 'after-body' as const;

/** Parses one fault of a POST body (an object, or an element of an array at `at`). @throws ApiError 400 naming the field. */
function parseFault(value: unknown, at: string): Omit<Entry, 'id' | 'remaining'> & { times: number | null } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad(at.replace(/\.$/, ''), 'must be a fault object');
  const o = parseControl(faultBody, value, at);
  if (o.fault === undefined && o.delayMs === undefined) throw bad(`${at}fault`, 'give a fault, a delayMs, or both');
  const fault = o.fault as FaultKind | undefined;
  if (fault !== undefined && MALFORMED_KINDS.includes(String(fault)) && o.when === 'before') throw bad(`${at}when`, `a ${fault} answer garbles the real answer: the request is processed first (after-commit)`);
  if (o.seed !== undefined && o.probability === undefined) throw bad(`${at}seed`, 'seeds the draws of probability: give probability too');
  const when = fault !== undefined && MALFORMED_KINDS.includes(String(fault)) ? 'after-commit' : (o.when ?? 'before');
  const draw = o.probability === undefined ? undefined : o.seed === undefined ? Math.random : seededRandom(o.seed);
  const matches = Object.entries(o.body ?? {}).map(([k, v]) => [fieldPath(k), JSON.stringify(v)] as const);
  return {
    method: o.method ?? '*', path: o.path, pattern: pathPattern(o.path, `${at}path`), ...(o.partner !== undefined ? { partner: o.partner } : {}), ...(o.body ? { body: o.body } : {}),
    ...(fault !== undefined ? { fault } : {}), ...(o.delayMs !== undefined ? { delayMs: o.delayMs } : {}), when, times: o.times ?? (o.probability === undefined ? 1 : null),
    ...(o.probability !== undefined ? { probability: o.probability } : {}), ...(o.seed !== undefined ? { seed: o.seed } : {}),
    retryAfter: o.retryAfter ?? (fault === 429 ? 1 : undefined), timeoutMs: o.timeoutMs ?? 30_000, draw, matches,
  };
}

/** The schedule of one sandbox. */
export class FaultSchedule {
  private entries: Entry[] = [];
  private nextId = 1;
  private bodyMatchers = 0;

  /**
   * Appends the faults of a POST body: one fault object, or an array of them. Nothing is added when one is invalid.
   * @throws ApiError 400 naming the field, or the limit of {@link MAX_SCHEDULED_HITS} pending hits (an entry without
   * `times` counts as one).
   */
  add(body: unknown): ScheduledFault[] {
    const list = Array.isArray(body) ? body : [body];
    if (list.length === 0) throw bad('', 'give a fault object or a non-empty array of them');
    if (list.length > MAX_SCHEDULED_HITS) throw bad('', `at most ${MAX_SCHEDULED_HITS} faults may be scheduled`);
    const parsed = list.map((v, i) => parseFault(v, Array.isArray(body) ? `[${i}].` : ''));
    const pending = this.entries.reduce((n, e) => n + (e.remaining ?? 1), 0) + parsed.reduce((n, p) => n + (p.times ?? 1), 0);
    if (pending > MAX_SCHEDULED_HITS) throw bad(Array.isArray(body) ? '' : 'times', `at most ${MAX_SCHEDULED_HITS} scheduled hits may be pending; this would make ${pending}`);
    const added = parsed.map(({ times, ...p }) => ({ ...p, id: this.nextId++, remaining: times }));
    this.entries.push(...added);
    this.bodyMatchers += added.filter((e) => e.matches.length > 0).length;
    return added.map(publicOf);
  }

  /** Drops every pending fault and numbers the next one 1 again, as after the start (`POST /__tpp/reset`). */
  reset(): void {
    this.clear();
    this.nextId = 1;
  }

  /** Pending faults, in the order they are consumed. */
  list(): ScheduledFault[] {
    return this.entries.map(publicOf);
  }

  /** Drops every pending fault; returns how many entries there were. */
  clear(): number {
    const n = this.entries.length;
    this.entries = [];
    this.bodyMatchers = 0;
    return n;
  }

  /**
   * Consumes one hit of the first pending fault matching the request (method, path without its query, partner, body
   * fields; then its probability's draw); undefined when none. {@link AFTER_BODY} when the body is not read yet and
   * an entry that matches so far needs it: ask again once it is.
   */
  take(r: FaultCandidate): ScheduledFault | typeof AFTER_BODY | undefined {
    if (this.entries.length === 0) return undefined;
    const path = pathOf(r.url);
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i] as Entry;
      if ((e.method !== '*' && e.method !== r.method) || (e.partner !== undefined && e.partner !== r.partner) || !e.pattern.test(path)) continue;
      if (e.matches.length > 0 && !('body' in r)) return AFTER_BODY;
      if (e.matches.some(([field, value]) => fieldText(r.body, field) !== value)) continue;
      if (e.draw && e.draw() >= (e.probability as number)) continue;
      if (e.remaining !== null && --e.remaining === 0) {
        this.entries.splice(i, 1);
        if (e.matches.length > 0) this.bodyMatchers--;
      }
      return publicOf(e);
    }
    return undefined;
  }
}

function publicOf(e: Entry): ScheduledFault {
  const { pattern: _pattern, draw: _draw, matches: _matches, ...rest } = e;
  return { ...rest };
}

/** What {@link strike} needs of its sandbox: its waits, and how a request left without an answer is recorded. */
export interface StrikeHooks {
  readonly sleep: (ms: number) => Promise<void>;
  readonly unanswered?: (req: FastifyRequest, reply: FastifyReply) => void;
}

/**
 * Waits `ms` milliseconds (through `sleep`, the sandbox's waits), or less when the client closes the connection first
 * (its own timeout: it gave up on the answer). Resolves to true when the client is gone.
 */
function holdUnlessGone(ms: number, reply: FastifyReply, sleep: StrikeHooks['sleep']): Promise<boolean> {
  const res = reply.raw;
  if (res.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    let settled = false;
    const gone = () => {
      if (settled) return;
      settled = true;
      resolve(true);
    };
    res.once('close', gone);
    void sleep(ms).then(() => {
      if (settled) return;
      settled = true;
      res.removeListener('close', gone);
      resolve(false);
    });
  });
}

/**
 * Answers `req` with the fault `f`: a status with an error body (and Retry-After), or no answer at all (`close`
 * destroys the connection; `timeout` holds it for `timeoutMs`, then destroys it), after `delayMs` when given.
 * `committed` says whether the request's write was already stored. The request is marked with the fault (its journal
 * entry, `--log json` and stderr lines name the schedule entry); `hooks.unanswered` records a request that gets no answer,
 * which fastify's onResponse hooks never see. A `delayMs` without a fault only waits: undefined, the real answer follows.
 * A client that closes the connection while the request is held (its own timeout) ends it there: the request is
 * recorded at once, with no answer (status 0), and nothing more is processed.
 */
export async function strike(f: ScheduledFault, req: FastifyRequest, reply: FastifyReply, committed: boolean, hooks: StrikeHooks): Promise<FastifyReply | undefined> {
  const fault: InjectedFault = { by: 'schedule', id: f.id, fault: f.fault ?? 'delay', when: committed ? 'after-commit' : 'before', ...(f.delayMs ? { delayMs: f.delayMs } : {}) };
  markFault(req, fault);
  const clientGone = (): FastifyReply => {
    markFault(req, { ...fault, clientClosed: true });
    reply.hijack();
    hooks.unanswered?.(req, reply);
    return reply;
  };
  if (f.delayMs && (await holdUnlessGone(f.delayMs, reply, hooks.sleep))) return clientGone();
  if (f.fault === undefined) return undefined;
  if (f.fault === 'timeout' || f.fault === 'close') {
    if (f.fault === 'timeout' && f.timeoutMs > 0 && (await holdUnlessGone(f.timeoutMs, reply, hooks.sleep))) return clientGone();
    reply.hijack();
    req.raw.socket?.destroy();
    hooks.unanswered?.(req, reply);
    return reply;
  }
  if (typeof f.fault !== 'number') return undefined;
  if (f.retryAfter !== undefined) reply.header('Retry-After', String(f.retryAfter));
  const what = committed ? 'after the request was processed and stored' : 'before anything was processed; retry later';
  return reply.code(f.fault).send(errorBody(f.fault, `Scheduled fault #${f.id} (${f.fault}) ${what}`));
}

/** The real answer `text` (JSON) garbled as the malformed fault `f` says: cut in the middle, or typed text/html. */
export function garble(f: ScheduledFault, reply: FastifyReply, status: number, text: string): FastifyReply {
  if (f.fault === 'wrong-content-type') return reply.code(status).type('text/html; charset=utf-8').send(text);
  return reply.code(status).type('application/json; charset=utf-8').send(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
}
