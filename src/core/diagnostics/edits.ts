import type { TextEdit } from './types';

/**
 * Text helpers of the diagnostics engine: the words of JSON syntax errors and the edits of its quick fixes
 * (inserting properties with the document's indentation, formatting money).
 */

/** jsonc-parser error names in words. */
export const SYNTAX_MESSAGES: Readonly<Record<string, string>> = {
  InvalidSymbol: 'invalid symbol',
  InvalidNumberFormat: 'invalid number format',
  PropertyNameExpected: 'property name expected',
  ValueExpected: 'value expected',
  ColonExpected: 'colon expected',
  CommaExpected: 'comma expected',
  CloseBraceExpected: 'closing brace } expected',
  CloseBracketExpected: 'closing bracket ] expected',
  EndOfFileExpected: 'end of file expected',
  InvalidCommentToken: 'comments are not permitted in JSON',
  UnexpectedEndOfComment: 'unexpected end of comment',
  UnexpectedEndOfString: 'unexpected end of string',
  UnexpectedEndOfNumber: 'unexpected end of number',
  InvalidUnicode: 'invalid unicode sequence in string',
  InvalidEscapeCharacter: 'invalid escape character in string',
  InvalidCharacter: 'invalid character in string',
};

/** Leading whitespace of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  let s = offset;
  while (s > 0 && text.charCodeAt(s - 1) !== 10 && text.charCodeAt(s - 1) !== 13) s--;
  let e = s;
  while (e < text.length && (text[e] === ' ' || text[e] === '\t')) e++;
  return text.slice(s, e);
}

/** The document's indentation unit (first indented line within the first 4 KB), default two spaces. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text.slice(0, 4096));
  return m?.[1] ?? '  ';
}

/** The line ending of `text`: '\r\n' when it has one, else '\n'. */
export const lineEnding = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

/**
 * Edit inserting `entries` as properties into the object spanning [start, end) of `text` (end is just
 * after its '}'), before the closing brace, on lines of their own with the document's indentation unit and
 * line ending (`unit` and `eol`, found in `text` when not given: a caller making many edits of one text passes them).
 */
export function insertPropertiesEdit(text: string, start: number, end: number, entries: readonly (readonly [string, unknown])[], eol = lineEnding(text), unit = indentUnit(text)): TextEdit {
  const close = end - 1;
  let j = close - 1;
  while (j > start && /\s/.test(text[j]!)) j--;
  const outer = lineIndent(text, start);
  const inner = outer + unit;
  const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${JSON.stringify(v, null, unit)?.replace(/\n/g, eol + inner) ?? 'null'}`);
  if (j === start) return { offset: start + 1, length: close - start - 1, newText: `${eol}${lines.join(',' + eol)}${eol}${outer}` };
  return { offset: j + 1, length: 0, newText: `,${eol}${lines.join(',' + eol)}` };
}

/**
 * Money with 2 decimals (spec: Data type formats (v2)) from a sloppy value: 12.555, "$12.5", "12,5",
 * "1,234.5", " 12.5 ". A string stays a string ("12.50"), a number a number (12.50). Undefined if not numeric.
 */
export function formatMoney(value: unknown): string | undefined {
  let n = NaN;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    let s = value.trim().replace(/^(\$|USD\s*)/i, '').trim();
    if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, '');
    else if (/^-?\d+,\d{1,2}$/.test(s)) s = s.replace(',', '.');
    if (/^-?(\d+\.?\d*|\.\d+)$/.test(s)) n = Number(s);
  }
  if (!Number.isFinite(n)) return undefined;
  const fixed = n.toFixed(2);
  return typeof value === 'string' ? JSON.stringify(fixed) : fixed;
}
