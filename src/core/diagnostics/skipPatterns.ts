/** The sticky patterns with which the strict locator (locate.ts) crosses values it does not need to read. */

/**
 * A container without containers inside (a record of scalars, a list of strings): an opening bracket, then
 * runs of characters other than brackets, braces and quotes between whole strings, then a closing one. The
 * loop is unrolled (a run, then string + run, ...), so each character has one way to match and a failure (a
 * container inside) costs one pass over what was read; a run is crossed as one step, not one loop iteration
 * per character (twice as fast as an alternation per character). At most 4096 strings: a longer container (a
 * huge flat list) is hopped over instead, so a failure never costs more than that, nor runs the expression out
 * of backtracking stack.
 */
export const FLAT = /[{[][^{}[\]"]*(?:"[^"\\]*(?:\\.[^"\\]*)*"[^{}[\]"]*){0,4096}[}\]]/y;

/** An array item the chunks cross: a {@link FLAT} container, a string, or another scalar (number, true, false, null). */
export const ITEM = new RegExp(`(?:${FLAT.source}|"[^"\\\\]*(?:\\\\.[^"\\\\]*)*"|[^"{}[\\],\\s]+)`);
/** The comma after an item, with white space around it. */
export const SEPARATOR = /[ \t\n\r]*,[ \t\n\r]*/;
/** Sticky patterns crossing 1, 2, 4, ... 256 items at once, made on first use. */
export const CHUNKS: (RegExp | undefined)[] = new Array(9);
