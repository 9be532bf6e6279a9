// core/exchange/endpoint.ts: Open as Payload File and the endpoint of an exchange.
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../../src/core/exchange/types';
import { endpointOfExchange, exchangeEndpoint, kindOfRequest, payloadTextOf } from '../../../src/core/exchange/endpoint';
import { parseIssuePath } from '../../../src/core/exchange/describe';

function x(method: string, url: string, body?: unknown, endpointId?: string): Exchange {
  return { id: 'i', env: 'local', source: 'sandbox-log', time: '2026-11-23T10:00:00Z', ...(endpointId ? { endpoint: exchangeEndpoint(endpointId, url) } : {}), request: { method, url, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }, durationMs: 1, attempts: 1 };
}

describe('response view: the endpoint of an exchange', () => {
  it('matches method and path when the producer did not name the endpoint (longest template wins)', () => {
    assert.equal(endpointOfExchange(x('POST', 'http://h:1/api/v3/tire-protection/registrations/abc/claims')), 'createTireProtectionClaim');
    assert.equal(endpointOfExchange(x('GET', 'http://h:1/api/v3/tire-protection/registrations/abc')), 'getTireProtectionRegistration');
    assert.equal(endpointOfExchange(x('POST', 'http://h:1/api/v3/tire-protection/registrations')), 'createTireProtectionRegistration');
    assert.equal(endpointOfExchange(x('PUT', 'http://h:1/nothing')), undefined);
  });

  it('picks the version 2 kind by the body’s top-level property', () => {
    assert.equal(kindOfRequest('v2PostRecords', { Claims: [] }), 'v2-claims');
    assert.equal(kindOfRequest('v2PostRecords', { Registrations: [] }), 'v2-registrations');
  });

  it('opens a claim as a payload file with $schema, $registrationId from the path, and the body', () => {
    const text = payloadTextOf(x('POST', 'http://h:1/api/v3/tire-protection/registrations/r%2F1/claims', { claimDate: '2026-01-01', tires: [] }));
    const v = JSON.parse(text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(v).slice(0, 2), ['$schema', '$registrationId']);
    assert.equal(v.$schema, 'tpp://schemas/tire-protection-claim.json');
    assert.equal(v.$registrationId, 'r/1');
    assert.equal(v.claimDate, '2026-01-01');
  });

  it('fills query meta ($invoiceNumber, $storeNumber) and $product of a motor-club cancellation', () => {
    const byInvoice = JSON.parse(payloadTextOf(x('PATCH', 'http://h:1/api/v3/tire-protection/registrations?invoiceNumber=INV-9&storeNumber=S1', { cancelledOn: '2026-01-01T00:00:00Z' }))) as Record<string, unknown>;
    assert.equal(byInvoice.$schema, 'tpp://schemas/cancellation.json');
    assert.equal(byInvoice.$invoiceNumber, 'INV-9');
    assert.equal(byInvoice.$storeNumber, 'S1');
    const mc = JSON.parse(payloadTextOf(x('PATCH', 'http://h:1/api/v3/motor-club/registrations/m1', { cancelledOn: '2026-01-01T00:00:00Z' }))) as Record<string, unknown>;
    assert.equal(mc.$product, 'motor-club');
    assert.equal(mc.$registrationId, 'm1');
  });

  it('refuses a GET, and a body cut at the size cap', () => {
    assert.throws(() => payloadTextOf(x('GET', 'http://h:1/api/v3/tire-protection/registrations/abc')), /no payload body/);
    const cut = x('POST', 'http://h:1/api/v3/tire-protection/registrations', { a: 1 });
    assert.throws(() => payloadTextOf({ ...cut, request: { ...cut.request, truncated: true } }), /64 KB/);
  });

  it('reads field paths of server issues in dotted, bracket and pointer form', () => {
    assert.deepEqual(parseIssuePath('tires[0].size'), ['tires', 0, 'size']);
    assert.deepEqual(parseIssuePath('/customer/email'), ['customer', 'email']);
    assert.deepEqual(parseIssuePath(''), []);
  });
});
