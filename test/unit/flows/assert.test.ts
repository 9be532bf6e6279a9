/**
 * Assertions (src/core/flows/assert.ts; docs/flows.md, Assertions): the grammar of `??` lines, every operator on
 * every subject, `?? contract` against the endpoint table, and a body that is not JSON.
 */
import * as assert from 'node:assert/strict';
import { ENDPOINTS } from '../../../src/core/contract';
import { evaluateAssertion, parseAssertion, type AssertionTarget, type FlowAssertion } from '../../../src/core/flows';

const A = (line: string): FlowAssertion => {
  const r = parseAssertion(line, 1);
  if (!('assertion' in r)) assert.fail(`${line}: ${r.problem}`);
  return r.assertion;
};
const target = (status: number, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }, endpoints = [ENDPOINTS.getTireProtectionRegistration]): AssertionTarget => ({
  answer: { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body), durationMs: 42.4 },
  endpoints,
});
const check = (line: string, t: AssertionTarget, expected?: string) => evaluateAssertion(A(line), t, expected);

describe('flows: assertion grammar', () => {
  it('reads every subject and operator', () => {
    assert.deepEqual(A('?? status == 201').subject, { kind: 'status' });
    assert.deepEqual(A('  ?? header Content-Type includes json').subject, { kind: 'header', name: 'content-type' });
    assert.deepEqual(A('?? body $.claims length == 1').subject, { kind: 'body', path: '$.claims', length: true });
    assert.deepEqual(A('?? body $[?(@.a == 1)].b exists').subject, { kind: 'body', path: '$[?(@.a == 1)].b' }, 'a filter may hold spaces');
    assert.deepEqual(A('?? body == "x"').subject, { kind: 'body', path: '$' });
    assert.deepEqual(A('?? duration < 500').subject, { kind: 'duration' });
    assert.deepEqual(A('?? contract').subject, { kind: 'contract' });
    for (const op of ['==', '!=', '<', '<=', '>', '>=', 'includes', 'matches'] as const) assert.equal(A(`?? status ${op} 2`).operator, op);
    assert.equal(A('?? body $.id exists').operator, 'exists');
    assert.equal(A('?? body $.id').operator, undefined);
    assert.equal(A('?? body $.s == "Cancelled"').expected, '"Cancelled"');
  });

  it('refuses what it cannot read, with the column of the fault', () => {
    const bad = (line: string) => {
      const r = parseAssertion(line, 1);
      assert.ok('problem' in r, line);
      return `${r.column} ${r.problem}`;
    };
    assert.match(bad('?? status =~ 2'), /^11 Unknown assertion operator '=~'/);
    assert.match(bad('?? status equals 2'), /^11 The operator 'equals' is httpyac's and not tpp's/);
    assert.match(bad('?? body id() == 1'), /takes a JSONPath starting with \$ \(e\.g\. \$\.claims\) or a property path/);
    assert.match(bad('?? js response.status == 200'), /^4 \?\? js runs JavaScript \(httpyac\): scripts are not run: use \?\? assertions/);
    assert.match(bad('?? header == 1'), /needs a header name/);
    assert.match(bad('?? body $.a exists 1'), /takes no value/);
    assert.match(bad('??'), /needs a subject/);
  });
});

describe('flows: assertion evaluation', () => {
  const reg = { _id: 'r1', status: 'Cancelled', claims: [{ id: 1 }], n: 5, tags: ['a', 'b'] };

  it('status, duration and headers', () => {
    assert.equal(check('?? status == 201', target(201, {})).passed, true);
    const failed = check('?? status == 201', target(409, {}));
    assert.equal(failed.passed, false);
    assert.equal(failed.expected, '201');
    assert.equal(failed.actual, '409');
    assert.match(failed.message, /expected status == 201, but it was 409/);
    assert.equal(check('?? status != 500', target(200, {})).passed, true);
    assert.equal(check('?? status >= 400', target(404, {})).passed, true);
    assert.equal(check('?? duration < 500', target(200, {})).passed, true);
    assert.equal(check('?? duration > 500', target(200, {})).passed, false);
    assert.equal(check('?? header content-type includes json', target(200, {})).passed, true);
    assert.equal(check('?? header content-type matches /^application\\/json/', target(200, {})).passed, true);
    const missing = check('?? header location exists', target(200, {}));
    assert.equal(missing.passed, false);
    assert.match(missing.message, /has no header location/);
  });

  it('body: JSONPath, length, equality of typed values, includes, matches, exists', () => {
    const t = target(200, reg);
    assert.equal(check('?? body $.claims length == 1', t).passed, true);
    assert.equal(check('?? body $.claims length == 2', t).passed, false);
    assert.equal(check('?? body $.status == "Cancelled"', t).passed, true);
    assert.equal(check('?? body $.status == Cancelled', t).passed, true, 'an unquoted text is a text');
    assert.equal(check('?? body $.n == 5', t).passed, true);
    assert.equal(check('?? body $.n == "5"', t).passed, false, 'a quoted number is a text');
    assert.equal(check('?? body $.n > 4', t).passed, true);
    assert.equal(check('?? body $.tags includes "b"', t).passed, true);
    assert.equal(check('?? body $.tags includes "c"', t).passed, false);
    assert.equal(check('?? body $._id matches ^r\\d$', t).passed, true);
    assert.equal(check('?? body $.claims[0].id exists', t).passed, true);
    assert.equal(check('?? body $.nothing exists', t).passed, false);
    assert.equal(check('?? body $.claims[0] == {"id":1}', t).passed, true);
    assert.equal(check('?? body $._id == {{reg.response.body.$._id}}', t, 'r1').passed, true, 'the resolved expected value is used');
    const length = check('?? body $.n length == 1', t);
    assert.equal(length.passed, false);
    assert.match(length.message, /has no length/);
  });

  it('a body assertion on an answer that is not JSON fails with a clear message', () => {
    const r = check('?? body $.id exists', target(502, '<html>Bad gateway</html>', { 'content-type': 'text/html' }));
    assert.equal(r.passed, false);
    assert.match(r.message, /the answer \(status 502, text\/html\) is not JSON, so \$\.id cannot be read from it/);
    assert.match(check('?? body $.id exists', target(204, '')).message, /is empty/);
  });

  it('?? contract: a declared status and a body its schema accepts pass; otherwise the difference is named', () => {
    const body = { _id: 'r1', product_id: 'p', invoiceNumber: 'I', enrollDate: '2025-01-01', customer: { name: 'A', email: 'a@example.com' }, vehicle: { year: 2020, make: 'F', model: 'M' }, tires: [{ make: 'm', model: 'm', size: 's', retailPrice: 1 }], claims: [] };
    assert.equal(check('?? contract', target(200, body)).passed, true, check('?? contract', target(200, body)).message);
    const status = check('?? contract', target(418, {}));
    assert.equal(status.passed, false);
    assert.match(status.message, /answered 418, a status its table does not have/);
    const shape = check('?? contract', target(200, { _id: 5 }));
    assert.equal(shape.passed, false);
    assert.match(shape.message, /does not match its response schema/);
    const notJson = check('?? contract', target(200, 'oops'));
    assert.match(notJson.message, /not JSON/);
    assert.match(check('?? contract', target(200, {}, {}, [])).message, /not one of the contract's endpoints/);
  });

  it('a subject the evaluator does not know fails, with or without an operator; it never passes', () => {
    const unknown = { line: 1, column: 1, text: 'cookie sid', subject: { kind: 'cookie', name: 'sid' } } as unknown as FlowAssertion;
    for (const a of [unknown, { ...unknown, operator: 'exists' }, { ...unknown, operator: '==', expected: '1' }] as FlowAssertion[]) {
      const r = evaluateAssertion(a, target(200, {}));
      assert.equal(r.passed, false, JSON.stringify(a));
      assert.match(r.message, /cookie is not one this version evaluates/);
    }
  });
});
