import { strict as assert } from 'node:assert';
import { execSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TIRE_COUNT } from '../../../src/core/contract/limits';
import type { SandboxHandle } from '../../../src/core/sandbox/server';
import { Client, mint, request, startWith, tpRegistration, v2Registration } from './helpers';

/**
 * Bounded work and clear faults (docs/sandbox.md, Limits; Faults): no request makes the sandbox allocate or answer in
 * proportion to a number the caller chose; unauthenticated requests are answered 401 before their body is read;
 * a storage failure answers 503 with Retry-After, stores nothing, and the sandbox recovers without a restart.
 */
describe('Local sandbox: limits and faults', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let a: Client;
  const lines: string[] = [];

  before(async () => {
    const started = await startWith({ eligibilityToken: 'elig-secret-123', log: (l) => lines.push(l) });
    sb = started.sb;
    a = started.clients[0] as Client;
  });
  after(async () => sb.close());

  it(`refuses (400) counts that expand into one object per tire beyond ${MAX_TIRE_COUNT}, and serves the limit itself`, async () => {
    for (const n of [MAX_TIRE_COUNT + 1, 1_000_000_000]) {
      const r = await a.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S9', `BIG-${n}`, n)] });
      assert.equal(r.status, 400, r.text);
      assert.match(r.json.message, new RegExp(`at most ${MAX_TIRE_COUNT} tires`));
    }
    assert.equal((await a.call('GET', '/v2/partners/partner1?rec=registrations&invoicenumber=BIG-1001')).json.length, 0, 'nothing stored');
    assert.equal((await a.call('POST', '/v2/partners/partner1', { Registrations: [v2Registration('S9', 'MAX', MAX_TIRE_COUNT)] })).status, 200);
    const id = (await a.call('GET', '/tire-protection/registrations?invoiceNumber=MAX')).json.results[0]._id;
    const read = await a.call('GET', `/tire-protection/registrations/${id}`);
    assert.equal(read.json.tires.length, MAX_TIRE_COUNT);
    const claim = (n: number) => ({ ShopID: 'S9', InvoiceNumber: 'MAX', ClaimDate: '2025-03-01', RepairShopID: 'R1', RepairInvoiceNumber: `R-${n}`, TireClaimCount: n, CreditAmount: 1, CostPerUnit: 1, TireBrand: 'B', TireSize: 'S', TireCost: 1 });
    assert.equal((await a.call('POST', '/v2/partners/partner1', { Claims: [claim(MAX_TIRE_COUNT + 1)] })).status, 400);
  });

  it('answers 401 to an unauthenticated request before reading its body (bad JSON, huge or wrong type)', async () => {
    const url = `${sb.v3BaseUrl}/tire-protection/registrations`;
    for (const [body, type] of [['{not json', 'application/json'], ['x'.repeat(3 * 1024 * 1024), 'application/json'], ['hello', 'text/plain']] as const) {
      const r = await request('POST', url, { 'content-type': type }, body);
      assert.equal(r.status, 401, `${type} ${body.length} bytes`);
      assert.deepEqual(r.json, { error: 'unauthorized', statusCode: 401 });
    }
  });

  it('caps request bodies (413) and answers other media types with 415', async () => {
    const big = await a.call('POST', '/tire-protection/registrations', undefined, { rawBody: JSON.stringify({ ...tpRegistration('HUGE'), comments: 'x'.repeat(10 * 1024 * 1024) }) });
    assert.equal(big.status, 413);
    const text = await a.call('POST', '/tire-protection/registrations', undefined, { rawBody: JSON.stringify(tpRegistration('TXT')), contentType: 'text/plain' });
    assert.equal(text.status, 415);
  });

  it('refuses a version 2 read that would answer more records than its documented maximum', async () => {
    const { sb: big, clients } = await startWith();
    try {
      await big.loadSampleData('P1001', 1100);
      const r = await (clients[0] as Client).call('GET', '/v2/partners/partner1?rec=registrations');
      assert.equal(r.status, 400);
      assert.match(r.json.message, /narrow the query/);
      assert.equal((await (clients[0] as Client).call('GET', '/v2/partners/partner1?rec=registrationstatus&shopid=SHOP1')).status, 200);
    } finally {
      await big.close();
    }
  });

  it('reads and updates a shop whose uniqueId is long, and creates without invoiceNumber do not collide', async () => {
    const uniqueId = 'U'.repeat(2000);
    assert.equal((await a.call('POST', '/tire-protection/shops', { product_id: 'tire-protection', uniqueId, legalName: 'Long Id Tires' })).status, 204);
    assert.equal((await a.call('PATCH', `/tire-protection/shops/${uniqueId}`, { product_id: 'tire-protection', endDate: '2030-01-01' })).status, 204);
    assert.equal((await a.call('POST', `/tire-protection/shops/${uniqueId}/parts`, { product_id: 'tire-protection', partNumber: 'P1', quantity: 1 })).status, 204);
    const mc = { product_id: 'motor-club', enrollDate: '2025-01-01', customer: { name: 'No Invoice', email: 'n@example.com' } };
    const first = await a.call('POST', '/motor-club/registrations', mc);
    const second = await a.call('POST', '/motor-club/registrations', mc);
    assert.deepEqual([first.status, second.status], [201, 201], second.text);
    assert.notEqual(first.json.id, second.json.id);
  });

  it('ignores state and licensePlate when vin is given (eligibility lookup)', async () => {
    const r = await request('GET', `${sb.eligibilityBaseUrl}/vehicle-lookup/rsa-program/rsa/eligible?vin=1HGCM82633A004352&state=Texas&licensePlate=`, { authorization: 'Bearer elig-secret-123' });
    assert.equal(r.status, 200, r.text);
    assert.equal(typeof r.json.isEligible, 'boolean');
  });

  it('never writes a token or an api key into its log', async () => {
    const token = a.token();
    await request('GET', `${sb.v3BaseUrl}/verify-token?apikey=topsecret123`, { authorization: `Bearer ${token}x` });
    await request('GET', `${sb.eligibilityBaseUrl}/vehicle-lookup/p/rsa/eligible?vin=1HGCM82633A004352&apikey=topsecret123`, { authorization: 'Bearer wrong' });
    const bad = mint(a.key, { iss: 'P1001', aud: sb.v3BaseUrl, header: { typ: 'jwt' } });
    assert.equal((await request('GET', `${sb.v3BaseUrl}/verify-token`, { authorization: `Bearer ${bad}` })).status, 401, 'typ must be exactly JWT');
    const log = lines.join('\n');
    assert.ok(lines.some((l) => /401 GET \/api\/v3\/verify-token — typ is "jwt", must be "JWT"/.test(l)), log.slice(-500));
    assert.doesNotMatch(log, /topsecret123/);
    assert.doesNotMatch(log, new RegExp(token.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });

  describe('a full disk', () => {
    const mount = join('/tmp', `tpp-full-${process.pid}`);
    let mounted = false;
    before(function () {
      if (process.platform !== 'linux' || process.getuid?.() !== 0) {
        console.log('      (skipped: mounting a small tmpfs needs Linux and root, as in CI)');
        return this.skip();
      }
      mkdirSync(mount, { recursive: true });
      try {
        execSync(`mount -t tmpfs -o size=96m tmpfs ${mount}`);
        mounted = true;
      } catch (err) {
        console.log(`      (skipped: cannot mount a tmpfs here: ${(err as Error).message.split('\n')[0]})`);
        this.skip();
      }
    });
    after(() => {
      if (mounted) execSync(`umount ${mount}`);
      rmSync(mount, { recursive: true, force: true });
    });

    it('answers writes 503 with Retry-After while full, keeps serving reads, loses no acknowledged write, and takes writes again once space is freed', async () => {
      const { sb: full, clients } = await startWith({ dataDir: join(mount, 'data') });
      const c = clients[0] as Client;
      try {
        const acked: string[] = [];
        for (let i = 0; i < 20; i++) {
          const r = await c.call('POST', '/tire-protection/registrations', tpRegistration(`PRE-${i}`));
          assert.equal(r.status, 201);
          acked.push(r.json.id);
        }
        try {
          execSync(`dd if=/dev/zero of=${join(mount, 'filler')} bs=1M count=200 2>/dev/null`);
        } catch {
          // dd stops at ENOSPC: the disk is full now
        }
        const statuses = new Map<number, number>();
        let retryAfter: string | null = null;
        for (let i = 0; i < 60; i++) {
          const r = await c.call('POST', '/tire-protection/registrations', tpRegistration(`FULL-${i}`));
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 201) acked.push(r.json.id);
          if (r.status === 503) {
            retryAfter = r.headers.get('retry-after');
            assert.match(r.json.message, /storage failure.*Nothing was stored/);
          }
        }
        assert.ok((statuses.get(503) ?? 0) > 0, `no 503 while full: ${JSON.stringify([...statuses])}`);
        assert.ok(!statuses.has(500), 'no 500');
        assert.ok(retryAfter && Number(retryAfter) > 0);
        assert.equal((await c.call('GET', `/tire-protection/registrations/${acked[0]}`)).status, 200, 'reads still served');
        rmSync(join(mount, 'filler'));
        assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('AFTER'))).status, 201, 'writes again without a restart');
        const list = await c.call('GET', '/tire-protection/registrations?pageSize=1000');
        const ids = new Set((list.json.results as { _id: string }[]).map((r) => r._id));
        for (const id of acked) assert.ok(ids.has(id), 'acknowledged write kept');
        assert.equal(list.json.totalRecordCount, acked.length + 1, 'nothing half-stored');
      } finally {
        await full.close();
      }
    });
  });
});
