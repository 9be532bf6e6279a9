/**
 * The `?? …` assertion lines of a flow file (docs/flows.md, Assertions; the form is httpyac's):
 * `?? status == 201`, `?? header content-type includes json`, `?? body $.claims length == 1`,
 * `?? body $.status == "Cancelled"`, `?? duration < 500`, `?? contract`. Parsing only: evaluation is assert.ts.
 */
import type { FlowAssertion } from './types';

/** The operators of an assertion, longest first so `<=` is not read as `<`. */
export const ASSERTION_OPERATORS = ['==', '!=', '<=', '>=', '<', '>', 'exists', 'includes', 'matches'] as const;

const WORD_OPERATORS = new Set<string>(['exists', 'includes', 'matches']);
/** Operators that compare numbers: their expected value must be a number for `status` and `duration`. */
const ORDER_OPERATORS = new Set<string>(['<', '<=', '>', '>=']);

/** The result of reading one assertion line: the assertion, or why it cannot be read and the column of the fault. */
export type AssertionParse = { readonly assertion: FlowAssertion } | { readonly problem: string; readonly column: number };

/** Reads one token from `at`: up to whitespace outside brackets and quotes (a JSONPath filter may hold spaces). */
function pathToken(s: string, at: number): number {
  let depth = 0;
  let quote = '';
  let i = at;
  for (; i < s.length; i++) {
    const c = s[i] as string;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /\s/.test(c)) break;
  }
  return i;
}

const skipSpace = (s: string, at: number): number => {
  while (at < s.length && /\s/.test(s[at] as string)) at++;
  return at;
};

/** A regular expression as an assertion writes it: `/re/flags`, or the bare text. Throws SyntaxError when invalid. */
export function assertionRegex(expected: string): RegExp {
  const m = /^\/(.*)\/([dgimsuy]*)$/s.exec(expected);
  return m ? new RegExp(m[1] as string, (m[2] as string).replace('g', '')) : new RegExp(expected);
}

/**
 * Parses the text of an assertion line.
 * @param line the whole line as written (leading spaces allowed), starting with `??`.
 * @param lineNo its 1-based line number.
 * @returns the assertion (positions 1-based), or a problem sentence with the 1-based column it points at.
 */
export function parseAssertion(line: string, lineNo: number): AssertionParse {
  const start = line.indexOf('??');
  const column = start + 1;
  const text = line.slice(start + 2).trim();
  let at = skipSpace(line, start + 2);
  const bad = (problem: string, pos = at): AssertionParse => ({ problem, column: pos + 1 });
  const word = /^[A-Za-z]+/.exec(line.slice(at))?.[0] ?? '';
  const subjectAt = at;
  at += word.length;
  let subject: FlowAssertion['subject'];
  if (word === 'status' || word === 'duration') subject = { kind: word };
  else if (word === 'contract') {
    if (line.slice(at).trim() !== '') return bad(`'?? contract' takes nothing after it (it checks the status and body against the contract).`, skipSpace(line, at));
    return { assertion: { line: lineNo, column, text, subject: { kind: 'contract' } } };
  } else if (word === 'header') {
    at = skipSpace(line, at);
    const name = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/.exec(line.slice(at))?.[0];
    if (!name) return bad(`'?? header' needs a header name, e.g. ?? header content-type includes json.`);
    at += name.length;
    subject = { kind: 'header', name: name.toLowerCase() };
  } else if (word === 'body') {
    at = skipSpace(line, at);
    let path = '$';
    if (line[at] === '$') {
      const end = pathToken(line, at);
      path = line.slice(at, end);
      at = end;
    } else if (at < line.length && !/^(==|!=|<|>|exists|includes|matches|length)/.test(line.slice(at))) {
      return bad(`'?? body' takes a JSONPath starting with $ (e.g. $.claims), not '${line.slice(at, pathToken(line, at))}'.`);
    }
    const after = skipSpace(line, at);
    const length = /^length(?=\s|$)/.test(line.slice(after));
    if (length) at = after + 'length'.length;
    subject = length ? { kind: 'body', path, length: true } : { kind: 'body', path };
  } else {
    return bad(word ? `Unknown assertion subject '${word}' (use status, header <name>, body <jsonpath>, duration or contract).` : `An assertion needs a subject: ?? status == 201, ?? body $.id exists, ?? contract…`, subjectAt);
  }
  at = skipSpace(line, at);
  if (at >= line.length) return { assertion: { line: lineNo, column, text, subject } };
  const opText = /^\S+/.exec(line.slice(at))?.[0] ?? '';
  const operator = ASSERTION_OPERATORS.find((o) => (WORD_OPERATORS.has(o) ? opText === o : opText.startsWith(o) && (opText === o || !/[=<>!]/.test(opText[o.length] ?? ''))));
  if (!operator) return bad(`Unknown assertion operator '${opText}' (use == != < <= > >= exists includes matches).`);
  const opAt = at;
  at = skipSpace(line, at + operator.length);
  const expected = line.slice(at).trim();
  const expectedColumn = at + 1;
  if (operator === 'exists') {
    if (expected !== '') return bad(`'exists' takes no value after it.`);
    return { assertion: { line: lineNo, column, text, subject, operator } };
  }
  if (expected === '') return bad(`'${operator}' needs a value after it, e.g. ?? status ${operator} 201.`, opAt + operator.length);
  const numeric = subject.kind === 'status' || subject.kind === 'duration' || ('length' in subject && subject.length === true);
  if (numeric && ORDER_OPERATORS.has(operator) && !expected.includes('{{') && !Number.isFinite(Number(expected))) {
    return bad(`'${operator}' compares numbers: '${expected}' is not a number.`, at);
  }
  if (operator === 'matches' && !expected.includes('{{')) {
    try {
      assertionRegex(expected);
    } catch (err) {
      return bad(`'matches' needs a regular expression: ${(err as Error).message}.`, at);
    }
  }
  return { assertion: { line: lineNo, column, text, subject, operator, expected, expectedColumn } };
}

/** The subject as written: `status`, `header content-type`, `body $.claims length`. */
export function subjectText(s: FlowAssertion['subject']): string {
  return s.kind === 'header' ? `header ${s.name}` : s.kind === 'body' ? `body ${s.path}${s.length ? ' length' : ''}` : s.kind;
}

/** The assertion line as `printFlow` writes it (`?? body $.claims length == 1`). */
export function printAssertion(a: FlowAssertion): string {
  const subject = subjectText(a.subject);
  if (!a.operator) return `?? ${subject}`;
  return a.expected === undefined ? `?? ${subject} ${a.operator}` : `?? ${subject} ${a.operator} ${a.expected}`;
}
