/**
 * The one source of exchange and history ids: time-ordered and unique within a process (and, with the process
 * suffix the Local sandbox adds, across the sandbox's child and the editor).
 */

/** Ids per millisecond before the counter wraps (36^4: four base-36 digits). */
const COUNTER_SPAN = 1_679_616;
let counter = 0;

/** The next value of the process's id counter, 0 to 1,679,615 (wraps). */
export function nextIdCount(): number {
  counter = (counter + 1) % COUNTER_SPAN;
  return counter;
}

/**
 * An id from its parts: milliseconds since the epoch in base 36, the counter in four base-36 digits, then
 * `suffix` when given, e.g. `lz4k2m1-0007` or `lz4k2m1-0007-1a2b`.
 */
export function formatId(ms: number, count: number, suffix?: string): string {
  return `${ms.toString(36)}-${count.toString(36).padStart(4, '0')}${suffix ? `-${suffix}` : ''}`;
}

/** A fresh time-ordered id, e.g. `lz4k2m1-0007`. `now` in milliseconds since the epoch. */
export function newExchangeId(now: number = Date.now()): string {
  return formatId(now, nextIdCount());
}
