// node:crypto is loaded on the first $guid: loading it costs ~5 ms, and `tpp validate` only checks variables.
const randomUUID = (): string => (require('node:crypto') as typeof import('node:crypto')).randomUUID();

/**
 * Dynamic values, named and behaving as in REST Client so its users need nothing new:
 * `{{$guid}}`, `{{$timestamp}}`, `{{$datetime iso8601|rfc1123 [offset unit]}}`, `{{$randomInt min max}}`, plus
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
const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const UNIT_NAMES = 'y, M, w, d, h, m, s or ms';

const int = (s: string | undefined): number | undefined => (s !== undefined && INT_RE.test(s) ? Number(s) : undefined);

/** Checks an optional `offset unit` pair (REST Client: `{{$timestamp -1 d}}`). */
function checkOffset(args: readonly string[], what: string): string | undefined {
  if (args.length === 0) return undefined;
  if (args.length !== 2) return `${what}: an offset is two arguments, a whole number and a unit (${UNIT_NAMES}), e.g. -1 d`;
  const n = int(args[0]);
  if (n === undefined) return `${what}: offset '${args[0]}' is not a whole number`;
  if (Math.abs(n) > MAX_MAGNITUDE) return `${what}: offset ${args[0]} is too large (at most ${MAX_MAGNITUDE} in absolute value)`;
  if (args[1] !== 'y' && args[1] !== 'M' && UNITS[args[1]!] === undefined) return `${what}: unknown unit '${args[1]}' (use ${UNIT_NAMES})`;
  return undefined;
}

/** `now` moved by an already checked offset; throws RangeError outside the years 1..9999. */
function shifted(now: Date, args: readonly string[]): Date {
  if (args.length === 0) return now;
  const n = Number(args[0]);
  const unit = args[1]!;
  const d = new Date(now.getTime());
  if (unit === 'y') d.setUTCFullYear(d.getUTCFullYear() + n);
  else if (unit === 'M') d.setUTCMonth(d.getUTCMonth() + n);
  else d.setTime(d.getTime() + n * UNITS[unit]!);
  const y = d.getUTCFullYear();
  if (!Number.isFinite(d.getTime()) || y < 1 || y > 9999) throw new RangeError(`the offset ${args.join(' ')} leaves the years 1 to 9999`);
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
    generate: (args, ctx) => Math.floor(shifted(ctx.now, args).getTime() / 1000),
  },
  {
    name: '$datetime',
    arguments: 'iso8601|rfc1123 [offset unit]',
    description: 'The current date and time in UTC as ISO 8601 (2025-04-02T15:05:00.000Z) or RFC 1123 (Wed, 02 Apr 2025 15:05:00 GMT), optionally moved by an offset: {{$datetime iso8601 1 d}}.',
    type: 'string',
    snippet: ' ${1|iso8601,rfc1123|}',
    check: (args) => {
      if (args[0] !== 'iso8601' && args[0] !== 'rfc1123') return `$datetime needs a format, iso8601 or rfc1123${args[0] ? ` (got '${args[0]}')` : ''}`;
      return checkShift(args.slice(1), '$datetime');
    },
    generate: (args, ctx) => {
      const d = shifted(ctx.now, args.slice(1));
      return args[0] === 'rfc1123' ? d.toUTCString() : d.toISOString();
    },
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
    generate: (args, ctx) => isoDay(new Date(ctx.now.getTime() + Number(args[0] ?? 0) * UNITS.d!)),
  },
];

const BY_NAME = new Map(KNOWN_DYNAMIC_VARIABLES.map((d) => [d.name, d]));

/** The dynamic value called `name` (`$guid`), if there is one. */
export function dynamicVariable(name: string): DynamicVariable | undefined {
  return BY_NAME.get(name);
}
