/**
 * Flow variables (src/core/flows/variables.ts; docs/flows.md, Variables): the order names are looked up in, file
 * variables keeping their first value, request references, typed `<@` bodies, the bounds on expansion, and which
 * requests `only` runs.
 */
import * as assert from 'node:assert/strict';
import { PAYLOAD_KINDS } from '../../../src/core/contract';
import { parseFlow, requestsToRun } from '../../../src/core/flows';
import { FlowVariableError, MAX_EXPANSIONS, resolveJsonBody, resolveText, type FlowAnswer, type FlowScope } from '../../../src/core/flows/variables';

function scope(vars: Record<string, string>, answers: Record<string, FlowAnswer> = {}, outside: Record<string, string> = {}): FlowScope {
  let n = 0;
  return {
    environment: { baseUrl: 'http://127.0.0.1:1/api/v3', partnerId: 'P1', v2BaseUrl: undefined },
    fileVariables: new Map(Object.entries(vars).map(([name, value], i) => [name, { value, line: i + 1, column: 1 }])),
    outside,
    answers: new Map(Object.entries(answers)),
    resolved: new Map(),
    dynamic: { now: new Date('2026-01-02T03:04:05Z'), random: () => (n++ % 10) / 10 },
  };
}
const at = { line: 7, column: 3 };
const fails = (f: () => unknown): FlowVariableError => {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof FlowVariableError, String(err));
    return err;
  }
  return assert.fail('expected a FlowVariableError');
};

describe('flows: variables', () => {
  it('environment addresses win over file variables, which win over outside variables', () => {
    const s = scope({ baseUrl: 'http://elsewhere', shop: '1042' }, {}, { shop: 'outside', other: 'o' });
    assert.equal(resolveText('{{baseUrl}}/x/{{shop}}/{{other}}/{{partnerId}}', at, s), 'http://127.0.0.1:1/api/v3/x/1042/o/P1');
  });

  it('a file variable keeps the value it had when first used; dynamic values are fresh at each use', () => {
    const s = scope({ inv: 'INV-{{$randomInt 0 10}}' });
    const first = resolveText('{{inv}}', at, s);
    assert.equal(resolveText('{{inv}}', at, s), first);
    assert.notEqual(resolveText('{{$randomInt 0 10}}', at, s), resolveText('{{$randomInt 0 10}}', at, s));
    assert.equal(resolveText('{{$datetime iso8601}}', at, s), '2026-01-02T03:04:05.000Z');
  });

  it('reads earlier answers by JSONPath and header, and says why it cannot', () => {
    const reg: FlowAnswer = { status: 201, headers: { location: '/r/1' }, body: '{"id":"r1","claims":[{"id":7}]}', durationMs: 1 };
    const s = scope({}, { reg, html: { status: 502, headers: {}, body: '<html>', durationMs: 1 } });
    assert.equal(resolveText('{{reg.response.body.$.id}}|{{reg.response.body.$.claims[0].id}}|{{reg.response.headers.Location}}', at, s), 'r1|7|/r/1');
    assert.equal(resolveText('{{reg.response.body.*}}', at, s), reg.body);
    assert.equal(resolveText('{{reg.response.body.$.claims}}', at, s), '[{"id":7}]');
    assert.match(fails(() => resolveText('x {{reg.response.body.$.nope}}', at, s)).message, /^line 7, column 5: \{\{reg\.response\.body\.\$\.nope\}\}: the answer of reg \(status 201\) has nothing at \$\.nope$/);
    assert.match(fails(() => resolveText('{{reg.response.headers.ETag}}', at, s)).message, /has no header ETag/);
    assert.match(fails(() => resolveText('{{html.response.body.$.id}}', at, s)).message, /is not JSON/);
    assert.match(fails(() => resolveText('{{later.response.body.$.id}}', at, s)).message, /request later has not run in this run/);
    assert.match(fails(() => resolveText('{{nope}}', at, s)).message, /unknown variable nope: define it with @nope = … in the file or pass --var nope=…/);
  });

  it('a circle and a chain too deep end with a message; an explosion of references stays bounded', () => {
    assert.match(fails(() => resolveText('{{a}}', at, scope({ a: '{{b}}', b: '{{a}}' }))).message, /circle, or more than 8 deep/);
    const deep: Record<string, string> = {};
    for (let i = 0; i < 12; i++) deep[`v${i}`] = `{{v${i + 1}}}`;
    deep.v12 = 'end';
    assert.match(fails(() => resolveText('{{v0}}', at, scope(deep))).message, /more than 8 deep/);
    const boom: Record<string, string> = { e: '' };
    let prev = 'e';
    for (let i = 0; i < 6; i++) {
      boom[`x${i}`] = `{{${prev}}}`.repeat(40);
      prev = `x${i}`;
    }
    // The work is bounded by count, not by time: 40^6 references expanded once each would pass MAX_EXPANSIONS and fail.
    assert.equal(resolveText(`{{${prev}}}`, at, scope(boom)), '', 'each file variable is expanded once, then kept');
    assert.match(fails(() => resolveText('{{$date}}'.repeat(MAX_EXPANSIONS + 1), at, scope({}))).message, new RegExp(`more than ${MAX_EXPANSIONS} references`));
  });

  it('<@ bodies: a whole-string variable takes the type the contract wants for its field', () => {
    const s = scope({ miles: '15870', who: '42' });
    const body = { vehicleMileage: '{{miles}}', damageDescription: '{{who}}', serviceInvoiceNumber: 'RO-{{miles}}' };
    assert.deepEqual(resolveJsonBody(body, PAYLOAD_KINDS['tire-protection-claim'].schema, { name: './claim.json', ...at }, s), { vehicleMileage: 15870, damageDescription: '42', serviceInvoiceNumber: 'RO-15870' });
    assert.match(fails(() => resolveJsonBody({ a: ['{{x}}'] }, undefined, { name: './c.json', ...at }, s)).message, /\.\/c\.json: a\.0: \{\{x\}\}: unknown variable x/);
  });

  it('only: the chosen requests and the named requests they read from', () => {
    const f = parseFlow('# @name a\nGET https://h/a\n###\n@id = {{a.response.body.$.id}}\n# @name b\nGET https://h/{{id}}\n###\nGET https://h/{{b.response.body.$.x}}\n###\nGET https://h/d', 'o.http');
    assert.deepEqual(f.problems, []);
    assert.deepEqual([...requestsToRun(f, [2])].sort(), [0, 1, 2]);
    assert.deepEqual([...requestsToRun(f, [3, 99])], [3]);
    assert.equal(requestsToRun(f, undefined).size, 4);
  });
});
