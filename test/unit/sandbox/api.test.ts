import { strict as assert } from 'node:assert';
import { Client, claim, registration, startWith, tpRegistration, v2Registration, BACKENDS } from './helpers';
import type { SandboxHandle } from '../../../src/core/sandbox/server';

/** Every endpoint of the spec driven over HTTP, with the business rules (spec: Endpoints; Business rules). */
for (const backend of BACKENDS)
  describe(`Local sandbox: endpoints and business rules (${backend.name})`, () => {
  let sb: SandboxHandle;
  let a: Client;
  let b: Client;
  let clock = Date.now();

  beforeEach(async () => {
    clock = Date.now();
    {
      const started = await startWith({ ...(await backend.options()), now: () => clock }, ['ES256', 'ES384']);
      sb = started.sb;
      [a, b] = started.clients as [Client, Client];
    }
    assert.ok(a && b);
    a.now = b.now = () => clock;
  });
  afterEach(async () => {
    await sb.close();
  });

  const create = async (c: Client, inv: string, tires = 4): Promise<string> => {
    const r = await c.call('POST', '/tire-protection/registrations', tpRegistration(inv, tires));
    assert.equal(r.status, 201, r.text);
    assert.equal(typeof r.json.id, 'string');
    return r.json.id as string;
  };

  describe('token verification', () => {
    it('GET /verify-token answers partner_id and name', async () => {
      const r = await a.call('GET', '/verify-token');
      assert.equal(r.status, 200);
      assert.deepEqual(r.json, { partner_id: 'P1001', name: 'partner1' });
    });
  });

  describe('earlier revision /registrations', () => {
    it('creates, reads, lists and cancels by id and by invoice number', async () => {
      const c1 = await a.call('POST', '/registrations', registration('E-1'));
      assert.equal(c1.status, 201);
      const id = c1.json.id as string;
      const g = await a.call('GET', `/registrations/${id}`);
      assert.equal(g.status, 200);
      assert.equal(g.json._id, id);
      assert.equal(g.json.invoiceNumber, 'E-1');
      assert.equal(g.json.cancelledOn, undefined);
      await a.call('POST', '/registrations', registration('E-2'));
      const l = await a.call('GET', '/registrations');
      assert.equal(l.status, 200);
      assert.deepEqual({ ...l.json, results: l.json.results.length }, { results: 2, totalRecordCount: 2, page: 1, pageSize: 100, totalPages: 1 });
      const p1 = await a.call('PATCH', `/registrations/${id}`, { cancelledOn: '2030-01-01' });
      assert.equal(p1.status, 204);
      assert.equal(p1.text, '');
      assert.equal((await a.call('GET', `/registrations/${id}`)).json.cancelledOn, '2030-01-01T00:00:00.000Z');
      const p2 = await a.call('PATCH', '/registrations?invoiceNumber=E-2', { cancelledOn: new Date().toISOString() });
      assert.equal(p2.status, 204);
    });

    it('rejects a duplicate invoice number with 409 and an unknown id with 404', async () => {
      assert.equal((await a.call('POST', '/registrations', registration('D-1'))).status, 201);
      const dup = await a.call('POST', '/registrations', registration('D-1'));
      assert.equal(dup.status, 409);
      assert.equal(dup.json.error, 'conflict');
      assert.equal((await a.call('GET', '/registrations/nope')).status, 404);
      assert.equal((await a.call('PATCH', '/registrations/nope', { cancelledOn: '2030-01-01' })).status, 404);
      assert.equal((await a.call('PATCH', '/registrations?invoiceNumber=none', { cancelledOn: '2030-01-01' })).status, 404);
    });

    it('answers 400 naming every bad field', async () => {
      const r = await a.call('POST', '/registrations', { invoiceNumber: 5, customer: { name: 'x' } });
      assert.equal(r.status, 400);
      assert.equal(r.json.error, 'bad_request');
      const paths = (r.json.issues as { path: string }[]).map((i) => i.path);
      for (const p of ['product_id', 'invoiceNumber', 'enrollDate', 'customer.email', 'tires']) assert.ok(paths.includes(p), `${p} in ${paths.join(',')}`);
    });
  });

  describe('tire-protection registrations', () => {
    it('reads by id with claims, metadata, and cancels once (again: 409)', async () => {
      const id = await create(a, 'T-1');
      const c = await a.call('POST', `/tire-protection/registrations/${id}/claims`, claim(1));
      assert.equal(c.status, 201);
      assert.equal(typeof c.json.id, 'number');
      const g = await a.call('GET', `/tire-protection/registrations/${id}`);
      assert.equal(g.status, 200);
      assert.equal(g.json.program_id, 'local-sandbox-tire-protection');
      assert.equal(g.json.claims.length, 1);
      assert.equal(g.json.claims[0].id, c.json.id);
      const m = await a.call('GET', `/tire-protection/registrations/${id}/metadata`);
      assert.equal(m.status, 200);
      assert.equal(m.json.claimedTiresCount, 1);
      assert.equal(m.json.availableTiresCount, 3);
      assert.equal(m.json.hasTiresToClaim, true);
      assert.equal(m.json.hasTiresToReplace, true);
      assert.equal(m.json.isActive, true);
      const enroll = Date.parse(m.json.enrollDate);
      const exp = new Date(enroll);
      exp.setUTCFullYear(exp.getUTCFullYear() + 3);
      assert.equal(m.json.expirationDate, exp.toISOString());
      assert.equal((await a.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() })).status, 204);
      const again = await a.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() });
      assert.equal(again.status, 409);
      assert.equal(again.json.error, 'conflict');
      // Named as the partner knows it (its invoice number), with the id that was called.
      assert.equal(again.json.message.startsWith(`Registration T-1 (${id}) is already cancelled`), true, again.json.message);
      const m2 = await a.call('GET', `/tire-protection/registrations/${id}/metadata`);
      assert.deepEqual([m2.json.isActive, m2.json.availableTiresCount, m2.json.hasTiresToClaim], [false, 0, false]);
      assert.equal((await a.call('GET', `/tire-protection/registrations/nope/metadata`)).status, 404);
      assert.equal((await a.call('GET', `/tire-protection/registrations/nope`)).status, 404);
    });

    it('claims: 404 unknown, 409 cancelled, 409 expired, 409 when no tires are left', async () => {
      assert.equal((await a.call('POST', '/tire-protection/registrations/nope/claims', claim(1))).status, 404);
      const id = await create(a, 'C-1', 2);
      assert.equal((await a.call('POST', `/tire-protection/registrations/${id}/claims`, claim(3))).status, 409);
      assert.equal((await a.call('POST', `/tire-protection/registrations/${id}/claims`, claim(2))).status, 201);
      const none = await a.call('POST', `/tire-protection/registrations/${id}/claims`, claim(1));
      assert.equal(none.status, 409);
      assert.match(none.json.message, /0 tire\(s\) left/);
      const id2 = await create(a, 'C-2');
      await a.call('PATCH', `/tire-protection/registrations/${id2}`, { cancelledOn: new Date().toISOString() });
      assert.equal((await a.call('POST', `/tire-protection/registrations/${id2}/claims`, claim(1))).status, 409);
      const id3 = await create(a, 'C-3');
      clock += 37 * 31 * 86_400_000; // past the 36-month term
      const expired = await a.call('POST', `/tire-protection/registrations/${id3}/claims`, claim(1));
      assert.equal(expired.status, 409);
      assert.match(expired.json.message, new RegExp(`^Registration C-3 \\(${id3}\\) expired`));
      const cancelExpired = await a.call('PATCH', `/tire-protection/registrations/${id3}`, { cancelledOn: new Date(clock).toISOString() });
      assert.equal(cancelExpired.status, 409, 'program terms forbid cancelling an expired registration');
      const m = await a.call('GET', `/tire-protection/registrations/${id3}/metadata`);
      assert.equal(m.json.isActive, false);
    });

    it('cancels by invoiceNumber, with storeNumber when the invoice number is not unique', async () => {
      const post = await a.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S1', 'DUP'), v2Registration('S2', 'DUP')] });
      assert.equal(post.status, 200, post.text);
      const amb = await a.call('PATCH', '/tire-protection/registrations?invoiceNumber=DUP', { cancelledOn: new Date().toISOString() });
      assert.equal(amb.status, 409);
      assert.match(amb.json.message, /not unique/);
      assert.equal((await a.call('PATCH', '/tire-protection/registrations?invoiceNumber=DUP&storeNumber=S2', { cancelledOn: new Date().toISOString() })).status, 204);
      assert.equal((await a.call('PATCH', '/tire-protection/registrations?invoiceNumber=DUP&storeNumber=S9', { cancelledOn: new Date().toISOString() })).status, 404);
      const st = await a.call('GET', '/v2/partners/partner1?rec=registrationstatus&InvoiceNumber=DUP');
      assert.deepEqual(
        st.json.map((s: { ShopID: string; WarrantyStatus: number }) => [s.ShopID, s.WarrantyStatus]),
        [
          ['S1', 1],
          ['S2', 2],
        ],
      );
      const filtered = await a.call('GET', '/tire-protection/registrations?invoiceNumber=DUP&storeNumber=S1');
      assert.equal(filtered.json.totalRecordCount, 1);
      assert.equal(filtered.json.results[0].storeNumber, 'S1');
      assert.equal((await a.call('GET', '/tire-protection/registrations?storeNumber=S2')).json.totalRecordCount, 1);
      assert.equal((await a.call('GET', '/tire-protection/registrations?invoiceNumber=DUP')).json.totalRecordCount, 2);
      assert.equal((await a.call('PATCH', '/tire-protection/registrations', { cancelledOn: '2030-01-01' })).status, 400, 'invoiceNumber is required');
    });

    it('pages with the envelope, defaults 100/1, 400 on bad paging, max pageSize 1000', async () => {
      for (let i = 0; i < 7; i++) await create(a, `PG-${i}`);
      const p = await a.call('GET', '/tire-protection/registrations?pageSize=3&page=3');
      assert.equal(p.status, 200);
      assert.deepEqual(
        { ...p.json, results: p.json.results.map((r: { invoiceNumber: string }) => r.invoiceNumber) },
        { results: ['PG-6'], totalRecordCount: 7, page: 3, pageSize: 3, totalPages: 3 },
      );
      const beyond = await a.call('GET', '/tire-protection/registrations?pageSize=3&page=9');
      assert.deepEqual([beyond.status, beyond.json.results.length, beyond.json.totalPages], [200, 0, 3]);
      const d = await a.call('GET', '/tire-protection/registrations');
      assert.deepEqual([d.json.page, d.json.pageSize], [1, 100]);
      assert.equal((await a.call('GET', '/tire-protection/registrations?pageSize=1000')).status, 200);
      for (const q of ['pageSize=0', 'pageSize=-1', 'pageSize=1001', 'page=0', 'page=1.5', 'pageSize=abc', 'page=', 'page=1&page=2']) {
        const r = await a.call('GET', `/tire-protection/registrations?${q}`);
        assert.equal(r.status, 400, q);
        assert.match(r.json.issues[0].path, /^query\.(page|pageSize)$/, q);
      }
      assert.equal((await a.call('GET', '/motor-club/registrations?pageSize=0')).status, 400);
      assert.equal((await a.call('GET', '/registrations?page=x')).status, 400);
    });
  });

  describe('shops, parts and transactions', () => {
    const shop = {
      product_id: 'tire-protection',
      placeId: 'place-1',
      uniqueId: 'SHOP-1',
      legalName: 'Acme Tire LLC',
      dba: 'Acme Tire',
      phone: '+1 555 010 0199',
      address: { line1: '12 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' },
      email: 'acme@example.com',
    };

    it('creates (204), rejects a duplicate uniqueId (409), updates, adds parts and looks up', async () => {
      const c = await a.call('POST', '/tire-protection/shops', shop);
      assert.equal(c.status, 204);
      assert.equal((await a.call('POST', '/tire-protection/shops', shop)).status, 409);
      assert.equal((await a.call('PATCH', '/tire-protection/shops/SHOP-1', { endDate: '2030-01-01', email: ['x@example.com'] })).status, 204);
      assert.equal((await a.call('PATCH', '/tire-protection/shops/NOPE', { endDate: '2030-01-01' })).status, 404);
      assert.equal((await a.call('POST', '/tire-protection/shops/SHOP-1/parts', { partNumber: 'P1', quantity: 4, cost: 10.5, date: '2024-01-01' })).status, 204);
      assert.equal((await a.call('POST', '/tire-protection/shops/NOPE/parts', { partNumber: 'P1' })).status, 404);
      assert.equal((await a.call('POST', '/tire-protection/shops/SHOP-1/parts', { quantity: 1.5 })).status, 400);
      const byPhone = await a.call('GET', `/tire-protection/shops/lookup?query=${encodeURIComponent('(555) 010-0199')}`);
      assert.equal(byPhone.status, 200);
      assert.equal(byPhone.json.placeId, 'place-1');
      assert.equal(byPhone.json.location.type, 'Point');
      assert.equal(byPhone.json.location.coordinates.length, 2);
      const byName = await a.call('GET', `/tire-protection/shops/lookup?query=${encodeURIComponent('acme tire, 12 Main St., Springfield IL')}`);
      assert.equal(byName.status, 200);
      assert.equal(byName.json.line1, '12 Main St');
      assert.equal((await a.call('GET', '/tire-protection/shops/lookup?query=Nobody%20Tires%201%20Elm')).status, 404);
      assert.equal((await a.call('GET', '/tire-protection/shops/lookup')).status, 400);
      assert.equal((await b.call('GET', `/tire-protection/shops/lookup?query=${encodeURIComponent('+1 555 010 0199')}`)).status, 404, 'isolated');
    });

    it('records transactions (204) and validates them (400)', async () => {
      assert.equal((await a.call('POST', '/tire-protection/transactions', { make: 'Michelin', quantity: 4, unitPrice: 99.5, isTrailer: false, date: '2024-02-03' })).status, 204);
      const bad = await a.call('POST', '/tire-protection/transactions', { quantity: 'four', isTrailer: 'no', date: 'yesterday' });
      assert.equal(bad.status, 400);
      assert.deepEqual((bad.json.issues as { path: string }[]).map((i) => i.path).sort(), ['date', 'isTrailer', 'quantity'], 'one issue per bad field');
    });
  });

  describe('motor-club registrations', () => {
    const mc = (inv: string) => ({ product_id: 'motor-club', invoiceNumber: inv, enrollDate: '2025-01-02', customer: { name: 'Zoe', phone: '+1 555 0100', email: 'zoe@example.com' } });

    it('creates, reads, lists, updates the customer and cancels (by id and by invoice), telling the PATCH bodies apart', async () => {
      const c = await a.call('POST', '/motor-club/registrations', mc('M-1'));
      assert.equal(c.status, 201);
      const id = c.json.id as string;
      assert.equal((await a.call('POST', '/motor-club/registrations', mc('M-1'))).status, 409);
      await a.call('POST', '/motor-club/registrations', mc('M-2'));
      const l = await a.call('GET', '/motor-club/registrations?pageSize=1&page=2');
      assert.deepEqual([l.json.totalRecordCount, l.json.totalPages, l.json.results[0].invoiceNumber], [2, 2, 'M-2']);
      assert.equal((await a.call('PATCH', `/motor-club/registrations/${id}`, { customer: { name: 'Zoe Q', email: 'zq@example.com' } })).status, 204);
      assert.equal((await a.call('GET', `/motor-club/registrations/${id}`)).json.customer.name, 'Zoe Q');
      assert.equal((await a.call('PATCH', '/motor-club/registrations?invoiceNumber=M-2', { customer: { name: 'Mia' } })).status, 204);
      assert.equal((await a.call('GET', '/motor-club/registrations?pageSize=1&page=2')).json.results[0].customer.name, 'Mia');
      assert.equal((await a.call('PATCH', `/motor-club/registrations/${id}`, { cancelledOn: '2025-06-01' })).status, 204);
      assert.equal((await a.call('GET', `/motor-club/registrations/${id}`)).json.cancelledOn, '2025-06-01T00:00:00.000Z');
      assert.equal((await a.call('PATCH', `/motor-club/registrations/${id}`, { cancelledOn: '2025-06-02' })).status, 409);
      assert.equal((await a.call('PATCH', `/motor-club/registrations/${id}`, { customer: { name: 'Late' } })).status, 409);
      assert.equal((await a.call('PATCH', '/motor-club/registrations?invoiceNumber=M-2', { cancelledOn: '2025-06-01' })).status, 204);
      const neither = await a.call('PATCH', `/motor-club/registrations/${id}`, { foo: 1 });
      assert.equal(neither.status, 400);
      assert.ok(neither.json.issues.length > 0);
      assert.equal((await a.call('GET', '/motor-club/registrations/nope')).status, 404);
      assert.equal((await a.call('PATCH', '/motor-club/registrations/nope', { cancelledOn: '2025-06-01' })).status, 404);
    });
    it('refuses a PATCH body with both customer and cancelledOn (separate requests), naming why, and leaves the record unchanged', async () => {
      const id = (await a.call('POST', '/motor-club/registrations', mc('M-3'))).json.id as string;
      const before = (await a.call('GET', `/motor-club/registrations/${id}`)).json;
      for (const path of [`/motor-club/registrations/${id}`, '/motor-club/registrations?invoiceNumber=M-3']) {
        const both = await a.call('PATCH', path, { customer: { name: 'Other' }, cancelledOn: '2025-06-01' });
        assert.equal(both.status, 400, both.text);
        assert.deepEqual(both.json.issues.map((i: { path: string }) => i.path), ['cancelledOn']);
        assert.match(both.json.message, /separate requests/);
        assert.deepEqual((await a.call('GET', `/motor-club/registrations/${id}`)).json, before, 'neither the customer replaced nor cancelled');
      }
      const neither = await a.call('PATCH', `/motor-club/registrations/${id}`, {});
      assert.equal(neither.status, 400);
      assert.match(neither.json.message, /matches none of the accepted shapes: \{customer\} .* or \{cancelledOn\}/);
      const badDate = await a.call('PATCH', `/motor-club/registrations/${id}`, { cancelledOn: 'soon' });
      assert.equal(badDate.status, 400);
      assert.deepEqual(badDate.json.issues.map((i: { path: string }) => i.path), ['cancelledOn'], 'the cancellation form is named, not a missing customer');
      assert.deepEqual((await a.call('GET', `/motor-club/registrations/${id}`)).json, before);
      assert.equal((await a.call('PATCH', `/motor-club/registrations/${id}`, { cancelledOn: '2025-06-01' })).status, 204, 'the cancellation alone is applied');
    });

    it('refuses a cancellation of any registration that carries a customer', async () => {
      const id = await create(a, 'TP-C1');
      const r = await a.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: '2099-01-01', customer: { name: 'X' } });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), ['customer']);
      assert.equal((await a.call('GET', `/tire-protection/registrations/${id}`)).json.cancelledOn, undefined);
    });
  });

  describe('version 2 records', () => {
    const v2claim = (shop: string, inv: string, repairInv: string, n = 1) => ({
      ShopID: shop,
      InvoiceNumber: inv,
      ClaimDate: '2025-03-01T10:00:00Z',
      RepairShopID: 'R1',
      RepairInvoiceNumber: repairInv,
      TireClaimCount: n,
      CreditAmount: '50.00',
      CostPerUnit: 45,
      ServiceType: 'REPLACE',
      TireBrand: 'Michelin',
      TireSize: '225/65R17',
      TireCost: 120,
    });

    it('resending the same ShopID + InvoiceNumber updates instead of adding', async () => {
      const r1 = await a.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S1', 'V-1', 4)] });
      assert.equal(r1.status, 200);
      assert.equal(r1.json.Registrations[0].status, 'created');
      const r2 = await a.call('POST', '/v2/partners/PARTNER1', { Registrations: [{ ...v2Registration('S1', 'V-1', 6), CommercialVehicle: 'Yes' }] });
      assert.equal(r2.json.Registrations[0].status, 'updated');
      assert.equal(r2.json.Registrations[0].RegistrationID, r1.json.Registrations[0].RegistrationID);
      const regs = await a.call('GET', '/v2/partners/partner1?rec=registrations&shopid=S1');
      assert.equal(regs.json.length, 1);
      assert.equal(regs.json[0].TiresCovered, 6, 'strings converted to numbers');
      assert.equal(regs.json[0].CommercialVehicle, 'true');
      assert.equal(regs.json[0].PartnerID, 1001);
    });

    it('keeps TiresLeft, TireClaimCount, TireCancelCount and WarrantyStatus consistent across v2 and v3', async () => {
      await a.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S1', 'V-2', 4)] });
      const list = await a.call('GET', '/tire-protection/registrations?invoiceNumber=V-2');
      const id = list.json.results[0]._id as string;
      assert.equal(list.json.results[0].tires.length, 4);
      const c1 = await a.call('POST', '/v2/partners/partner1', { Claims: [v2claim('S1', 'V-2', 'R-1', 1)] });
      assert.equal(c1.status, 200, c1.text);
      const resend = await a.call('POST', '/v2/partners/partner1', { Claims: [v2claim('S1', 'V-2', 'R-1', 1)] });
      assert.equal(resend.json.Claims[0].status, 'updated');
      assert.equal((await a.call('POST', `/tire-protection/registrations/${id}/claims`, claim(2))).status, 201);
      let st = (await a.call('GET', '/v2/partners/partner1?rec=registrationstatus&ShopID=S1&InvoiceNumber=V-2')).json[0];
      assert.deepEqual([st.TiresCovered, st.TireClaimCount, st.TireCancelCount, st.TiresLeft, st.WarrantyStatus, st.Message], [4, 3, 0, 1, 1, 'Registration is Active']);
      const m = (await a.call('GET', `/tire-protection/registrations/${id}/metadata`)).json;
      assert.deepEqual([m.claimedTiresCount, m.availableTiresCount], [3, 1]);
      const claims = await a.call('GET', '/v2/partners/partner1?rec=claims&invoicenumber=V-2');
      assert.equal(claims.json.length, 2);
      assert.ok(claims.json.every((c: { TirePrice: unknown; PartnerID: number }) => typeof c.TirePrice === 'number' && c.PartnerID === 1001));
      assert.equal((await a.call('GET', `/tire-protection/registrations/${id}`)).json.claims.length, 2);
      assert.equal((await a.call('POST', `/tire-protection/registrations/${id}/claims`, claim(1))).status, 201);
      st = (await a.call('GET', '/v2/partners/partner1?rec=registrationstatus&invoicenumber=V-2')).json[0];
      assert.deepEqual([st.TiresLeft, st.WarrantyStatus, st.Message], [0, 3, 'No Tires left on Registration']);
      assert.equal((await a.call('GET', `/tire-protection/registrations/${id}/metadata`)).json.hasTiresToClaim, false);
      // v3 cancellation shows as v2 status 2 and a cancellation record
      assert.equal((await a.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: '2099-01-01' })).status, 204);
      st = (await a.call('GET', '/v2/partners/partner1?rec=registrationstatus&invoicenumber=V-2')).json[0];
      assert.deepEqual([st.WarrantyStatus, st.CancelDate], [2, '2099-01-01T00:00:00.000Z']);
      assert.equal((await a.call('GET', '/v2/partners/partner1?rec=cancellations&invoicenumber=V-2')).json.length, 1);
    });

    it('v2 cancellations: identical identity updates, a different one on a cancelled registration is 409', async () => {
      await a.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S1', 'V-3', 4)] });
      const cancel = (inv: string, n: number) => ({ ShopID: 'S1', InvoiceNumber: 'V-3', CancelShopID: 'S1', CancelInvoiceNumber: inv, TireCancelCount: n, CancelDate: '2025-05-05' });
      assert.equal((await a.call('POST', '/v2/partners/partner1', { Cancellations: [cancel('X-1', 2)] })).status, 200);
      const upd = await a.call('POST', '/v2/partners/partner1', { Cancellations: [cancel('X-1', 3)] });
      assert.equal(upd.status, 200);
      assert.equal(upd.json.Cancellations[0].status, 'updated');
      let st = (await a.call('GET', '/v2/partners/partner1?rec=registrationstatus&invoicenumber=V-3')).json[0];
      assert.deepEqual([st.TireCancelCount, st.TiresLeft, st.WarrantyStatus], [3, 1, 2]);
      const other = await a.call('POST', '/v2/partners/partner1', { Cancellations: [cancel('X-2', 1)] });
      assert.equal(other.status, 409);
      assert.equal(other.json.results[0].status, 'rejected');
      st = (await a.call('GET', '/v2/partners/partner1?rec=registrationstatus&invoicenumber=V-3')).json[0];
      assert.equal(st.TireCancelCount, 3);
      const regId = (await a.call('GET', '/tire-protection/registrations?invoiceNumber=V-3')).json.results[0]._id;
      assert.equal((await a.call('PATCH', `/tire-protection/registrations/${regId}`, { cancelledOn: '2025-06-01' })).status, 409);
      const claimed = await a.call('POST', '/v2/partners/partner1', { Claims: [v2claim('S1', 'V-3', 'R-9')] });
      assert.equal(claimed.status, 409, 'no claim on a cancelled registration');
      // Named by its invoice number and the version 2 RegistrationID the partner knows, not the v3 _id.
      const v2Id = (await a.call('GET', '/v2/partners/partner1?rec=registrationstatus&invoicenumber=V-3')).json[0].RegistrationID;
      assert.match(JSON.stringify(claimed.json), new RegExp(`Registration V-3 \\(${v2Id}\\) is cancelled: no claim can be filed`));
      assert.equal((await a.call('POST', '/v2/partners/partner1', { Claims: [v2claim('S1', 'NOPE', 'R-9')] })).status, 404);
    });

    it('sales: stored, resend updates, read back with PartnerID', async () => {
      const sale = { ShopID: 'S1', InvoiceNumber: 'SL-1', SaleDate: '2025-01-01', TireCount: 4, TireBrand: 'Pirelli', TireModel: 'P7', TireSize: '205/55R16', TirePrice: '99.00', TireCost: 60 };
      assert.equal((await a.call('POST', '/v2/partners/partner1', { Sales: [sale] })).status, 200);
      assert.equal((await a.call('POST', '/v2/partners/partner1', { Sales: [{ ...sale, TireCount: 2 }] })).json.Sales[0].status, 'updated');
      const r = await a.call('GET', '/v2/partners/partner1?rec=sales&ShopID=S1&InvoiceNumber=SL-1');
      assert.deepEqual([r.json.length, r.json[0].TireCount, r.json[0].PartnerID], [1, 2, 1001]);
      assert.equal((await a.call('GET', '/v2/partners/partner1?rec=sales&partnerid=9999')).json.length, 0);
      assert.equal((await a.call('GET', '/v2/partners/partner1?rec=sales&partnerid=1001')).json.length, 1);
    });

    it('validates v2 bodies and queries (400), checks the company name (403)', async () => {
      const bad = await a.call('POST', '/v2/partners/partner1', { Registrations: [{ ShopID: 'x'.repeat(26), TiresCovered: 'four', TPPPrice: 1.234 }] });
      assert.equal(bad.status, 400);
      const paths = (bad.json.issues as { path: string }[]).map((i) => i.path);
      for (const p of ['Registrations.0.ShopID', 'Registrations.0.InvoiceNumber', 'Registrations.0.TiresCovered', 'Registrations.0.TPPPrice']) assert.ok(paths.some((x) => x.endsWith(p)), `${p} in ${paths.join(',')}`);
      assert.equal((await a.call('POST', '/v2/partners/partner1', { Other: [] })).status, 400);
      assert.equal((await a.call('GET', '/v2/partners/partner1')).status, 400, 'rec is required');
      assert.equal((await a.call('GET', '/v2/partners/partner1?rec=nope')).status, 400);
      const forbidden = await a.call('GET', '/v2/partners/partner2?rec=registrations');
      assert.equal(forbidden.status, 403);
      assert.equal(forbidden.json.error, 'forbidden');
    });
  });

  describe('eligibility lookup (retired)', () => {
    it('accepts only the dedicated token; vin wins over licensePlate + state', async () => {
      await sb.close();
      {
      const started = await startWith({ ...(await backend.options()), eligibilityToken: 'elig-secret-123' });
      sb = started.sb;
      [a] = started.clients as [Client];
    }
      const path = '/api/v1/vehicle-lookup/roadside/rsa/eligible';
      const vinEven = '1HGCM82633A004352';
      const vinOdd = '1HGCM82633A004351';
      const ok = await a.call('GET', `${path}?vin=${vinEven}`, undefined, { token: 'elig-secret-123' });
      assert.deepEqual([ok.status, ok.json], [200, { isEligible: true }]);
      assert.equal((await a.call('GET', `${path}?vin=${vinOdd}`, undefined, { token: 'elig-secret-123' })).json.isEligible, false);
      const vinWins = await a.call('GET', `${path}?vin=${vinOdd}&licensePlate=ABC124&state=TX`, undefined, { token: 'elig-secret-123' });
      assert.equal(vinWins.json.isEligible, false);
      assert.equal((await a.call('GET', `${path}?licensePlate=ABC124&state=TX`, undefined, { token: 'elig-secret-123' })).json.isEligible, true);
      assert.equal((await a.call('GET', `${path}?licensePlate=ABC124`, undefined, { token: 'elig-secret-123' })).status, 400);
      assert.equal((await a.call('GET', `${path}?licensePlate=ABC124&state=Texas`, undefined, { token: 'elig-secret-123' })).status, 400);
      assert.equal((await a.call('GET', path, undefined, { token: 'elig-secret-123' })).status, 400);
      const jwt = a.token('v3', { aud: `${sb.origin}/api/v1` });
      const refused = await a.call('GET', `${path}?vin=${vinEven}`, undefined, { token: jwt });
      assert.deepEqual([refused.status, refused.json], [401, { error: 'unauthorized', statusCode: 401 }]);
      assert.equal((await a.call('GET', `${path}?vin=${vinEven}`, undefined, { token: 'elig-secret-124' })).status, 401);
      assert.equal((await a.call('GET', `${path}?vin=${vinEven}`, undefined, { token: null })).status, 401);
    });
  });

  describe('isolation and HTTP errors', () => {
    it('a partner never sees or changes another partner’s records', async () => {
      const id = await create(a, 'ISO-1');
      assert.equal((await b.call('GET', `/tire-protection/registrations/${id}`)).status, 404);
      assert.equal((await b.call('GET', `/tire-protection/registrations/${id}/metadata`)).status, 404);
      assert.equal((await b.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: '2030-01-01' })).status, 404);
      assert.equal((await b.call('PATCH', '/tire-protection/registrations?invoiceNumber=ISO-1', { cancelledOn: '2030-01-01' })).status, 404);
      assert.equal((await b.call('POST', `/tire-protection/registrations/${id}/claims`, claim(1))).status, 404);
      assert.equal((await b.call('GET', '/tire-protection/registrations')).json.totalRecordCount, 0);
      assert.equal((await b.call('GET', '/registrations')).json.totalRecordCount, 0);
      assert.equal((await b.call('POST', '/tire-protection/registrations', tpRegistration('ISO-1'))).status, 201, 'same invoice number is fine for another partner');
      assert.equal((await b.call('GET', '/v2/partners/partner2?rec=registrationstatus')).json.length, 1);
      assert.equal((await a.call('GET', `/tire-protection/registrations/${id}/metadata`)).json.isActive, true);
    });

    it('answers JSON errors: 404 unknown path, 405 wrong method, 400 bad JSON, 415 other content types', async () => {
      const nf = await a.call('GET', '/nothing-here');
      assert.deepEqual([nf.status, nf.json.error], [404, 'not_found']);
      const na = await a.call('DELETE', '/tire-protection/registrations/abc');
      assert.deepEqual([na.status, na.json.error], [405, 'method_not_allowed']);
      assert.match(na.headers.get('allow') ?? '', /GET/);
      const bj = await a.call('POST', '/tire-protection/registrations', undefined, { rawBody: '{"invoiceNumber": ' });
      assert.deepEqual([bj.status, bj.json.error], [400, 'bad_request']);
      const ct = await a.call('POST', '/tire-protection/registrations', undefined, { rawBody: 'x=1', contentType: 'application/x-www-form-urlencoded' });
      assert.equal(ct.status, 415);
      assert.deepEqual([ct.json.statusCode, ct.json.error], [415, 'unsupported_media_type']);
      const big = await a.call('POST', '/tire-protection/registrations', undefined, { rawBody: JSON.stringify({ comments: 'x'.repeat(1_100_000) }) });
      assert.deepEqual([big.status, big.json.error], [413, 'payload_too_large']);
      const nobody = await a.call('PATCH', '/tire-protection/registrations/abc');
      assert.equal(nobody.status, 400);
    });
  });
});
