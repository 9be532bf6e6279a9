/**
 * The `?? …` assertion lines of a flow file (docs/flows.md, Assertions; the form is httpyac's):
 * `?? status == 201`, `?? header content-type includes json`, `?? body $.claims length == 1`,
 * `?? body $.status == "Cancelled"` (or httpyac's `?? body status == "Cancelled"`), `?? duration < 500`, `?? contract`.
 * `?? js` (JavaScript) is refused. Parsing only: evaluation is assert.ts.
 */
import { SCRIPTS_NOT_RUN } from './directives';
import type { FlowAssertion } from './types';

/** The operators of an assertion, longest first so `<=` is not read as `<`. */
export const ASSERTION_OPERATORS = ['==', '!=', '<=', '>=', '<', '>', 'exists', 'includes', 'matches'] as const;

const WORD_OPERATORS = new Set<string>(['exists', 'includes', 'matches']);
/** Operators that compare numbers: their expected value must be a number for `status` and `duration`. */
const ORDER_OPERATORS = new Set<string>(['<', '<=', '>', '>=']);

/** The result of reading one assertion line: the assertion, or why it cannot be read and the column of the fault. */
export type AssertionParse = { readonly assertion: FlowAssertion } | { readonly problem: string; readonly column: number; readonly code?: string };

/** httpyac's operators that tpp does not have (its `==` and the others are the same). */
const HTTPYAC_OPERATORS = new Set(['===', '!==', 'equals', 'contains', 'startsWith', 'endsWith', 'isTrue', 'isFalse', 'isArray', 'isBoolean', 'isNumber', 'isString', 'md5', 'sha256', 'sha512', 'not']);
/** httpyac's `?? body <property>`: a JavaScript property path of the answer, `id`, `items[0].name`, `claims.length`. */
const PROPERTY_PATH_RE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/;

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
    const token = line.slice(at, pathToken(line, at));
    let length = false;
    if (line[at] === '$') {
      path = token;
      at += token.length;
    } else if (PROPERTY_PATH_RE.test(token) && !HTTPYAC_OPERATORS.has(token) && !/^(exists|includes|matches|length)$/.test(token)) {
      // httpyac's form: `?? body id` reads (parsedBody).id; a path ending in .length is that length.
      length = /\.length$/.test(token);
      path = `$${token.startsWith('[') ? '' : '.'}${length ? token.slice(0, -'.length'.length) : token}`;
      at += token.length;
    } else if (at < line.length && !/^(==|!=|<|>|exists|includes|matches|length)/.test(token) && !HTTPYAC_OPERATORS.has(token)) {
      return bad(`'?? body' takes a JSONPath starting with $ (e.g. $.claims) or a property path (claims[0].id), not '${token}'.`);
    }
    const after = skipSpace(line, at);
    if (!length && /^length(?=\s|$)/.test(line.slice(after))) {
      length = true;
      at = after + 'length'.length;
    }
    subject = length ? { kind: 'body', path, length: true } : { kind: 'body', path };
  } else if (word === 'js') {
    return { problem: `?? js runs JavaScript (httpyac): ${SCRIPTS_NOT_RUN}.`, column: subjectAt + 1, code: 'flow-unsupported' };
  } else if (word === 'xpath') {
    return { problem: '?? xpath reads an XML answer (httpyac): tpp reads JSON answers; use ?? body <JSONPath>, ?? header or ?? status.', column: subjectAt + 1, code: 'flow-unsupported' };
  } else {
    return bad(word ? `Unknown assertion subject '${word}' (use status, header <name>, body <jsonpath>, duration or contract).` : `An assertion needs a subject: ?? status == 201, ?? body $.id exists, ?? contract…`, subjectAt);
  }
  at = skipSpace(line, at);
  if (at >= line.length) return { assertion: { line: lineNo, column, text, subject } };
  const opText = /^\S+/.exec(line.slice(at))?.[0] ?? '';
  const operator = ASSERTION_OPERATORS.find((o) => (WORD_OPERATORS.has(o) ? opText === o : opText.startsWith(o) && (opText === o || !/[=<>!]/.test(opText[o.length] ?? ''))));
  if (!operator) return bad(`${HTTPYAC_OPERATORS.has(opText) ? `The operator '${opText}' is httpyac's and not tpp's` : `Unknown assertion operator '${opText}'`} (use == != < <= > >= exists includes matches).`);
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
