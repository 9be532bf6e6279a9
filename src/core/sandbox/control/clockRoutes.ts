import type { FastifyInstance } from 'fastify';
import type { SandboxDb } from '../db/database';
import { ApiError } from '../ops/common';
import { MAX_CLOCK_OFFSET_MS, type SandboxClock } from './clock';
import { bad } from './input';
import { CONTROL_PREFIX } from './limits';
import { CLOCK_MOVES, clockBody, noQuery, parseControl } from './schemas';

/**
 * `GET`/`POST /__tpp/clock` (docs/testing-your-application.md, Time and tokens; Control API reference): the sandbox's
 * one clock, set to an instant (`at`), to real time plus an offset (`offsetSeconds`), moved (`advanceSeconds`), and
 * frozen or let run (`freeze`), as Stripe's test clocks are. It never goes back past a stored record: a record created
 * "before" the time it was created at would contradict every rule that compares the two (expiry, claim and cancel
 * dates); `POST /__tpp/reset` empties the records and brings the clock back to real time.
 */

/** The tables whose rows carry the time they were created (`created_date`, ISO 8601 as written by the clock). */
const CREATED_TABLES = ['registrations', 'claims', 'cancellations', 'motor_club', 'shops', 'sales', 'transactions'] as const;

/** The newest `created_date` of any stored record (ISO 8601), or undefined when none is stored. */
export async function newestRecordTime(db: SandboxDb): Promise<string | undefined> {
  const parts = CREATED_TABLES.map((t) => `SELECT max(created_date) AS t FROM tpp.${t}`).join(' UNION ALL ');
  const { rows } = await db.query<{ newest: string | null }>(`SELECT max(t) AS newest FROM (${parts}) AS created`, []);
  return rows[0]?.newest ?? undefined;
}

/** What `GET`/`POST /__tpp/clock` answer. */
export interface ClockState {
  /** The sandbox's time, ISO 8601. */
  readonly now: string;
  /** Seconds from real time (a frozen clock's changes as real time passes). */
  readonly offsetSeconds: number;
  readonly frozen: boolean;
}

export function clockState(clock: SandboxClock): ClockState {
  return { now: new Date(clock.now()).toISOString(), offsetSeconds: clock.offsetMs / 1000, frozen: clock.frozen };
}

type Move = (typeof CLOCK_MOVES)[number];

/** Milliseconds since epoch a JavaScript date can hold (±100,000,000 days). */
const MAX_DATE_MS = 8.64e15;

/** An instant as a message names it: its ISO 8601 time, or how far it is when no date can hold it. */
function describeInstant(ms: number, realNow: number): string {
  if (Number.isNaN(ms)) return 'at no valid instant';
  if (Math.abs(ms) <= MAX_DATE_MS) return `at ${new Date(ms).toISOString()}`;
  return `${ms < realNow ? 'back' : 'ahead'} by more than any date can hold`;
}

/**
 * The instant a move asks for, in ms since epoch, checked against ±10 years of real time, whatever number it is given
 * (1e20 seconds, 1e308: never a 500). @throws ApiError 400 naming the move.
 */
function targetOf(clock: SandboxClock, name: Move, value: string | number): number {
  const realNow = clock.now() - clock.offsetMs;
  const target = name === 'at' ? Date.parse(value as string) : name === 'offsetSeconds' ? realNow + (value as number) * 1000 : clock.now() + (value as number) * 1000;
  if (!Number.isFinite(target) || Math.abs(target - realNow) > MAX_CLOCK_OFFSET_MS) {
    throw bad(name, `would put the clock ${describeInstant(target, realNow)}: it must stay within ±10 years (±${MAX_CLOCK_OFFSET_MS / 1000} seconds) of real time`);
  }
  return target;
}

/**
 * Refuses a move to before the newest stored record's creation.
 * @throws ApiError 409 `conflict` naming the move's field and that record's time (also as `newestRecord`).
 */
async function refuseBeforeRecords(db: SandboxDb, clock: SandboxClock, name: Move, target: number): Promise<void> {
  if (target >= clock.now()) return;
  const newest = await newestRecordTime(db);
  if (newest === undefined || target >= Date.parse(newest)) return;
  const message = `would put the clock at ${new Date(target).toISOString()}, before the newest stored record (created ${newest}); POST ${CONTROL_PREFIX}/reset empties the records and brings the clock back to real time`;
  throw new ApiError(409, 'conflict', `${name}: ${message}`, [{ path: name, message }], { newestRecord: newest });
}

/**
 * Moves the clock as asked, not to the instant computed before the database read: an advance moves by exactly its
 * seconds. With `freeze` the clock is frozen first, so that `{"at", "freeze": true}` holds exactly that instant.
 * @throws ApiError 400 naming the move when real time passed the ±10 years meanwhile (nothing changed then).
 */
function applyMove(clock: SandboxClock, name: Move, value: string | number, freeze: boolean): void {
  const wasFrozen = clock.frozen;
  if (freeze) clock.freeze(true);
  try {
    if (name === 'at') clock.setTime(Date.parse(value as string));
    else if (name === 'offsetSeconds') clock.setOffset((value as number) * 1000);
    else clock.advance((value as number) * 1000);
  } catch (err) {
    if (!wasFrozen) clock.freeze(false);
    throw bad(name, (err as Error).message);
  }
}

/** Installs `GET` and `POST /__tpp/clock` on `scope`. */
export function installClock(scope: FastifyInstance, deps: { readonly clock: SandboxClock; readonly context: { readonly db: SandboxDb } }): void {
  const { clock } = deps;
  scope.get(`${CONTROL_PREFIX}/clock`, async (req) => (parseControl(noQuery, req.query, 'query.'), clockState(clock)));
  scope.post(`${CONTROL_PREFIX}/clock`, async (req) => {
    parseControl(noQuery, req.query, 'query.');
    const body = parseControl(clockBody, req.body);
    const moves = CLOCK_MOVES.filter((k) => body[k] !== undefined);
    if (moves.length > 1) throw bad(moves[1] as string, `give at most one of at, offsetSeconds and advanceSeconds (here also ${moves[0]})`);
    const name = moves[0];
    if (name === undefined && body.freeze === undefined) throw bad('at', 'give at (an instant), offsetSeconds (from real time; 0 goes back), advanceSeconds (from where the clock is) or freeze (true or false)');
    if (name !== undefined) {
      const value = body[name] as string | number;
      await refuseBeforeRecords(deps.context.db, clock, name, targetOf(clock, name, value));
      applyMove(clock, name, value, body.freeze === true);
    }
    if (body.freeze !== undefined) clock.freeze(body.freeze);
    return clockState(clock);
  });
}
