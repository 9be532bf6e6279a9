import { strict as assert } from 'node:assert';
import { ENDPOINTS } from '../../../src/core/contract';
import { MAX_TIRE_COUNT } from '../../../src/core/contract/limits';
import type { SandboxHandle } from '../../../src/core/sandbox/server';
import { Client, startWith, tpRegistration, v2Registration } from './helpers';

/**
 * Nothing silently changed (docs/contract.md, "Tire counts"): a value the Local sandbox takes is read back as sent,
 * and one it cannot store as sent is refused with the field and the rule, the record left as it was.
 */
describe('Local sandbox: values stored as sent or refused with their rule', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let a: Client;

  before(async () => {
    const started = await startWith({});
    sb = started.sb;
    a = started.clients[0] as Client;
  });
  after(async () => sb.close());

  const post = (body: unknown) => a.call('POST', '/v2/partners/partner1', body);
  const status = async (inv: string) => (await a.call('GET', `/v2/partners/partner1?rec=registrationstatus&invoicenumber=${inv}`)).json as Record<string, unknown>[];
  const claim = (inv: string, repairInv: string, n: unknown) => ({ ShopID: 'S1', InvoiceNumber: inv, ClaimDate: '2025-03-01', RepairShopID: 'R1', RepairInvoiceNumber: repairInv, TireClaimCount: n, CreditAmount: 1, CostPerUnit: 1, TireBrand: 'B', TireSize: 'S', TireCost: 1 });
  const cancel = (inv: string, n: unknown) => ({ ShopID: 'S1', InvoiceNumber: inv, CancelShopID: 'S1', CancelInvoiceNumber: `X-${inv}`, TireCancelCount: n, CancelDate: '2025-05-05' });

  it('version 2 TiresCovered: a negative count is refused (400 naming the field and the range), 0 is stored and read back as 0', async () => {
    for (const n of [-2, '-2']) {
      const r = await post({ Registrations: [{ ...v2Registration('S1', 'NEG', 4), TiresCovered: n }] });
      assert.equal(r.status, 400, r.text);
      assert.match(r.json.message, new RegExp(`TiresCovered is -2: the Local sandbox accepts 0 to ${MAX_TIRE_COUNT} tires`));
      assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), ['Registrations.0.TiresCovered']);
    }
    assert.deepEqual(await status('NEG'), [], 'nothing stored');
    assert.equal((await post({ Registrations: [v2Registration('S1', 'ZERO', 0)] })).status, 200);
    assert.equal((await a.call('GET', '/v2/partners/partner1?rec=registrations&invoicenumber=ZERO')).json[0].TiresCovered, 0);
    const [st] = await status('ZERO');
    assert.deepEqual([st?.TiresCovered, st?.TiresLeft, st?.WarrantyStatus], [0, 0, 3]);
  });

  it('version 2 TireClaimCount: a claim of fewer than one tire is refused, not counted as one', async () => {
    assert.equal((await post({ Registrations: [v2Registration('S1', 'CL', 4)] })).status, 200);
    for (const n of [0, -1]) {
      const r = await post({ Claims: [claim('CL', `R-${n}`, n)] });
      assert.equal(r.status, 400, r.text);
      assert.match(r.json.message, new RegExp(`TireClaimCount is ${n}: the Local sandbox accepts 1 to ${MAX_TIRE_COUNT} tires .*at least one tire`));
    }
    assert.deepEqual((await a.call('GET', '/v2/partners/partner1?rec=claims&invoicenumber=CL')).json, []);
    assert.equal((await status('CL'))[0]?.TireClaimCount, 0);
  });

  it('version 2 TireCancelCount: more tires than remain is 409 (not cut down), a negative count 400; what is stored reads back as sent', async () => {
    assert.equal((await post({ Registrations: [v2Registration('S1', 'CA', 4)] })).status, 200);
    assert.equal((await post({ Claims: [claim('CA', 'R-CA', 1)] })).status, 200);
    const over = await post({ Cancellations: [cancel('CA', 4)] });
    assert.equal(over.status, 409, over.text);
    assert.match(over.json.message, /has 3 tire\(s\) left; the cancellation names 4/);
    assert.equal((await post({ Cancellations: [cancel('CA', -1)] })).status, 400);
    let [st] = await status('CA');
    assert.deepEqual([st?.TireCancelCount, st?.TiresLeft, st?.WarrantyStatus], [0, 3, 1], 'not cancelled');
    assert.equal((await post({ Cancellations: [cancel('CA', 3)] })).status, 200);
    [st] = await status('CA');
    assert.deepEqual([st?.TireCancelCount, st?.TiresLeft, st?.WarrantyStatus], [3, 0, 2]);
    assert.equal((await a.call('GET', '/v2/partners/partner1?rec=cancellations&invoicenumber=CA')).json[0].TireCancelCount, 3);
  });

  it('a tire-protection registration posted as {} reads back as sent: no enrolment date, tires or expiry invented', async () => {
    const c = await a.call('POST', '/tire-protection/registrations', {});
    assert.equal(c.status, 201, c.text);
    const id = c.json.id as string;
    const read = await a.call('GET', `/tire-protection/registrations/${id}`);
    assert.deepEqual(read.json, { _id: id, program_id: read.json.program_id, claims: [] }, 'only what every read adds');
    const m = await a.call('GET', `/tire-protection/registrations/${id}/metadata`);
    assert.equal(m.status, 200);
    assert.deepEqual(m.json, { claimedTiresCount: 0, availableTiresCount: 0, hasTiresToClaim: false, hasTiresToReplace: false, isActive: true }, 'no enrollDate, no expirationDate');
    assert.ok(ENDPOINTS.getTireProtectionRegistrationMetadata.responses[200]!.safeParse(m.json).success, "the contract's metadata schema takes it");
    const claimed = await a.call('POST', `/tire-protection/registrations/${id}/claims`, { tires: [{}] });
    assert.equal(claimed.status, 409, 'no tire covered, so none to claim');
    assert.equal((await a.call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: '2025-06-01' })).status, 204, 'cancellable: no enrolment date to precede');
    assert.equal((await a.call('GET', `/tire-protection/registrations/${id}/metadata`)).json.isActive, false);
  });

  it('without an enrolment date, the version 2 status has no PlanEnrollDate and an empty ExpireDate ("empty when not set")', async () => {
    assert.equal((await a.call('POST', '/tire-protection/registrations', { invoiceNumber: 'NO-DATE', tires: [{ make: 'M' }] })).status, 201);
    const [st] = await status('NO-DATE');
    assert.equal(st?.PlanEnrollDate, undefined);
    assert.equal(st?.ExpireDate, '');
    assert.deepEqual([st?.TiresCovered, st?.TiresLeft, st?.WarrantyStatus], [1, 1, 1]);
    assert.equal((await a.call('GET', '/v2/partners/partner1?rec=registrations&invoicenumber=NO-DATE')).json[0].PlanEnrollDate, undefined);
  });

  it('a version 3 claim listing no tires is refused (400 naming tires), not counted as one tire', async () => {
    const id = (await a.call('POST', '/tire-protection/registrations', tpRegistration('TP-NT', 2))).json.id as string;
    for (const body of [{}, { tires: [] }]) {
      const r = await a.call('POST', `/tire-protection/registrations/${id}/claims`, body);
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.json.issues.map((i: { path: string }) => i.path), ['tires']);
      assert.match(r.json.message, /tires is 0: the Local sandbox accepts 1 to/);
    }
    const m = (await a.call('GET', `/tire-protection/registrations/${id}/metadata`)).json;
    assert.deepEqual([m.claimedTiresCount, m.availableTiresCount], [0, 2]);
    assert.deepEqual((await a.call('GET', `/tire-protection/registrations/${id}`)).json.claims, []);
  });

  it('version 2 reads of a version 3 registration and claim carry what was sent and nothing invented (no EmployeeID, TPPPrice, TireCost, CostPerUnit, no empty or zero stand-ins)', async () => {
    const id = (await a.call('POST', '/tire-protection/registrations', { invoiceNumber: 'V3-AS-V2', enrollDate: '2025-06-01', tires: [{ make: 'M' }] })).json.id as string;
    assert.equal((await a.call('POST', `/tire-protection/registrations/${id}/claims`, { tires: [{}] })).status, 201);
    const [reg] = (await a.call('GET', '/v2/partners/partner1?rec=registrations&invoicenumber=V3-AS-V2')).json as Record<string, unknown>[];
    for (const k of ['ShopID', 'EmployeeID', 'TPPPrice', 'TireCost', 'CommercialVehicle', 'CustomerID', 'TireModel', 'TireSize', 'TirePrice', 'TireDOT1']) assert.equal(reg?.[k], undefined, `${k}: ${JSON.stringify(reg)}`);
    assert.deepEqual([reg?.InvoiceNumber, reg?.PlanEnrollDate, reg?.TiresCovered, reg?.TireBrand, reg?.OrgID], ['V3-AS-V2', '2025-06-01', 1, 'M', ''], 'OrgID: "Blank if omitted"');
    const [cl] = (await a.call('GET', '/v2/partners/partner1?rec=claims&invoicenumber=V3-AS-V2')).json as Record<string, unknown>[];
    for (const k of ['CostPerUnit', 'TireCost', 'TirePrice', 'CreditAmount', 'ClaimDate', 'RepairInvoiceNumber', 'TireBrand']) assert.equal(cl?.[k], undefined, `${k}: ${JSON.stringify(cl)}`);
    assert.equal(cl?.TireClaimCount, 1);
  });
});
