// routePayload: where a payload file goes (spec: Endpoints; the payload meta data of docs/contract.md).
// Shared by the editor's Send Payload and a command line front, so it is checked here without an editor.
import assert from 'node:assert/strict';
import { PayloadRefused, routePayload, type PayloadRoute } from '../../../src/core/client/route';
import { buildPath, PAYLOAD_KINDS, schemaUri } from '../../../src/core/contract';
import { diagnosePayload } from '../../../src/core/diagnostics';

const template = (kind: keyof typeof PAYLOAD_KINDS): Record<string, unknown> => ({ $schema: schemaUri(kind), ...PAYLOAD_KINDS[kind].template });
const routed = (r: ReturnType<typeof routePayload>): PayloadRoute => {
  assert.ok('route' in r, JSON.stringify(r));
  return r.route;
};

describe('routePayload (spec: Endpoints; payload meta data)', () => {
  it('sends a tire-protection registration to POST /tire-protection/registrations, without its $ properties', () => {
    const r = routed(routePayload(template('tire-protection-registration'), 'a.json'));
    assert.equal(r.endpointId, 'createTireProtectionRegistration');
    assert.equal(r.kind, 'tire-protection-registration');
    assert.deepEqual(r.params, {});
    assert.ok(!Object.keys(r.body as object).some((k) => k.startsWith('$')), JSON.stringify(r.body));
  });

  it('fills :id from $registrationId (claim) and asks for a registration when it is a template placeholder', () => {
    const claim = template('tire-protection-claim');
    const missing = routePayload(claim, 'c.json');
    assert.deepEqual(missing, { missing: { need: 'registration', product: 'tire-protection', byInvoice: false } });
    const r = routed(routePayload(claim, 'c.json', { registrationId: 'reg-1' }));
    assert.equal(r.endpointId, 'createTireProtectionClaim');
    assert.deepEqual(r.params, { id: 'reg-1' });
    const given = routed(routePayload({ ...claim, $registrationId: 'reg-2' }, 'c.json'));
    assert.deepEqual(given.params, { id: 'reg-2' });
  });

  it('refuses . and .. as a path parameter: encodeURIComponent keeps dots, and the claim would go to another endpoint', () => {
    const claim = template('tire-protection-claim');
    for (const id of ['..', '.']) {
      assert.throws(() => routePayload({ ...claim, $registrationId: id }, 'c.json'), (e: unknown) => e instanceof PayloadRefused && /\$registrationId ".*" is not an identifier/.test(e.message));
      assert.throws(() => buildPath('createTireProtectionClaim', { id }), /not an identifier/);
    }
    assert.equal(buildPath('createTireProtectionClaim', { id: '..x' }), '/tire-protection/registrations/..x/claims');
    const problems = diagnosePayload(JSON.stringify({ ...claim, $registrationId: '..' }))?.problems ?? [];
    assert.deepEqual(problems.filter((p) => p.code === 'path-segment').map((p) => [p.severity, p.message]), [['error', '$registrationId: ".." is not an identifier: as a path segment it would address another endpoint']]);
  });

  it('a cancellation by $invoiceNumber (and $storeNumber) picks the ?invoiceNumber= form; $product picks motor club', () => {
    const base = { $schema: schemaUri('cancellation'), cancelledOn: '2025-02-01T10:00:00Z' };
    const tp = routed(routePayload({ ...base, $invoiceNumber: 'INV-1', $storeNumber: 'S-9' }, 'x.json'));
    assert.equal(tp.endpointId, 'cancelTireProtectionRegistrationByInvoice');
    assert.deepEqual(tp.query, { invoiceNumber: 'INV-1', storeNumber: 'S-9' });
    const mc = routed(routePayload({ ...base, $product: 'motor-club', $registrationId: 'm1', $storeNumber: 'S-9' }, 'x.json'));
    assert.equal(mc.endpointId, 'cancelMotorClubRegistration');
    assert.deepEqual(mc.query, {}, 'storeNumber is not a query parameter of this endpoint');
    const byInvoice = routed(routePayload(base, 'x.json', { invoiceNumber: 'INV-2' }));
    assert.equal(byInvoice.endpointId, 'cancelTireProtectionRegistrationByInvoice');
    assert.deepEqual(routePayload(base, 'x.json'), { missing: { need: 'registration', product: 'tire-protection', byInvoice: true } });
  });

  it('asks for the shop of a part without $uniqueId', () => {
    const { $uniqueId: _u, ...part } = template('part');
    assert.deepEqual(routePayload(part, 'p.json'), { missing: { need: 'shop' } });
    assert.deepEqual(routed(routePayload(part, 'p.json', { uniqueId: 'SHOP-7' })).params, { uniqueId: 'SHOP-7' });
  });

  it('refuses what cannot be sent, saying why', () => {
    assert.throws(() => routePayload([], 'a.json'), (e: unknown) => e instanceof PayloadRefused && /one JSON object/.test(e.message));
    assert.throws(() => routePayload({ invoiceNumber: 'x' }, 'a.json'), (e: unknown) => e instanceof PayloadRefused && /no "\$schema"/.test(e.message));
    assert.throws(
      () => routePayload({ $schema: schemaUri('tire-protection-registration'), invoiceNumber: 42 }, 'a.json'),
      (e: unknown) => e instanceof PayloadRefused && /does not match tire-protection-registration/.test(e.message),
    );
    assert.throws(
      () => routePayload({ $schema: schemaUri('cancellation'), cancelledOn: '2025-02-01T10:00:00Z', $product: 'boats', $registrationId: 'r' }, 'a.json'),
      (e: unknown) => e instanceof PayloadRefused && /unknown \$product/.test(e.message),
    );
    // The motor-club PATCH forms share a path: a body with both customer and cancelledOn is not sent (either way).
    assert.throws(
      () => routePayload({ ...template('motor-club-customer'), $registrationId: 'r', cancelledOn: '2025-02-01' }, 'a.json'),
      (e: unknown) => e instanceof PayloadRefused && /cancelledOn: a customer update and a cancellation are separate requests/.test(e.message),
    );
    assert.throws(
      () => routePayload({ $schema: schemaUri('cancellation'), $product: 'motor-club', $registrationId: 'r', cancelledOn: '2025-02-01', customer: { name: 'A' } }, 'a.json'),
      (e: unknown) => e instanceof PayloadRefused && /customer: a cancellation takes cancelledOn alone/.test(e.message),
    );
  });
});
