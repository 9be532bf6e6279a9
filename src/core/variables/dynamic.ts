import type { Dayjs } from 'dayjs';
import type utcPlugin from 'dayjs/plugin/utc';

// node:crypto is loaded on the first $guid: loading it costs ~5 ms, and `tpp validate` only checks variables.
const randomUUID = (): string => (require('node:crypto') as typeof import('node:crypto')).randomUUID();

let dayjsLoaded: typeof import('dayjs') | undefined;
/**
 * dayjs with its utc plugin and nothing else, loaded on the first date value: REST Client and httpyac format dates
 * with exactly that, so a format token either tool leaves as it is (`Do`, `X`) is left so here too.
 */
function dayjs(): typeof import('dayjs') {
  if (!dayjsLoaded) {
    dayjsLoaded = require('dayjs') as typeof import('dayjs');
    dayjsLoaded.extend(require('dayjs/plugin/utc') as typeof utcPlugin);
  }
  return dayjsLoaded;
}

/**
 * Dynamic values, named and behaving as in REST Client (and httpyac, which copies them) so its users need nothing new:
 * `{{$guid}}`, `{{$timestamp [offset unit]}}`, `{{$datetime iso8601|rfc1123|'format' [offset unit]}}`,
 * `{{$localDatetime iso8601|rfc1123|'format' [offset unit]}}` (dayjs formats and arithmetic, as both tools), `{{$randomInt min max}}`, plus
 * `{{$date [offsetDays]}}`, a date in the spec's format for dates ("Dates are ISO 8601 strings": YYYY-MM-DD, UTC).
 * Each occurrence is generated afresh at send time. Arguments given by the user are checked and bounded: no offset
 * or range can make the work or the result unbounded.
 */

/** What generating a value needs: the clock and a random source (tests pass fixed ones). */
export interface DynamicContext {
  readonly now: Date;
  /** A number in [0, 1). */
  readonly random: () => number;
}

/** The type a dynamic value has when it is the whole string (`"TiresCovered": "{{$randomInt 1 5}}"` sends an int). */
export type DynamicType = 'string' | 'integer';

/** A dynamic value, for completion and documentation. */
export interface DynamicVariable {
  /** `$guid`. */
  readonly name: string;
  /** Argument synopsis, e.g. `min max`; '' when it takes none. */
  readonly arguments: string;
  readonly description: string;
  /** Type of the value when the string is only this reference. */
  readonly type: DynamicType;
  /** A snippet of the arguments for completion (`${1:1} ${2:100}`), '' when none. */
  readonly snippet: string;
  /** Undefined when `args` are acceptable, else why not (one sentence). */
  readonly check: (args: readonly string[]) => string | undefined;
  /** The value; only called after `check` passed. */
  readonly generate: (args: readonly string[], ctx: DynamicContext) => string | number;
}

/** Largest absolute bound of `$randomInt` and of offsets: beyond it a value is refused, not computed. */
export const MAX_MAGNITUDE = 1_000_000_000_000;
/** Largest `$date` offset in days (about 100 years either way). */
export const MAX_DATE_OFFSET_DAYS = 36_500;

const INT_RE = /^[-+]?\d{1,16}$/;
/** An offset as REST Client's and httpyac's patterns read it (`-?\d+`): they ignore an offset written `+1`. */
const OFFSET_RE = /^-?\d{1,16}$/;
const DAY_MS = 86_400_000;
/** The units of an offset, dayjs's: `Q` is left out, for both tools add a millisecond for it (dayjs without its quarter plugin). */
const UNITS = new Set(['y', 'M', 'w', 'd', 'h', 'm', 's', 'ms']);
const UNIT_NAMES = 'y, M, w, d, h, m, s or ms';

const int = (s: string | undefined): number | undefined => (s !== undefined && INT_RE.test(s) ? Number(s) : undefined);

/** Checks an optional `offset unit` pair (REST Client: `{{$timestamp -1 d}}`). */
function checkOffset(args: readonly string[], what: string): string | undefined {
  if (args.length === 0) return undefined;
  if (args.length !== 2) return `${what}: an offset is two arguments, a whole number and a unit (${UNIT_NAMES}), e.g. -1 d`;
  const n = OFFSET_RE.test(args[0]!) ? Number(args[0]) : undefined;
  if (n === undefined) return `${what}: offset '${args[0]}' is not a whole number${args[0]!.startsWith('+') ? ' (write it without +: REST Client and httpyac ignore an offset written with +)' : ''}`;
  if (Math.abs(n) > MAX_MAGNITUDE) return `${what}: offset ${args[0]} is too large (at most ${MAX_MAGNITUDE} in absolute value)`;
  if (args[1] === 'Q') return `${what}: the unit Q (quarter) is not supported: REST Client and httpyac add a millisecond for it; write 3 M`;
  if (!UNITS.has(args[1]!)) return `${what}: unknown unit '${args[1]}' (use ${UNIT_NAMES})`;
  return undefined;
}

/** `now` (UTC, or local time) moved by an already checked offset with dayjs; throws RangeError outside the years 1..9999. */
function shifted(now: Date, args: readonly string[], local = false): Dayjs {
  const start = dayjs().utc(now);
  const base = local ? start.local() : start;
  const d = args.length === 0 ? base : base.add(Number(args[0]), args[1] as import('dayjs').ManipulateType);
  const y = d.utc().year();
  if (!d.isValid() || y < 1 || y > 9999) throw new RangeError(`the offset ${args.join(' ')} leaves the years 1 to 9999`);
  return d;
}

/** Offset checks that also refuse results outside the years 1..9999 (so a check passing means generate succeeds). */
function checkShift(args: readonly string[], what: string): string | undefined {
  const bad = checkOffset(args, what);
  if (bad) return bad;
  try {
    shifted(new Date(), args);
  } catch (err) {
    return `${what}: ${(err as Error).message}`;
  }
  return undefined;
}

/** The format argument of `$datetime` and `$localDatetime`: rfc1123, iso8601, or a dayjs format in quotes. */
const FORMAT_RE = /^(rfc1123|iso8601|'.+'|".+")$/s;

/** Checks `$datetime` / `$localDatetime` arguments: a format, then an optional offset. */
function checkDatetime(args: readonly string[], what: string): string | undefined {
  if (args[0] === undefined || !FORMAT_RE.test(args[0])) return `${what} needs a format: iso8601, rfc1123 or a dayjs format in quotes such as 'YYYY-MM-DD'${args[0] ? ` (got ${args[0]})` : ''}`;
  return checkShift(args.slice(1), what);
}

/** A date formatted as REST Client and httpyac format it (dayjs; rfc1123 in local time is dayjs's `ddd, DD MMM YYYY HH:mm:ss ZZ`). */
function formatted(d: Dayjs, format: string, local: boolean): string {
  if (format === 'iso8601') return local ? d.format() : d.toISOString();
  if (format === 'rfc1123') return local ? d.locale('en').format('ddd, DD MMM YYYY HH:mm:ss ZZ') : d.toDate().toUTCString();
  return d.format(format.slice(1, -1));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** YYYY-MM-DD of `d` in UTC. */
export function isoDay(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Every dynamic value, in completion order. */
export const KNOWN_DYNAMIC_VARIABLES: readonly DynamicVariable[] = [
  {
    name: '$guid',
    arguments: '',
    description: 'A fresh RFC 4122 version 4 UUID, e.g. 0f8fad5b-d9cb-469f-a165-70867728950e.',
    type: 'string',
    snippet: '',
    check: (args) => (args.length ? '$guid takes no arguments' : undefined),
    generate: () => randomUUID(),
  },
  {
    name: '$timestamp',
    arguments: '[offset unit]',
    description: 'Unix time in seconds (UTC), optionally moved by an offset: {{$timestamp -1 d}} is a day ago.',
    type: 'integer',
    snippet: '',
    check: (args) => checkShift(args, '$timestamp'),
    generate: (args, ctx) => shifted(ctx.now, args).unix(),
  },
  {
    name: '$datetime',
    arguments: "iso8601|rfc1123|'format' [offset unit]",
    description: "The current date and time in UTC as ISO 8601 (2025-04-02T15:05:00.000Z), RFC 1123 (Wed, 02 Apr 2025 15:05:00 GMT) or a dayjs format in quotes ('YYYY-MM-DD'), optionally moved by an offset: {{$datetime iso8601 1 d}}.",
    type: 'string',
    snippet: ' ${1|iso8601,rfc1123,\'YYYY-MM-DD\'|}',
    check: (args) => checkDatetime(args, '$datetime'),
    generate: (args, ctx) => formatted(shifted(ctx.now, args.slice(1)), args[0]!, false),
  },
  {
    name: '$localDatetime',
    arguments: "iso8601|rfc1123|'format' [offset unit]",
    description: "The current date and time in this machine's time zone as ISO 8601 with its offset (2025-04-02T17:05:00+02:00), RFC 1123 (Wed, 02 Apr 2025 17:05:00 +0200) or a dayjs format in quotes, optionally moved by an offset.",
    type: 'string',
    snippet: ' ${1|iso8601,rfc1123,\'YYYY-MM-DD\'|}',
    check: (args) => checkDatetime(args, '$localDatetime'),
    generate: (args, ctx) => formatted(shifted(ctx.now, args.slice(1), true), args[0]!, true),
  },
  {
    name: '$randomInt',
    arguments: 'min max',
    description: 'A random whole number from min (inclusive) to max (exclusive), as in REST Client: {{$randomInt 1 5}} is 1, 2, 3 or 4.',
    type: 'integer',
    snippet: ' ${1:1} ${2:100}',
    check: (args) => {
      if (args.length !== 2) return '$randomInt takes two whole numbers, min (inclusive) and max (exclusive), e.g. {{$randomInt 1 100}}';
      const [min, max] = args.map(int);
      if (min === undefined || max === undefined) return `$randomInt: '${args.find((a) => int(a) === undefined)}' is not a whole number`;
      if (Math.abs(min) > MAX_MAGNITUDE || Math.abs(max) > MAX_MAGNITUDE) return `$randomInt: bounds must be within ±${MAX_MAGNITUDE}`;
      if (max <= min) return `$randomInt: max (${max}) must be greater than min (${min}); max is exclusive`;
      return undefined;
    },
    generate: (args, ctx) => {
      const min = Number(args[0]);
      const max = Number(args[1]);
      return min + Math.floor(ctx.random() * (max - min));
    },
  },
  {
    name: '$date',
    arguments: '[offsetDays]',
    description: "Today's date in UTC as the spec writes dates (ISO 8601, YYYY-MM-DD), optionally moved by whole days: {{$date -7}} is a week ago.",
    type: 'string',
    snippet: '',
    check: (args) => {
      if (args.length > 1) return '$date takes at most one argument, an offset in days, e.g. {{$date -7}}';
      if (args.length === 0) return undefined;
      const n = int(args[0]);
      if (n === undefined) return `$date: offset '${args[0]}' is not a whole number of days`;
      if (Math.abs(n) > MAX_DATE_OFFSET_DAYS) return `$date: offset ${args[0]} days is too large (at most ${MAX_DATE_OFFSET_DAYS} days either way)`;
      return undefined;
    },
    generate: (args, ctx) => isoDay(new Date(ctx.now.getTime() + Number(args[0] ?? 0) * DAY_MS)),
  },
];

const BY_NAME = new Map(KNOWN_DYNAMIC_VARIABLES.map((d) => [d.name, d]));

/** The dynamic value called `name` (`$guid`), if there is one. */
export function dynamicVariable(name: string): DynamicVariable | undefined {
  return BY_NAME.get(name);
}
