/**
 * Evaluation of `??` assertions against an answer (docs/flows.md, Assertions). `?? contract` asks the contract's
 * endpoint table (spec: Endpoints; Errors) through the exchange's contract-drift check (exchange/contractDrift.ts): the status must be one the
 * endpoint's row declares and the body must parse with that status's response schema. Nothing from the file runs
 * as code: `matches` compiles a regular expression, JSONPath uses jsonpath-plus's safe evaluator.
 */
import { isDeepStrictEqual } from 'node:util';
import type { EndpointDef } from '../contract/types';
import { maskHeaderValue, maskSecrets } from '../log/mask';
import { contractDrift } from '../exchange/contractDrift';
import { assertionRegex, subjectText } from './assertGrammar';
import type { AssertionResult, FlowAssertion, FlowRequest } from './types';
import { jsonOf, jsonPathAll, resolveText, type FlowAnswer, type FlowScope, type FlowVariableError } from './variables';

/** The longest text `matches` tests (characters): a regular expression from a file never runs over a whole large answer. */
export const MAX_MATCH_INPUT = 16_384;

/** What an assertion is evaluated against. */
export interface AssertionTarget {
  readonly answer: FlowAnswer;
  /** The contract endpoints the request was matched to (several share a route); empty for other URLs. */
  readonly endpoints: readonly EndpointDef[];
}

const show = (v: unknown): string => {
  if (v === undefined) return '(nothing)';
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
};

/** The expected value as written: JSON when it reads as JSON (`201`, `"Cancelled"`, `true`), else the text. */
function expectedValue(text: string): unknown {
  const parsed = jsonOf(text);
  return parsed ? parsed.json : text;
}

type Actual = { readonly value?: unknown; readonly present: boolean } | { readonly failure: string };

/**
 * The value an assertion's subject has in the answer. Every subject of the grammar has its case: one added to
 * `FlowAssertion['subject']` and not here does not compile, and an unknown one at run time fails, never passes.
 */
function actualOf(a: FlowAssertion, target: AssertionTarget): Actual {
  const s = a.subject;
  const answer = target.answer;
  switch (s.kind) {
    case 'status':
      return { value: answer.status, present: true };
    case 'duration':
      return { value: Math.round(answer.durationMs), present: true };
    case 'header': {
      const v = answer.headers[s.name];
      return { value: v, present: v !== undefined };
    }
    case 'body':
      return bodyValue(s, answer);
    case 'contract':
      return { failure: '?? contract has no value to compare' };
    default: {
      const unknown: never = s;
      return { failure: `the subject ${(unknown as { kind?: string }).kind ?? '?'} is not one this version evaluates` };
    }
  }
}

/** The value at a `body` subject's JSONPath (or its length). */
function bodyValue(s: Extract<FlowAssertion['subject'], { kind: 'body' }>, answer: FlowAnswer): Actual {
  const parsed = jsonOf(answer.body);
  if (!parsed) {
    const type = answer.headers['content-type'];
    return { failure: `the answer (status ${answer.status}${type ? `, ${type}` : ''}) is ${answer.body.trim() === '' ? 'empty' : 'not JSON'}, so ${s.path} cannot be read from it` };
  }
  let matches: unknown[];
  try {
    matches = jsonPathAll(s.path, parsed.json);
  } catch (err) {
    return { failure: `${s.path} is not a JSONPath this tool can read (${(err as Error).message})` };
  }
  if (matches.length === 0) return { present: false };
  const value = matches.length === 1 ? matches[0] : matches;
  if (!s.length) return { value, present: true };
  if (Array.isArray(value) || typeof value === 'string') return { value: value.length, present: true };
  if (value !== null && typeof value === 'object') return { value: Object.keys(value).length, present: true };
  return { failure: `${s.path} is ${show(value)}, which has no length (a list, a text or an object has)` };
}

/**
 * An actual value as reports and messages show it: masked as exchanges are (a header by its name's rule, anything else
 * for tokens and secret-named values), since a report is kept and shared (docs/flows.md, What a flow may do).
 */
function shownActual(a: FlowAssertion, value: unknown): string {
  if (a.subject.kind === 'header' && typeof value === 'string') return show(maskHeaderValue(a.subject.name, value));
  return maskSecrets(show(value));
}

/** Does `actual` satisfy `operator expected`? */
function compare(operator: NonNullable<FlowAssertion['operator']>, actual: unknown, expectedText: string): boolean | string {
  const expected = expectedValue(expectedText);
  switch (operator) {
    case '==':
    case '!=': {
      // Unquoted values compare by their text too (`== {{reg.response.body.$.id}}` may give 123 for the text "123");
      // a quoted value ("5") is a text and only equals that text.
      const quoted = expectedText.trim().startsWith('"');
      const same = isDeepStrictEqual(actual, expected) || (!quoted && typeof actual !== 'object' && typeof expected !== 'object' && String(actual) === String(expected));
      return operator === '==' ? same : !same;
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const x = typeof actual === 'number' ? actual : Number(actual);
      const y = Number(expectedText);
      if (actual === null || actual === '' || !Number.isFinite(x) || !Number.isFinite(y)) return `'${operator}' compares numbers, and ${show(actual)} ${operator} ${expectedText} does not`;
      return operator === '<' ? x < y : operator === '<=' ? x <= y : operator === '>' ? x > y : x >= y;
    }
    case 'includes':
      if (Array.isArray(actual)) return actual.some((x) => isDeepStrictEqual(x, expected) || (typeof x !== 'object' && String(x) === String(expected)));
      if (typeof actual === 'string') return actual.includes(typeof expected === 'string' ? expected : expectedText);
      return `'includes' needs a text or a list, and the answer has ${show(actual)}`;
    case 'matches': {
      let re: RegExp;
      try {
        re = assertionRegex(expectedText);
      } catch (err) {
        return `'matches' needs a regular expression: ${(err as Error).message}`;
      }
      return re.test((typeof actual === 'string' ? actual : (JSON.stringify(actual) ?? '')).slice(0, MAX_MATCH_INPUT));
    }
    case 'exists':
      return true;
  }
}

/** `?? contract`: the endpoint's row must declare the status and its schema must accept the body. */
function contractResult(a: FlowAssertion, target: AssertionTarget): AssertionResult {
  if (target.endpoints.length === 0) {
    return { assertion: a, passed: false, message: `?? contract: this request is not one of the contract's endpoints (a URL under {{baseUrl}}, {{v2BaseUrl}} or {{eligibilityBaseUrl}} with a method and path of the spec's Endpoints).` };
  }
  const drift = contractDrift(target.endpoints, target.answer.status, target.answer.body);
  const actual = `${target.answer.status}`;
  if (drift.length === 0) return { assertion: a, passed: true, actual, message: `?? contract: ${target.answer.status} and its body are what the contract declares for ${target.endpoints.map((e) => e.id).join(' / ')}.` };
  const expected = [...new Set(target.endpoints.flatMap((e) => Object.keys(e.responses)))].join(', ');
  return { assertion: a, passed: false, expected, actual, message: `?? contract: ${drift.map((d) => d.message).join(' ')}` };
}

/**
 * Evaluates one assertion.
 * @param expected the assertion's expected value with its variables already resolved (absent for `exists`, `contract`
 *   and a bare subject).
 * @returns the result; never throws: a body that is not JSON, a JSONPath that cannot be read or a value that cannot
 *   be compared is a failed assertion whose message says so.
 */
export function evaluateAssertion(a: FlowAssertion, target: AssertionTarget, expected?: string): AssertionResult {
  if (a.subject.kind === 'contract') return contractResult(a, target);
  const actual = actualOf(a, target);
  const subject = subjectText(a.subject);
  if ('failure' in actual) return { assertion: a, passed: false, ...(expected !== undefined ? { expected } : {}), message: `?? ${a.text}: ${actual.failure}.` };
  if (!a.operator || a.operator === 'exists') {
    const passed = actual.present;
    const shown = shownActual(a, actual.value);
    return { assertion: a, passed, expected: 'present', actual: passed ? shown : '(absent)', message: passed ? `${subject} is present (${shown}).` : `?? ${a.text}: the answer (status ${target.answer.status}) has no ${subject}.` };
  }
  const want = expected ?? a.expected ?? '';
  if (!actual.present) return { assertion: a, passed: false, expected: want, actual: '(absent)', message: `?? ${a.text}: the answer (status ${target.answer.status}) has no ${subject}.` };
  const outcome = compare(a.operator, actual.value, want);
  const actualText = shownActual(a, actual.value);
  if (typeof outcome === 'string') return { assertion: a, passed: false, expected: want, actual: actualText, message: `?? ${a.text}: ${outcome}.` };
  return {
    assertion: a,
    passed: outcome,
    expected: want,
    actual: actualText,
    message: outcome ? `${subject} ${a.operator} ${want} (was ${actualText}).` : `?? ${a.text}: expected ${subject} ${a.operator} ${want}, but it was ${actualText}.`,
  };
}

/** The check a request without `??` lines gets: it passes when the answer's status is below 400. */
export const IMPLIED_ASSERTION: FlowAssertion = { line: 0, column: 0, text: 'status < 400', subject: { kind: 'status' }, operator: '<', expected: '400' };

/** Resolves and evaluates a request's assertions (or the implied `status < 400`). */
export function assertAll(r: FlowRequest, answer: FlowAnswer, endpoints: readonly EndpointDef[], scope: FlowScope): AssertionResult[] {
  const list = r.assertions.length > 0 ? r.assertions : [IMPLIED_ASSERTION];
  return list.map((a) => {
    let expected: string | undefined;
    if (a.expected !== undefined) {
      try {
        expected = resolveText(a.expected, { line: a.line, column: a.expectedColumn ?? a.column }, scope);
      } catch (err) {
        return { assertion: a, passed: false, message: `?? ${a.text}: ${(err as FlowVariableError).message}` };
      }
    }
    return evaluateAssertion(a, { answer, endpoints }, expected);
  });
}
