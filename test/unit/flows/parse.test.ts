/**
 * The flow parser (src/core/flows/parse.ts; docs/flows.md, Format): requests, names, headers, bodies, file
 * variables, assertions, every malformed input as a problem with its line and column, and a print → parse round
 * trip over generated files (fast-check).
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseFlow, printFlow } from '../../../src/core/flows';
import type { FlowFile, FlowProblem } from '../../../src/core/flows';

const problems = (text: string): string[] => parseFlow(text, 'f.http').problems.map((p: FlowProblem) => `${p.line}:${p.column} ${p.severity} ${p.code ?? ''} ${p.message}`);

describe('flows: parser', () => {
  it('reads requests, names, titles, headers, bodies, variables and assertions with their positions', () => {
    const f = parseFlow(
      [
        '@shop = 1042',
        '',
        '### Create',
        '# @name reg',
        'POST {{baseUrl}}/tire-protection/registrations HTTP/1.1',
        'Content-Type: application/json',
        '',
        '{ "invoiceNumber": "A-{{shop}}" }',
        '',
        '?? status == 201',
        '?? body $.id exists',
        '',
        '###',
        '// @name read',
        'GET {{baseUrl}}/tire-protection/registrations/{{reg.response.body.$.id}}',
        '?? body $.claims length == 0',
        '?? header content-type includes json',
        '?? duration < 500',
        '?? contract',
        '###',
        'https://example.com/health',
        '###',
        'PATCH {{baseUrl}}/x',
        '',
        '<@ ./cancel.json',
      ].join('\n'),
      'f.http',
    );
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.variables, [{ name: 'shop', value: '1042', line: 1, column: 1 }]);
    const [a, b, c, d] = f.requests;
    assert.equal(f.requests.length, 4);
    assert.equal(a?.name, 'reg');
    assert.equal(a?.title, 'Create');
    assert.equal(a?.method, 'POST');
    assert.equal(a?.url, '{{baseUrl}}/tire-protection/registrations');
    assert.deepEqual([a?.line, a?.column, a?.urlColumn, a?.endLine], [5, 1, 6, 11]);
    assert.deepEqual(a?.headers, [{ name: 'Content-Type', value: 'application/json', line: 6, column: 1, valueColumn: 15 }]);
    assert.deepEqual(a?.body, { kind: 'inline', text: '{ "invoiceNumber": "A-{{shop}}" }', line: 8, column: 1 });
    assert.deepEqual(a?.assertions.map((x) => [x.line, x.subject, x.operator, x.expected]), [
      [10, { kind: 'status' }, '==', '201'],
      [11, { kind: 'body', path: '$.id' }, 'exists', undefined],
    ]);
    assert.equal(b?.name, 'read');
    assert.equal(b?.label, 'read');
    assert.deepEqual(b?.assertions.map((x) => x.subject), [{ kind: 'body', path: '$.claims', length: true }, { kind: 'header', name: 'content-type' }, { kind: 'duration' }, { kind: 'contract' }]);
    assert.equal(c?.method, 'GET', 'no method: GET, as REST Client does');
    assert.equal(c?.label, 'GET https://example.com/health');
    assert.deepEqual(d?.body, { kind: 'file', path: './cancel.json', resolveVariables: true, line: 25, column: 1 });
  });

  it('reads < file (as is), CRLF line endings, a BOM and comments between headers', () => {
    const f = parseFlow('\uFEFFPOST https://h/x\r\n# a comment\r\nX-A: 1\r\n\r\n< ./a.json\r\n', 'f.http');
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.requests[0]?.headers.map((h) => h.name), ['X-A']);
    assert.deepEqual(f.requests[0]?.body, { kind: 'file', path: './a.json', resolveVariables: false, line: 5, column: 1 });
  });

  it('a malformed request line is a problem at its line and column', () => {
    assert.match(problems('###\n  FETCH https://h/x')[0] ?? '', /^2:3 error flow-syntax Unknown method 'FETCH'/);
    assert.match(problems('GET')[0] ?? '', /^1:1 error .*has no URL/);
    assert.match(problems('GET example.com/x')[0] ?? '', /^1:1 error .*must start with http/);
    assert.match(problems('hello world')[0] ?? '', /Unknown method 'hello'/);
    assert.match(problems('GET https://h/a b')[0] ?? '', /holds no spaces/);
  });

  it('an unclosed body is a problem pointing at the bracket that never closes', () => {
    const p = problems('POST https://h/x\n\n{\n  "a": [1, 2\n###\nGET https://h/y');
    assert.equal(p.length, 1);
    assert.match(p[0] ?? '', /^4:8 error flow-body The body is not closed: '\[' opened at line 4, column 8/);
    assert.deepEqual(problems('POST https://h/x\n\n{ "n": {{qty}}, "s": "}{" }'), [], 'variables and brackets inside strings do not count');
  });

  it('a < without a file, text after a file body, and text after the assertions are problems', () => {
    assert.match(problems('POST https://h/x\n\n<@')[0] ?? '', /^3:1 error flow-body '<@' needs a file path/);
    assert.deepEqual(problems('POST https://h/x\n\n< ./a.json\n{}'), [], 'a < line among other lines is a part of the body, as in both tools');
    assert.match(problems('GET https://h/x\n?? status == 200\n\nstray')[0] ?? '', /^4:1 error flow-body Text after the assertions/);
  });

  it('an unknown assertion operator or subject, and a missing value, are problems at their column', () => {
    assert.match(problems('GET https://h/x\n?? status =~ 200')[0] ?? '', /^2:11 error flow-assertion Unknown assertion operator '=~'/);
    assert.match(problems('GET https://h/x\n?? stat == 200')[0] ?? '', /^2:4 error flow-assertion Unknown assertion subject 'stat'/);
    assert.match(problems('GET https://h/x\n?? status ==')[0] ?? '', /needs a value after it/);
    assert.match(problems('GET https://h/x\n?? status < abc')[0] ?? '', /compares numbers/);
    assert.match(problems('GET https://h/x\n?? body $.a matches /(/')[0] ?? '', /needs a regular expression/);
    assert.match(problems('GET https://h/x\n?? contract == 1')[0] ?? '', /takes nothing after it/);
    assert.match(problems('?? status == 200\nGET https://h/x')[0] ?? '', /goes after the request line/);
    assert.match(problems('GET https://h/x\n?? status equals 200')[0] ?? '', /httpyac's and not tpp's/);
  });

  it('references to requests that do not exist, run later, or are the request itself are problems', () => {
    const p = problems('GET https://h/{{nope.response.body.$.id}}\n###\n# @name b\nGET https://h/{{b.response.body.$.id}}\n###\nGET https://h/{{c.response.headers.Location}}\n###\n# @name c\nGET https://h/');
    assert.match(p[0] ?? '', /^1:15 error flow-unknown-request .*no request named nope/);
    assert.match(p[1] ?? '', /^4:15 error flow-unknown-request .*is this request/);
    assert.match(p[2] ?? '', /^6:15 error flow-unknown-request .*runs after this one/);
  });

  it('a variable cycle, a duplicate name, a bad dynamic value and an unclosed {{ are problems', () => {
    assert.match(problems('@a = {{b}}\n@b = x{{a}}\nGET https://h/{{a}}').join('\n'), /flow-variable-cycle The variables refer to each other in a circle: a → b → a/);
    assert.match(problems('# @name r\nGET https://h/\n###\n# @name r\nGET https://h/').join('\n'), /flow-duplicate-name Two requests are named r/);
    assert.match(problems('GET https://h/{{$randomInt 5 1}}')[0] ?? '', /1:15 error flow-unknown-variable .*max \(1\) must be greater than min/);
    assert.match(problems('GET https://h/{{$processEnv}}')[0] ?? '', /\$processEnv takes one name/);
    assert.match(problems('GET https://h/{{$aadToken}}')[0] ?? '', /signs in to Azure AD \(REST Client\): tpp does not/);
    assert.match(problems('GET https://h/{{$nope}}')[0] ?? '', /unknown dynamic value \$nope/);
    assert.match(problems('GET https://h/{{a')[0] ?? '', /'\{\{' is not closed/);
    assert.match(problems('GET https://h/{{r.request.body.$}}')[0] ?? '', /not supported in flows/);
  });

  it('reads the constructs of REST Client, httpyac and JetBrains as they do (compat corpus: test/unit/flows/compat)', () => {
    const f = parseFlow(
      [
        '# @title Not sent or checked',
        '# @unknown-directive is a comment, as in both tools',
        'GET https://h/comments',
        '    ?page=2',
        '    &pageSize={{$randomInt 1 5}}',
        '# @no-redirect',
        'Accept: application/json',
        '',
        '<> ./previous-answer.json',
        '###',
        '# @name=upload',
        '# @disabled',
        '// @no-cookie-jar',
        '# @prompt dealer The dealer number',
        'POST https://h/x',
        'Content-Type: multipart/form-data; boundary=B',
        '',
        '--B',
        '# a comment line, left out',
        '< ./tire.png',
        '--B--',
      ].join('\n'),
      'f.http',
    );
    assert.deepEqual(f.problems, []);
    const [a, b] = f.requests;
    assert.equal(a?.url, 'https://h/comments?page=2&pageSize={{$randomInt 1 5}}');
    assert.match(problems('GET https://h/x\n  &q=a b')[0] ?? '', /^2:3 error flow-syntax A URL holds no spaces: '&q=a b'/);
    assert.equal(a?.noRedirect, true);
    assert.equal(a?.body, undefined, 'a JetBrains response reference is neither sent nor checked');
    assert.deepEqual([b?.name, b?.disabled, b?.noCookieJar, b?.prompts?.map((p) => [p.name, p.description])], ['upload', { line: 12, column: 3 }, true, [['dealer', 'The dealer number']]]);
    assert.deepEqual(b?.body, { kind: 'inline', text: '--B\n< ./tire.png\n--B--', line: 18, column: 1, files: [{ path: './tire.png', resolveVariables: false, line: 20, column: 1, index: 1 }] });
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('#', '#', '@', '?', '?', ' ', '\n', '\n', '{', '}', '<', 'G', 'E', 'T', ':', 'h', '/', '$', '=') }), (s) => {
        const f = parseFlow(s, 'x.http');
        assert.ok(Array.isArray(f.problems));
      }),
      { numRuns: 300 },
    );
  });
});

/** A generated request as data. */
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
const request = fc.record({
  title: fc.option(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,10}[a-z]$/), { nil: undefined }),
  name: fc.option(word, { nil: undefined }),
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'GRAPHQL'),
  meta: fc.subarray(['# @disabled', '// @no-redirect', '# @no-cookie-jar', '# @prompt dealer The dealer number']),
  path: fc.array(word, { maxLength: 3 }),
  headers: fc.array(fc.tuple(fc.stringMatching(/^[A-Z][a-z]{0,5}(-[A-Z][a-z]{0,5})?$/), fc.stringMatching(/^[a-z0-9][a-z0-9 /;=]{0,10}[a-z0-9]$/)), { maxLength: 3 }),
  body: fc.option(
    fc.oneof(
      fc.json().filter((j) => /^[[{]/.test(j) && !j.includes('{{') && !j.includes('}}')).map((text) => ({ kind: 'inline' as const, text })),
      fc.tuple(word, fc.boolean()).map(([p, r]) => ({ kind: 'file' as const, path: `./${p}.json`, resolveVariables: r })),
    ),
    { nil: undefined },
  ),
  assertions: fc.array(fc.constantFrom('?? status == 201', '?? body $.claims length == 1', '?? header content-type includes json', '?? body $.status == "Cancelled"', '?? duration < 500', '?? contract', '?? body $.id exists', '?? body $.a matches /^x+$/i', '?? status != 500'), { maxLength: 4 }),
});

/** The text of a generated file. */
type GeneratedRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

function fileText(vars: readonly [string, string][], reqs: readonly GeneratedRequest[]): string {
  const lines = vars.map(([n, v]) => `@${n} = ${v}`);
  const seen = new Set<string>();
  for (const r of reqs) {
    lines.push(r.title ? `### ${r.title}` : '###');
    if (r.name && !seen.has(r.name)) {
      seen.add(r.name);
      lines.push(`# @name ${r.name}`);
    }
    lines.push(...r.meta);
    lines.push(`${r.method} https://h.example/${r.path.join('/')}`, ...r.headers.map(([n, v]) => `${n}: ${v}`));
    if (r.body) lines.push('', r.body.kind === 'inline' ? r.body.text : `${r.body.resolveVariables ? '<@' : '<'} ${r.body.path}`);
    if (r.assertions.length) lines.push('', ...r.assertions);
  }
  return lines.join('\n');
}

const withoutPositions = (f: FlowFile) =>
  JSON.parse(JSON.stringify({ variables: f.variables, requests: f.requests }, (k, v: unknown) => (['line', 'column', 'urlColumn', 'valueColumn', 'expectedColumn', 'endLine'].includes(k) ? undefined : v))) as unknown;

describe('flows: print → parse round trip (fast-check)', () => {
  it('parseFlow(printFlow(f)) is f, positions aside, for generated files', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.stringMatching(/^[A-Za-z0-9-]{1,8}$/)), { maxLength: 3 }), fc.array(request, { minLength: 1, maxLength: 5 }), (vars, reqs) => {
        const first = parseFlow(fileText(vars, reqs), 'g.http');
        assert.deepEqual(first.problems, [], fileText(vars, reqs));
        assert.equal(first.requests.length, reqs.length);
        const again = parseFlow(printFlow(first), 'g.http');
        assert.deepEqual(again.problems, []);
        assert.deepEqual(withoutPositions(again), withoutPositions(first));
      }),
      { numRuns: 200 },
    );
  });
});
