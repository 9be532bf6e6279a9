/**
 * Recording a flow from exchanges (src/core/record, docs/flows.md "Recording a flow"): references found by value,
 * names only where a later request reads an answer, variables new on each run, the recorded statuses and ?? contract,
 * no secret and no host, and each exchange a flow cannot send again refused by name. Every flow written parses with
 * no problem (parseFlow, the parser tpp run and the Test Explorer use).
 */
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../../src/core/exchange/types';
import { parseFlow } from '../../../src/core/flows/parse';
import { recordFlow, RecordRefused, type RecordOptions } from '../../../src/core/record';

const ORIGIN = 'http://127.0.0.1:43117';
const V3 = `${ORIGIN}/api/v3`;
const OPTIONS: RecordOptions = { source: 'a test', recordedBy: 'the test', fileName: 'story.http' };
const ID = '65f1a2b3c4d5e6f708192a3b';
const T0 = Date.parse('2025-06-10T12:00:00.000Z');

let n = 0;
/** One exchange as the Local sandbox's journal gives it: `at` seconds after T0. */
function x(method: string, url: string, status: number, opts: { body?: unknown; answer?: unknown; at?: number; headers?: Record<string, string>; partner?: string; diagnosis?: Exchange['diagnosis'] } = {}): Exchange {
  n++;
  return {
    id: `x${n}`,
    env: 'local',
    source: 'sandbox-log',
    time: new Date(T0 + (opts.at ?? n) * 1000).toISOString(),
    partner: opts.partner ?? 'P-STORY',
    request: { method, url, headers: { authorization: 'Bearer [masked]', 'content-type': 'application/json' }, ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}) },
    response: { status, headers: { 'content-type': 'application/json', ...opts.headers }, ...(opts.answer !== undefined ? { body: JSON.stringify(opts.answer) } : {}) },
    durationMs: 3,
    attempts: 1,
    ...(opts.diagnosis ? { diagnosis: opts.diagnosis } : {}),
  };
}

const registration = (invoice: string, enrollDate = '2025-06-10') => ({ product_id: 'tp-road-hazard-36', invoiceNumber: invoice, enrollDate, customer: { name: 'Ada', email: 'ada@example.com' }, tires: [{ make: 'M', model: 'X', size: '225/65R17', retailPrice: 100 }] });
const claim = (invoice: string) => ({ serviceInvoiceNumber: `RO-${invoice}`, serviceInvoiceDate: '2025-06-10', vehicleMileage: 100, damageReason: 'Road hazard', damageDescription: 'nail', authorizedAmount: 10, tires: [{ original: { make: 'M', model: 'X', size: '225/65R17' }, replacement: { make: 'M', model: 'X', size: '225/65R17' } }] });
const readBack = (invoice: string) => ({ _id: ID, program_id: 'p', ...registration(invoice), claims: [] });

/** The story of the README: create, read, claim, cancel, cancel again. */
function story(): Exchange[] {
  const inv = 'INV-1718000000-4242';
  return [
    x('POST', `${V3}/tire-protection/registrations`, 201, { at: 1, body: registration(inv), answer: { id: ID } }),
    x('GET', `${V3}/tire-protection/registrations/${ID}`, 200, { at: 2, answer: readBack(inv) }),
    x('POST', `${V3}/tire-protection/registrations/${ID}/claims`, 201, { at: 3, body: claim(inv), answer: { id: 1 } }),
    x('PATCH', `${V3}/tire-protection/registrations/${ID}`, 204, { at: 4, body: { cancelledOn: '2025-06-10T12:00:04.000Z' } }),
    x('PATCH', `${V3}/tire-protection/registrations/${ID}`, 409, { at: 5, body: { cancelledOn: '2025-06-10T12:00:05.000Z' }, answer: { error: 'conflict', statusCode: 409, message: 'already cancelled' }, diagnosis: [{ rule: 'conflict', message: 'The registration is already cancelled.' }] }),
  ];
}

/** The flow text parsed, asserting it has no problem. */
function parsed(text: string) {
  const flow = parseFlow(text, 'story.http');
  assert.deepEqual(flow.problems, [], text);
  return flow;
}

describe('record: a flow from exchanges', () => {
  it('writes one request per exchange, reads the id from the answer that gave it, and names only that request', () => {
    const flow = recordFlow(story(), OPTIONS);
    const file = parsed(flow.text);
    assert.deepEqual(file.requests.map((r) => `${r.method} ${r.url}`), [
      'POST {{baseUrl}}/tire-protection/registrations',
      'GET {{baseUrl}}/tire-protection/registrations/{{registration.response.body.$.id}}',
      'POST {{baseUrl}}/tire-protection/registrations/{{registration.response.body.$.id}}/claims',
      'PATCH {{baseUrl}}/tire-protection/registrations/{{registration.response.body.$.id}}',
      'PATCH {{baseUrl}}/tire-protection/registrations/{{registration.response.body.$.id}}',
    ]);
    assert.deepEqual(file.requests.map((r) => r.name), ['registration', undefined, undefined, undefined, undefined], 'only the create is named: its answer is read');
    assert.equal(flow.named, 1);
    assert.equal(flow.references, 4);
    assert.deepEqual(file.requests.map((r) => r.assertions.map((a) => a.text)), [
      ['status == 201', 'contract'],
      ['status == 200', 'contract'],
      ['status == 201', 'contract'],
      ['status == 204', 'contract'],
      ['status == 409', 'contract'],
    ]);
    assert.equal(flow.contractChecks, 5);
    assert.match(flow.text, /# Recorded answer 409: The registration is already cancelled\./);
    assert.deepEqual(file.requests.map((r) => r.title), [
      '1. Create a tire-protection registration',
      '2. Read a tire-protection registration with its claims',
      '3. File a claim against a tire-protection registration',
      '4. Cancel a tire-protection registration by identifier',
      '5. Cancel a tire-protection registration by identifier, refused with 409',
    ]);
  });

  it('makes what a create defines new on each run, used everywhere the value went, and the dates relative to the day of the run', () => {
    const flow = recordFlow(story(), OPTIONS);
    const file = parsed(flow.text);
    const vars = Object.fromEntries(file.variables.map((v) => [v.name, v.value]));
    assert.equal(vars.run, '{{$timestamp}}-{{$randomInt 1000 10000}}');
    assert.equal(vars.invoice, 'INV-{{run}}', 'the recorded letters, then the run');
    assert.equal(vars.serviceInvoice, 'RO-{{run}}');
    assert.equal(vars.enrollDate, '{{$date}}', 'the day of the request: the day of the run');
    assert.equal(vars.cancelledOn, '{{$datetime iso8601}}');
    assert.deepEqual(Object.keys(vars), ['run', 'invoice', 'enrollDate', 'serviceInvoice', 'cancelledOn'], 'the two cancellations sent "now" share one variable');
    const body = (i: number) => JSON.parse((file.requests[i]!.body as { text: string }).text) as Record<string, unknown>;
    assert.equal(body(0).invoiceNumber, '{{invoice}}');
    assert.equal(body(0).enrollDate, '{{enrollDate}}');
    assert.equal(body(2).serviceInvoiceNumber, '{{serviceInvoice}}');
    assert.equal(body(2).serviceInvoiceDate, '{{enrollDate}}', 'the same recorded date is the same variable');
    assert.equal(body(2).vehicleMileage, 100, 'other values as they were sent');
    assert.equal(body(4).cancelledOn, '{{cancelledOn}}');
    assert.doesNotMatch(flow.text.slice(flow.text.indexOf('###')), /INV-1718000000-4242|2025-06-10/, 'no recorded invoice number or date is left');
  });

  it('writes dates before or after the request as offsets from the day of the run', () => {
    const inv = 'INV-9';
    const flow = recordFlow([x('POST', `${V3}/tire-protection/registrations`, 201, { at: 0, body: registration(inv, '2025-06-07'), answer: { id: ID } }), x('PATCH', `${V3}/tire-protection/registrations/${ID}`, 204, { at: 1, body: { cancelledOn: '2025-06-10T14:00:01.000Z' } }), x('PATCH', `${V3}/registrations/${ID}`, 409, { at: 2, body: { cancelledOn: '2025-06-09T11:59:00Z' } })], OPTIONS);
    const vars = Object.fromEntries(parsed(flow.text).variables.map((v) => [v.name, v.value]));
    assert.equal(vars.enrollDate, '{{$date -3}}');
    assert.equal(vars.cancelledOn, '{{$datetime iso8601 2 h}}');
    assert.equal(vars.cancelledOn2, '{{$datetime iso8601 -1441 m}}');
  });

  it('finds references by value, not by name: a value the client chose first is not read from an answer', () => {
    const inv = 'INV-CHOSEN-1';
    const exchanges = [
      // The client asks for an invoice it chose; the list answer then carries it and ids of records from before.
      x('GET', `${V3}/tire-protection/registrations?invoiceNumber=${inv}`, 200, { answer: { results: [], totalRecordCount: 0 } }),
      x('GET', `${V3}/tire-protection/registrations?page=1&pageSize=2`, 200, { answer: { results: [{ _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', invoiceNumber: 'SEED-77', product_id: 'tp-road-hazard-36' }] } }),
      x('POST', `${V3}/tire-protection/registrations`, 201, { body: registration(inv), answer: { id: ID } }),
      // An identifier first seen in an answer, carried later in the query and the path: read from that answer.
      x('PATCH', `${V3}/tire-protection/registrations?invoiceNumber=SEED-77`, 204, { body: { cancelledOn: '2025-06-10T12:00:04.000Z' } }),
      x('GET', `${V3}/tire-protection/registrations/aaaaaaaaaaaaaaaaaaaaaaaa/metadata`, 200, { answer: { isActive: false } }),
      // An id the client knew before any answer gave it: as it was sent, though a read's answer then carries it.
      x('GET', `${V3}/tire-protection/registrations/bbbbbbbbbbbbbbbbbbbbbbbb`, 200, { answer: { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb' } }),
      x('GET', `${V3}/tire-protection/registrations/bbbbbbbbbbbbbbbbbbbbbbbb/metadata`, 200, { answer: {} }),
    ];
    const file = parsed(recordFlow(exchanges, OPTIONS).text);
    assert.equal(file.requests[0]!.url, '{{baseUrl}}/tire-protection/registrations?invoiceNumber={{invoice}}', 'a value the create defines later is the run variable everywhere');
    assert.equal(JSON.parse((file.requests[2]!.body as { text: string }).text).product_id, 'tp-road-hazard-36', 'a constant listed earlier stays as it was sent');
    assert.equal(file.requests[3]!.url, '{{baseUrl}}/tire-protection/registrations?invoiceNumber={{registration.response.body.$.results[0].invoiceNumber}}');
    assert.equal(file.requests[4]!.url, '{{baseUrl}}/tire-protection/registrations/{{registration.response.body.$.results[0]._id}}/metadata');
    assert.equal(file.requests[1]!.name, 'registration');
    assert.equal(file.requests[2]!.name, undefined);
    assert.equal(file.requests[6]!.url, '{{baseUrl}}/tire-protection/registrations/bbbbbbbbbbbbbbbbbbbbbbbb/metadata');
    assert.equal(file.requests[5]!.name, undefined);
  });

  it('reads a Location an earlier answer gave, and names two created records apart', () => {
    const second = '75f1a2b3c4d5e6f708192a3c';
    const exchanges = [
      x('POST', `${V3}/tire-protection/registrations`, 201, { body: registration('A-1'), answer: { id: ID }, headers: { location: `${V3}/tire-protection/registrations/${ID}` } }),
      x('POST', `${V3}/tire-protection/registrations`, 201, { body: registration('A-2'), answer: { id: second } }),
      x('GET', `${V3}/tire-protection/registrations/${ID}`, 200, { answer: readBack('A-1') }),
      x('GET', `${V3}/tire-protection/registrations/${second}/metadata`, 200, { answer: {} }),
    ];
    const flow = recordFlow(exchanges, OPTIONS);
    const file = parsed(flow.text);
    assert.equal(file.requests[2]!.url, '{{registration.response.headers.Location}}');
    assert.equal(file.requests[3]!.url, '{{baseUrl}}/tire-protection/registrations/{{registration2.response.body.$.id}}/metadata');
    const vars = Object.fromEntries(file.variables.map((v) => [v.name, v.value]));
    assert.equal(vars.invoice, 'A-{{run}}');
    assert.equal(vars.invoice2, 'A-{{run}}-2', 'two invoices of one run never collide');
  });

  it('writes the Partner ID as {{partnerId}}, version 2 under {{v2BaseUrl}} with @company, and drops top-level $ properties', () => {
    const exchanges = [
      x('POST', `${ORIGIN}/v2/partners/P-STORY`, 200, { body: { $schema: 'tpp://schemas/v2-registrations.json', Registrations: [{ ShopID: 'NW-1', InvoiceNumber: 'V2-5', PlanEnrollDate: '2025-06-10T11:00:00Z' }] }, answer: { Registrations: [{ index: 0, status: 'created', statusCode: 201 }] } }),
      x('POST', `${ORIGIN}/v2/partners/P-STORY`, 200, { body: { Claims: [{ ShopID: 'NW-1', InvoiceNumber: 'V2-5', RepairInvoiceNumber: 'R-5' }] }, answer: { Claims: [{ index: 0, status: 'created', statusCode: 201 }] } }),
      x('GET', `${ORIGIN}/v2/partners/P-STORY?rec=registrationstatus&shopid=NW-1&invoicenumber=V2-5&partnerid=P-STORY`, 200, { answer: [] }),
      x('GET', `${V3}/verify-token`, 200, { answer: { partner_id: 'P-STORY', name: 'P-STORY' } }),
      x('GET', `${ORIGIN}/v2/partners/someone-else?rec=sales`, 403, { answer: { error: 'forbidden', statusCode: 403 } }),
    ];
    const file = parsed(recordFlow(exchanges, OPTIONS).text);
    assert.deepEqual(file.requests.map((r) => r.url), ['{{v2BaseUrl}}/v2/partners/{{company}}', '{{v2BaseUrl}}/v2/partners/{{company}}', '{{v2BaseUrl}}/v2/partners/{{company}}?rec=registrationstatus&shopid=NW-1&invoicenumber={{invoice}}&partnerid={{partnerId}}', '{{baseUrl}}/verify-token', '{{v2BaseUrl}}/v2/partners/someone-else?rec=sales']);
    const vars = Object.fromEntries(file.variables.map((v) => [v.name, v.value]));
    assert.equal(vars.company, '{{partnerId}}');
    assert.equal(vars.repairInvoice, 'R-{{run}}');
    const first = JSON.parse((file.requests[0]!.body as { text: string }).text) as Record<string, unknown>;
    assert.equal(first.$schema, undefined, 'payload-file metadata is not sent');
    const claims = JSON.parse((file.requests[1]!.body as { text: string }).text) as { Claims: Record<string, unknown>[] };
    assert.equal(claims.Claims[0]!.InvoiceNumber, '{{invoice}}', "a claim's InvoiceNumber names the registration of this run");
  });

  it('writes no Authorization header, no host and no masked value', () => {
    const flow = recordFlow(story(), OPTIONS);
    const requestLines = parsed(flow.text).requests.map((r) => r.url);
    assert.ok(requestLines.every((u) => u.startsWith('{{')), JSON.stringify(requestLines));
    assert.doesNotMatch(flow.text, /authorization|bearer|\[masked/i);
    assert.ok(parsed(flow.text).requests.every((r) => r.headers.every((h) => h.name === 'Content-Type')));
  });

  it('checks a path outside the contract by its status only, and leaves ?? contract out of an answer that already broke it', () => {
    const exchanges = [x('GET', `${V3}/no-such-thing`, 404, { answer: { error: 'not_found', statusCode: 404 } }), x('GET', `${V3}/verify-token`, 200, { answer: { partner_id: 42 } })];
    const flow = recordFlow(exchanges, OPTIONS);
    const file = parsed(flow.text);
    assert.deepEqual(file.requests.map((r) => r.assertions.map((a) => a.text)), [['status == 404'], ['status == 200']]);
    assert.match(flow.text, /# Not one of the contract's endpoints: its status alone is checked\./);
    assert.match(flow.text, /# \?\? contract is left out: the recorded answer already differed from the contract \(.*partner_id/);
    assert.equal(flow.contractChecks, 0);
  });

  it('refuses, by name, each exchange a flow cannot send again', () => {
    const refused = [
      x('POST', `${V3}/tire-protection/registrations`, 401, { body: registration('B-1') }),
      x('POST', `${V3}/tire-protection/registrations`, 503, { body: registration('B-2') }),
      x('POST', `${V3}/tire-protection/registrations`, 201, { body: registration('B-3'), answer: { id: ID }, diagnosis: [{ rule: 'fault', message: 'scheduled fault #3: 500, after-commit' }] }),
      { ...x('GET', `${V3}/verify-token`, 0), response: undefined, problem: 'ECONNRESET' },
      x('POST', `${V3}/tire-protection/shops`, 204, { body: '{"uniqueId": "S-1", "password": "[masked]"}' }),
      x('POST', `${V3}/tire-protection/registrations`, 415, { body: 'plain text' }),
      x('GET', 'https://elsewhere.example.com/api/v2/things', 200, { answer: {} }),
      x('POST', `${V3}/tire-protection/registrations`, 201, { body: '{"invoiceNumber": "{{x}}"}', answer: { id: ID } }),
    ].map((e) => ({ ...e, env: 'sandbox', source: 'client' as const }));
    const ok = x('GET', `${V3}/verify-token`, 200, { answer: { partner_id: 'P-STORY', name: 'n' } });
    const all = [ok, ...refused];
    let thrown: RecordRefused | undefined;
    try {
      recordFlow(all, { ...OPTIONS, bases: [{ v3: V3 }] });
    } catch (err) {
      thrown = err as RecordRefused;
    }
    assert.ok(thrown instanceof RecordRefused);
    assert.deepEqual(thrown.refusals.map((r) => r.index), [1, 2, 3, 4, 5, 6, 7, 8]);
    const reasons = thrown.refusals.map((r) => r.reason);
    assert.match(reasons[0]!, /401: the runner signs every request/);
    assert.match(reasons[1]!, /answered 503, a failure of the server/);
    assert.match(reasons[2]!, /injected fault \(scheduled fault #3/);
    assert.match(reasons[3]!, /got no answer \(ECONNRESET\)/);
    assert.match(reasons[4]!, /masked value/);
    assert.match(reasons[5]!, /not JSON/);
    assert.match(reasons[6]!, /none of the environment's base addresses/);
    assert.match(reasons[7]!, /carries \{\{/);
    assert.match(thrown.message, /^8 exchanges cannot be sent again by a flow:\n {2}#2 POST \/api\/v3\/tire-protection\/registrations → 401 at /);
    // On purpose only: left out, each named in the header.
    const flow = recordFlow(all, { ...OPTIONS, bases: [{ v3: V3 }], skipRefused: true });
    assert.equal(flow.requests, 1);
    assert.equal(flow.leftOut.length, 8);
    assert.match(flow.text, /# Left out, 8 exchanges a flow cannot send again:\n# {3}#2 POST /);
    parsed(flow.text);
  });

  it('refuses an empty recording', () => {
    assert.throws(() => recordFlow([], OPTIONS), (err: unknown) => err instanceof RecordRefused && /Nothing to record/.test(err.message));
  });

  it('says where it came from and how to run it', () => {
    const flow = recordFlow(story(), { ...OPTIONS, source: 'the journal of tpp sandbox at http://127.0.0.1:43117' });
    const lines = flow.text.split('\n');
    assert.match(lines[0]!, /^# Recorded by the test from the journal of tpp sandbox at http:\/\/127\.0\.0\.1:43117 \(Local\):$/);
    assert.match(lines[1]!, /^# 5 requests sent from 2025-06-10T12:00:\d\d\.000Z to 2025-06-10T12:00:\d\d\.000Z\.$/);
    assert.match(lines[2]!, /^# Run it: tpp run story\.http --env local /);
  });
});
