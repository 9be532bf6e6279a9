import assert from 'node:assert/strict';
import { ENDPOINTS, EndpointId, buildPath, matchEndpoints, pathParamsOf } from '../../../src/core/contract';
import { SPEC_ENDPOINT_ROWS } from './specTables';

/** Normalises a spec path ({name} or :name; ?invoiceNumber=:invoiceNumber moves into the query). */
function normalise(specPath: string): { path: string; query?: string } {
  const [path, query] = specPath.split('?');
  return { path: (path as string).replace(/\{([^}]+)\}/g, ':$1'), query: query?.split('=')[0] };
}

describe('contract: endpoint table', () => {
  const defs = Object.values(ENDPOINTS);

  it('every endpoint row of the spec is in the table, and nothing else', () => {
    const seen = new Set<string>();
    for (const [method, specPath, deprecated] of SPEC_ENDPOINT_ROWS) {
      const { path, query } = normalise(specPath);
      const matches = defs.filter(
        (d) =>
          d.method === method &&
          d.path === path &&
          (query ? d.query[query]?.required === true : d.query.invoiceNumber?.required !== true),
      );
      assert.ok(matches.length > 0, `${method} ${specPath} missing`);
      for (const m of matches) {
        seen.add(m.id);
        assert.equal(m.deprecated === true, deprecated, `${m.id} deprecated flag`);
      }
    }
    assert.deepEqual(defs.map((d) => d.id).filter((id) => !seen.has(id)), []);
  });

  it('ids are the table keys and pathParams match the template', () => {
    for (const [id, def] of Object.entries(ENDPOINTS)) {
      assert.equal(def.id, id);
      assert.deepEqual(def.pathParams, pathParamsOf(def.path));
    }
    assert.deepEqual(ENDPOINTS.createTireProtectionClaim.pathParams, ['id']);
    assert.deepEqual(ENDPOINTS.v2GetRecords.pathParams, ['company_name']);
    assert.deepEqual(ENDPOINTS.eligibilityLookup.pathParams, ['program']);
  });

  it('list queries: pageSize default 100, page default 1, positive integers from the URL', () => {
    for (const id of ['listRegistrations', 'listTireProtectionRegistrations', 'listMotorClubRegistrations'] as EndpointId[]) {
      const q = ENDPOINTS[id].query;
      assert.equal(q.pageSize?.default, 100);
      assert.equal(q.page?.default, 1);
      assert.equal(q.pageSize?.schema.parse('25'), 25);
      assert.equal(q.page?.schema.parse(2), 2);
      for (const bad of ['0', '-1', '1.5', 'abc', '']) assert.equal(q.page?.schema.safeParse(bad).success, false, bad);
    }
    assert.deepEqual(Object.keys(ENDPOINTS.listTireProtectionRegistrations.query), ['pageSize', 'page', 'invoiceNumber', 'storeNumber']);
  });

  it('PATCH by invoice number: invoiceNumber required; tire protection also takes storeNumber', () => {
    for (const id of ['cancelRegistrationByInvoice', 'cancelTireProtectionRegistrationByInvoice', 'cancelMotorClubRegistrationByInvoice', 'updateMotorClubCustomerByInvoice'] as EndpointId[]) {
      assert.equal(ENDPOINTS[id].query.invoiceNumber?.required, true, id);
    }
    assert.ok(ENDPOINTS.cancelTireProtectionRegistrationByInvoice.query.storeNumber);
    assert.equal(ENDPOINTS.cancelTireProtectionRegistrationByInvoice.query.storeNumber?.required, undefined);
  });

  it('v2 GET query: rec (five kinds), partnerid, shopid, invoicenumber (mixed-case aliases)', () => {
    const q = ENDPOINTS.v2GetRecords.query;
    assert.deepEqual(Object.keys(q), ['rec', 'partnerid', 'shopid', 'invoicenumber']);
    for (const rec of ['registrations', 'registrationstatus', 'claims', 'sales', 'cancellations']) assert.equal(q.rec?.schema.safeParse(rec).success, true);
    assert.equal(q.rec?.schema.safeParse('orders').success, false);
    assert.deepEqual(q.shopid?.aliases, ['ShopID']);
    assert.deepEqual(q.invoicenumber?.aliases, ['InvoiceNumber']);
  });

  it('204 (no body) answers: PATCH cancellations/updates, shop create, part, transaction', () => {
    for (const d of defs) {
      const noBody = d.method === 'PATCH' || ['createShop', 'addShopPart', 'createTransaction'].includes(d.id);
      if (noBody) assert.equal(d.responses[204], null, d.id);
    }
    assert.ok(ENDPOINTS.createTireProtectionRegistration.responses[201]);
    assert.ok(ENDPOINTS.createTireProtectionClaim.responses[409]);
    assert.ok(ENDPOINTS.createShop.responses[409]);
    assert.ok(ENDPOINTS.lookupShop.responses[404]);
  });

  it('api versions, bases and products', () => {
    assert.equal(ENDPOINTS.v2PostRecords.apiVersion, 2);
    assert.equal(ENDPOINTS.v2PostRecords.base, 'v2');
    assert.equal(ENDPOINTS.eligibilityLookup.apiVersion, 1);
    assert.equal(ENDPOINTS.eligibilityLookup.base, 'eligibility');
    assert.equal(ENDPOINTS.verifyToken.product, 'auth');
    for (const d of defs) {
      if (d.path.startsWith('/tire-protection/')) assert.equal(d.product, 'tire-protection', d.id);
      if (d.path.startsWith('/motor-club/')) assert.equal(d.product, 'motor-club', d.id);
      if (d.path.startsWith('/registrations')) assert.equal(d.product, 'registrations', d.id);
      if (d.apiVersion === 3) assert.equal(d.base, 'v3', d.id);
    }
  });

  it('the table is frozen', () => {
    assert.ok(Object.isFrozen(ENDPOINTS));
    assert.ok(Object.isFrozen(ENDPOINTS.verifyToken));
  });
});

describe('contract: buildPath', () => {
  it('fills :name parameters URL-encoded', () => {
    assert.equal(buildPath('getTireProtectionRegistration', { id: '66/14 f?' }), '/tire-protection/registrations/66%2F14%20f%3F');
    assert.equal(buildPath(ENDPOINTS.addShopPart, { uniqueId: 'NW-0142' }), '/tire-protection/shops/NW-0142/parts');
    assert.equal(buildPath('v2GetRecords', { company_name: 'northwind' }, { rec: 'registrationstatus', shopid: 'NW 1' }), '/v2/partners/northwind?rec=registrationstatus&shopid=NW+1');
  });
  it('appends the query, skipping undefined values', () => {
    assert.equal(buildPath('listTireProtectionRegistrations', {}, { pageSize: 100, page: 1, invoiceNumber: undefined }), '/tire-protection/registrations?pageSize=100&page=1');
    assert.equal(buildPath('cancelTireProtectionRegistrationByInvoice', {}, { invoiceNumber: 'INV#1&2' }), '/tire-protection/registrations?invoiceNumber=INV%231%262');
    assert.equal(buildPath('verifyToken', {}, {}), '/verify-token');
  });
  it('throws on a missing or empty path parameter', () => {
    assert.throws(() => buildPath('getRegistration', {}), /Path parameter 'id' is required/);
    assert.throws(() => buildPath('getRegistration', { id: '' }), /'id'/);
  });
});

describe('contract: matchEndpoints', () => {
  it('finds the endpoint and decodes parameters', () => {
    const m = matchEndpoints('get', '/tire-protection/registrations/a%2Fb/metadata');
    assert.deepEqual(m.map((x) => x.def.id), ['getTireProtectionRegistrationMetadata']);
    assert.deepEqual(m[0]?.params, { id: 'a/b' });
  });
  it('returns all PATCH forms that share a path (told apart by the body)', () => {
    assert.deepEqual(matchEndpoints('PATCH', '/motor-club/registrations/x').map((x) => x.def.id).sort(), ['cancelMotorClubRegistration', 'updateMotorClubCustomer']);
    assert.deepEqual(matchEndpoints('GET', '/tire-protection/shops/lookup').map((x) => x.def.id), ['lookupShop']);
    assert.deepEqual(matchEndpoints('DELETE', '/registrations/1'), []);
  });
});
