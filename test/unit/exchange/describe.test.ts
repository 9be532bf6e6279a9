// core/exchange/describe.ts: a 400 lists each problem once, saying which side found it (spec: Errors).
import * as assert from 'node:assert/strict';
import { describeExchange } from '../../../src/core/exchange/describe';
import { exchangeEndpoint } from '../../../src/core/exchange/endpoint';
import type { Exchange } from '../../../src/core/exchange/types';

/** A version 2 registration sent with one field, and the Local sandbox's 400 naming `issues` (its error body). */
function answered(issues: { path: string; message: string }[], message = `Invalid body: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`): Exchange {
  const url = 'http://127.0.0.1:1/v2/partners/p1';
  const body = { Registrations: [{ InvoiceNumber: 'INV-1' }] };
  return {
    id: 'i',
    env: 'local',
    source: 'client',
    time: '2026-11-27T10:00:00Z',
    endpoint: exchangeEndpoint('v2PostRecords', url),
    request: { method: 'POST', url, body: JSON.stringify(body) },
    response: { status: 400, body: JSON.stringify({ error: 'bad_request', statusCode: 400, message, issues }) },
    durationMs: 1,
    attempts: 1,
  };
}

describe('a 400 described once per problem', () => {
  it('a field the server and the editor both flag is one line, marked as found by both; the summary message is left out', () => {
    const items = describeExchange(answered([{ path: 'Registrations.0.ShopID', message: 'required field is missing' }]));
    const shop = items.filter((d) => d.rule === 'Registrations.0.ShopID');
    assert.deepEqual(shop.map((d) => d.message), ['Server and editor: ShopID: required field is missing']);
    assert.ok(!items.some((d) => d.rule === 'status'), `no second listing in the server's summary: ${JSON.stringify(items)}`);
    const fields = items.map((d) => d.rule);
    assert.equal(new Set(fields).size, fields.length, `each field once: ${JSON.stringify(fields)}`);
    assert.ok(items.filter((d) => d.rule !== 'Registrations.0.ShopID').every((d) => /^Editor: /.test(d.message)), 'the others are the editor’s own');
  });

  it('the server’s own problems stay, marked as the server’s, and a message that is not a summary is kept', () => {
    const items = describeExchange(answered([{ path: 'Registrations.0.Odd', message: 'not allowed here' }], 'The records were refused'));
    assert.deepEqual(items.filter((d) => /^Server: /.test(d.message)).map((d) => d.message), ['Server: The records were refused', 'Server: not allowed here']);
  });
});
