import { strict as assert } from 'node:assert';
import { ENDPOINTS, type EndpointDef, type EndpointId, type PayloadKind } from '../../../src/core/contract';
import { BASE_PREFIX, type SandboxHandle } from '../../../src/core/sandbox/server';
import { exampleBodies } from '../../../src/core/variables/exampleBodies';
import { Client, request, startWith } from './helpers';
import { OpenApiCheck, send, templateOf, type Req, type SendOptions } from './openapiCheck';

/**
 * The exported OpenAPI document and the Local sandbox agree on every answer (docs/contract.md, "Status codes per
 * endpoint"): a sweep over every endpoint of the table, each called as it succeeds and as each failure the sandbox
 * gives (401 no token, 400 bad body or query, 404 unknown record, 403 another partner's name, 405 another method,
 * 409 duplicate or state conflict, 413 body over 1 MiB, 415 a body not JSON, and 429, 500, 502, 503, 504 with
 * Retry-After scheduled through the control API); every answer must be declared by its operation with the body and
 * headers it has, read with ajv (JSON Schema 2020-12).
 */

const ELIGIBILITY_TOKEN = 'agree-eligibility-token';
const ex = exampleBodies() as Record<PayloadKind, Record<string, unknown>>;
const FAULTS = [429, 500, 502, 503, 504] as const;

describe('OpenAPI document and Local sandbox: every answer is declared by its operation', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let c: Client;
  let check: OpenApiCheck;
  const statuses = new Set<number>();
  const ids = { old: '', tp: '', mc: '' };
  const shop = ex.shop as { uniqueId: string };
  const run = `${process.pid}-${Date.now().toString(36)}`;
  const inv = (what: string) => `AGREE-${what}-${run}`;

  before(async () => {
    const started = await startWith({ eligibilityToken: ELIGIBILITY_TOKEN });
    sb = started.sb;
    c = started.clients[0] as Client;
    check = await OpenApiCheck.load();
    // A second registration of each product, cancelled by invoice number (the first is cancelled by id).
    const seconds: [EndpointDef, PayloadKind][] = [[ENDPOINTS.createRegistration, 'registration'], [ENDPOINTS.createTireProtectionRegistration, 'tire-protection-registration'], [ENDPOINTS.createMotorClubRegistration, 'motor-club-registration']];
    for (const [def, kind] of seconds) {
      const r = await send(c, ELIGIBILITY_TOKEN, def, { path: def.path, body: { ...ex[kind], invoiceNumber: inv(`${kind}-2`) } });
      assert.ok(r.status < 300, r.text);
    }
  });
  after(async () => {
    await sb?.close();
  });

  const v2Path = `/v2/partners/partner1`;
  const v2Reg = (ex['v2-registrations'].Registrations as Record<string, unknown>[])[0] as Record<string, unknown>;
  /** The request of each endpoint that succeeds, in an order where each finds what it needs (created before read). */
  const ok: Record<EndpointId, () => Req> = {
    verifyToken: () => ({ path: '/verify-token' }),
    createRegistration: () => ({ path: '/registrations', body: { ...ex.registration, invoiceNumber: inv('old') } }),
    listRegistrations: () => ({ path: '/registrations', query: { pageSize: '2', page: '1' } }),
    getRegistration: () => ({ path: `/registrations/${ids.old}` }),
    cancelRegistrationByInvoice: () => ({ path: '/registrations', query: { invoiceNumber: inv('registration-2') }, body: ex.cancellation }),
    cancelRegistration: () => ({ path: `/registrations/${ids.old}`, body: ex.cancellation }),
    createTireProtectionRegistration: () => ({ path: '/tire-protection/registrations', body: { ...ex['tire-protection-registration'], invoiceNumber: inv('tp') } }),
    listTireProtectionRegistrations: () => ({ path: '/tire-protection/registrations', query: { invoiceNumber: inv('tp') } }),
    getTireProtectionRegistration: () => ({ path: `/tire-protection/registrations/${ids.tp}` }),
    getTireProtectionRegistrationMetadata: () => ({ path: `/tire-protection/registrations/${ids.tp}/metadata` }),
    createTireProtectionClaim: () => ({ path: `/tire-protection/registrations/${ids.tp}/claims`, body: ex['tire-protection-claim'] }),
    cancelTireProtectionRegistration: () => ({ path: `/tire-protection/registrations/${ids.tp}`, body: ex.cancellation }),
    cancelTireProtectionRegistrationByInvoice: () => ({ path: '/tire-protection/registrations', query: { invoiceNumber: inv('tire-protection-registration-2') }, body: ex.cancellation }),
    createShop: () => ({ path: '/tire-protection/shops', body: shop }),
    lookupShop: () => ({ path: '/tire-protection/shops/lookup', query: { query: String((shop as Record<string, unknown>).phone) } }),
    updateShop: () => ({ path: `/tire-protection/shops/${encodeURIComponent(shop.uniqueId)}`, body: ex['shop-update'] }),
    addShopPart: () => ({ path: `/tire-protection/shops/${encodeURIComponent(shop.uniqueId)}/parts`, body: ex.part }),
    createTransaction: () => ({ path: '/tire-protection/transactions', body: ex.transaction }),
    createMotorClubRegistration: () => ({ path: '/motor-club/registrations', body: { ...ex['motor-club-registration'], invoiceNumber: inv('mc') } }),
    listMotorClubRegistrations: () => ({ path: '/motor-club/registrations' }),
    getMotorClubRegistration: () => ({ path: `/motor-club/registrations/${ids.mc}` }),
    updateMotorClubCustomer: () => ({ path: `/motor-club/registrations/${ids.mc}`, body: ex['motor-club-customer'] }),
    updateMotorClubCustomerByInvoice: () => ({ path: '/motor-club/registrations', query: { invoiceNumber: inv('mc') }, body: ex['motor-club-customer'] }),
    cancelMotorClubRegistrationByInvoice: () => ({ path: '/motor-club/registrations', query: { invoiceNumber: inv('motor-club-registration-2') }, body: ex.cancellation }),
    cancelMotorClubRegistration: () => ({ path: `/motor-club/registrations/${ids.mc}`, body: ex.cancellation }),
    v2PostRecords: () => ({ path: v2Path, body: ex['v2-registrations'] }),
    v2GetRecords: () => ({ path: v2Path, query: { rec: 'registrationstatus', shopid: String(v2Reg.ShopID), invoicenumber: String(v2Reg.InvoiceNumber) } }),
    eligibilityLookup: () => ({ path: '/vehicle-lookup/roadside/rsa/eligible', query: { vin: '1HGCV1F34KA012345' } }),
  };

  /** The failures to try on `def` besides the generic ones (bad query, unknown record, other partner, more v2 kinds). */
  const extra = (def: EndpointDef, good: Req): [string, Req][] => {
    const out: [string, Req][] = [];
    if (def.pathParams.includes('id')) out.push(['unknown id', { ...good, path: good.path.replace(/\/registrations\/[^/]+/, '/registrations/unknown-registration') }]);
    if (def.pathParams.includes('uniqueId')) out.push(['unknown shop', { ...good, path: good.path.replace(/\/shops\/[^/]+/, '/shops/unknown-shop') }]);
    if (good.query?.invoiceNumber) out.push(['unknown invoice', { ...good, query: { ...good.query, invoiceNumber: 'NO-SUCH-INVOICE' } }]);
    if ('page' in def.query) out.push(['page 0', { ...good, query: { ...good.query, page: '0' } }], ['pageSize over the limit', { ...good, query: { pageSize: '100000' } }]);
    if ('storeNumber' in def.query) out.push(['empty storeNumber', { ...good, query: { ...good.query, invoiceNumber: good.query?.invoiceNumber ?? 'X', storeNumber: '' } }]);
    if (def.id === 'lookupShop') out.push(['no result', { ...good, query: { query: 'nothing-matches-this' } }], ['empty query', { ...good, query: { query: '' } }]);
    if (def.id === 'eligibilityLookup') out.push(['bad vin', { ...good, query: { vin: 'short' } }], ['by plate', { ...good, query: { licensePlate: 'LMN4821', state: 'TX' } }], ['nothing', { ...good, query: {} }]);
    if (def.base === 'v2') out.push(["another partner's name", { ...good, path: '/v2/partners/someone-else' }]);
    if (def.id === 'v2GetRecords') for (const rec of ['registrations', 'claims', 'sales', 'cancellations', 'nope']) out.push([`rec=${rec}`, { ...good, query: { rec } }]);
    if (def.id === 'v2PostRecords') {
      for (const k of ['v2-claims', 'v2-sales', 'v2-cancellations', 'v2-cancellations'] as const) out.push([k, { ...good, body: ex[k] }]);
      const claims = structuredClone(ex['v2-claims']) as { Claims: Record<string, unknown>[] };
      (claims.Claims[0] as Record<string, unknown>).InvoiceNumber = 'NO-SUCH-INVOICE';
      out.push(['claim of an unknown registration', { ...good, body: claims }], ['Registrations: []', { ...good, body: { Registrations: [] } }]);
    }
    return out;
  };

  const sendChecked = async (def: EndpointDef, label: string, req: Req, opts: SendOptions = {}) => {
    const reply = await send(c, ELIGIBILITY_TOKEN, def, req, opts);
    statuses.add(reply.status);
    const problems = check.answerProblems(def, reply);
    assert.deepEqual(problems, [], `${def.id}, ${label}: ${opts.method ?? def.method} ${req.path} -> ${reply.status}`);
    return reply;
  };

  for (const id of Object.keys(ok) as EndpointId[]) {
    const def = ENDPOINTS[id];
    it(`${def.method} ${templateOf(def)} (${id})`, async () => {
      const good = ok[id]();
      const first = await sendChecked(def, 'as it succeeds', good);
      assert.ok(first.status < 300, `${id} succeeds: ${first.status} ${first.text}`);
      if (id === 'createRegistration') ids.old = first.json.id;
      if (id === 'createTireProtectionRegistration') ids.tp = first.json.id;
      if (id === 'createMotorClubRegistration') ids.mc = first.json.id;
      await sendChecked(def, 'again (a duplicate create or cancel: 409; a read: the same)', good);
      await sendChecked(def, 'no token', good, { token: null });
      await sendChecked(def, 'a token of another audience', good, { token: def.base === 'eligibility' ? c.token('v3') : 'not-a-jwt' });
      if (def.body) {
        await sendChecked(def, 'an array body', good, { rawBody: '[]' });
        await sendChecked(def, 'no body', { ...good, body: undefined });
        await sendChecked(def, 'a text body', good, { rawBody: 'hello', contentType: 'text/plain' });
        await sendChecked(def, 'a body over 1 MiB', good, { rawBody: JSON.stringify({ ...(good.body as object), pad: 'x'.repeat(1_100_000) }) });
      }
      for (const [label, req] of extra(def, good)) await sendChecked(def, label, req);
      for (const fault of FAULTS) {
        const scheduledFault = { method: def.method, path: `${BASE_PREFIX[def.base]}${good.path}`, fault, retryAfter: 2 };
        const scheduled = await request('POST', `${sb.origin}/__tpp/faults`, { 'content-type': 'application/json' }, JSON.stringify(scheduledFault));
        assert.equal(scheduled.status, 201, scheduled.text);
        const r = await sendChecked(def, `scheduled fault ${fault}`, good);
        assert.equal(r.status, fault);
      }
      // Another method on the same path: 405.
      await sendChecked(def, 'another method', good, { method: 'PUT' });
    });
  }

  it('reads after every kind was written (v2 records read through version 3 and the reverse) match their operations', async () => {
    const reads: [EndpointDef, Req][] = [
      [ENDPOINTS.listRegistrations, { path: '/registrations', query: { pageSize: '1000' } }],
      [ENDPOINTS.listTireProtectionRegistrations, { path: '/tire-protection/registrations', query: { pageSize: '1000' } }],
      [ENDPOINTS.listMotorClubRegistrations, { path: '/motor-club/registrations', query: { pageSize: '1000' } }],
      ...['registrations', 'registrationstatus', 'claims', 'sales', 'cancellations'].map((rec): [EndpointDef, Req] => [ENDPOINTS.v2GetRecords, { path: v2Path, query: { rec } }]),
    ];
    for (const [def, req] of reads) {
      const r = await sendChecked(def, `read all, ${JSON.stringify(req.query)}`, req);
      assert.equal(r.status, 200, r.text);
      const records = Array.isArray(r.json) ? r.json : r.json.results;
      for (const rec of records.slice(0, 50)) {
        const id = (rec as { _id?: string })._id;
        if (id && def.id === 'listTireProtectionRegistrations') {
          await sendChecked(ENDPOINTS.getTireProtectionRegistration, 'read each', { path: `/tire-protection/registrations/${id}` });
          await sendChecked(ENDPOINTS.getTireProtectionRegistrationMetadata, 'metadata of each', { path: `/tire-protection/registrations/${id}/metadata` });
        }
      }
    }
  });

  it('the sweep saw every status the sandbox gives', () => {
    for (const s of [200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 502, 503, 504]) assert.ok(statuses.has(s), `some answer was ${s}`);
  });
});
