import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { ENDPOINTS } from '../../../src/core/contract';
import type { EndpointDef } from '../../../src/core/contract';
import { BASE_PREFIX } from '../../../src/core/sandbox/server';
import type { SandboxHandle } from '../../../src/core/sandbox/server';
import { Client, request, startWith, tpRegistration } from './helpers';

/**
 * Fuzzing: thousands of malformed and random bodies and query strings sent to every endpoint.
 * Never a 5xx, never a crash, always a JSON error body (spec: Errors).
 */
describe('Local sandbox: fuzzing every endpoint', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let c: Client;
  let regId: string;

  before(async () => {
    {
      const started = await startWith({ eligibilityToken: 'fuzz-elig' });
      sb = started.sb;
      [c] = started.clients as [Client];
    }
    regId = (await c.call('POST', '/tire-protection/registrations', tpRegistration('FUZZ-1'))).json.id;
  });
  after(async () => {
    await sb.close();
  });

  const endpoints = Object.values(ENDPOINTS) as EndpointDef[];
  const RUNS = 110; // per endpoint: 28 endpoints x 110 = ~3,000 requests

  const key = fc.oneof(fc.constantFrom('page', 'pageSize', 'invoiceNumber', 'storeNumber', 'query', 'rec', 'shopid', 'ShopID', 'InvoiceNumber', 'partnerid', 'vin', 'licensePlate', 'state', '__proto__', 'constructor'), fc.string({ maxLength: 8 }));
  const value = fc.oneof(fc.string({ maxLength: 20 }), fc.integer().map(String), fc.constantFrom('', '0', '-1', '1e3', '1.5', 'NaN', '%', '%zz', 'registrations', 'claims', '1HGCM82633A004352', 'TX'), fc.string({ unit: 'binary', maxLength: 6 }));
  const queryString = fc.array(fc.tuple(key, value), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
  const rawQuery = fc.oneof(queryString, fc.string({ maxLength: 30 }).map((s) => s.replace(/#/g, '')));
  const validish = (e: EndpointDef) => (e.id.includes('Registration') && e.method === 'POST' ? tpRegistration('FZ') : { cancelledOn: '2025-01-01', customer: { name: 'x' }, Registrations: [{}] });
  const body = (e: EndpointDef) =>
    fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => ({ raw: JSON.stringify(v) })),
      fc.object({ maxDepth: 3 }).map((v) => ({ raw: JSON.stringify(v) ?? 'null' })),
      fc.string({ maxLength: 40 }).map((s) => ({ raw: s })),
      fc.constantFrom('', '{', '[]', 'null', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '{"a":1e999}', '"str"').map((s) => ({ raw: s })),
      fc.record({ k: fc.string({ maxLength: 12 }), v: fc.jsonValue({ maxDepth: 2 }) }).map(({ k, v }) => ({ raw: JSON.stringify({ ...validish(e), [k]: v }) })),
      // counts that expand into objects, huge or out of range, in every v2 record kind and as v3 arrays
      fc.record({ kind: fc.constantFrom('Registrations', 'Claims', 'Cancellations', 'Sales'), n: hugeCount }).map(({ kind, n }) => ({
        raw: JSON.stringify({ [kind]: [{ ShopID: 'S1', InvoiceNumber: `FZ-${n}`, PlanEnrollDate: '2025-01-01', EmployeeID: 'E', CustomerID: 'C', TiresCovered: n, TireClaimCount: n, TireCancelCount: n, TireCount: n, TPPPrice: 1, TireBrand: 'B', TireSize: 'S', TirePrice: 1, TireCost: 1, TireDOT1: 'D', ClaimDate: '2025-01-01', RepairShopID: 'R', RepairInvoiceNumber: 'R', CreditAmount: 1, CostPerUnit: 1, CancelShopID: 'S1', CancelInvoiceNumber: 'C', CancelDate: '2025-01-01', SaleDate: '2025-01-01', TireModel: 'M' }] }),
      })),
      // deep nesting
      fc.integer({ min: 1, max: 50_000 }).map((d) => ({ raw: `{"customer":${'['.repeat(d)}${']'.repeat(d)},"tires":${'{"a":'.repeat(Math.min(d, 5000))}1${'}'.repeat(Math.min(d, 5000))}}` })),
    );
  const hugeCount = fc.oneof(fc.integer(), fc.constantFrom(1000, 1001, 1e9, 1e15, 2 ** 53, -1, 1e308, '1000000000', '9'.repeat(40)));
  const pathParam = fc.oneof(fc.constant('REG'), fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('partner1', 'x', '..', '%2F', 'roadside'));

  for (const e of endpoints) {
    it(`${e.method} ${BASE_PREFIX[e.base]}${e.path}: random input never yields a 5xx or a non-JSON error`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(pathParam, { minLength: e.pathParams.length, maxLength: e.pathParams.length }), rawQuery, body(e), fc.boolean(), async (params, qs, b, withBody) => {
          let path = e.path;
          e.pathParams.forEach((name, i) => {
            const v = params[i] === 'REG' ? regId : (params[i] as string);
            path = path.replace(`:${name}`, encodeURIComponent(v));
          });
          const url = `${sb.origin}${BASE_PREFIX[e.base]}${path}${qs ? `?${qs}` : ''}`;
          const token = e.base === 'eligibility' ? 'fuzz-elig' : c.token(e.base === 'v3' ? 'v3' : 'v2');
          const headers: Record<string, string> = { authorization: `Bearer ${token}` };
          const send = withBody && e.method !== 'GET';
          if (send) headers['content-type'] = 'application/json';
          const r = await request(e.method, url, headers, send ? b.raw : undefined);
          assert.ok(r.status < 500, `${e.method} ${url} ${send ? b.raw : ''} -> ${r.status} ${r.text}`);
          if (r.status >= 400) {
            assert.ok(r.json && typeof r.json.error === 'string' && r.json.statusCode === r.status, `JSON error body for ${url}: ${r.text}`);
          }
        }),
        { numRuns: RUNS, seed: 20261121 },
      );
    });
  }

  it('answers bodies of 10 MB and more with 413, never reading them whole', async () => {
    for (const mb of [10, 30]) {
      const raw = JSON.stringify({ ...tpRegistration('FZ-BIG'), comments: 'x'.repeat(mb * 1024 * 1024) });
      const r = await c.call('POST', '/tire-protection/registrations', undefined, { rawBody: raw });
      assert.equal(r.status, 413);
      assert.equal(r.json.statusCode, 413);
    }
  });

  it('the server is still healthy after the fuzzing', async () => {
    const r = await c.call('GET', '/verify-token');
    assert.equal(r.status, 200);
  });
});
