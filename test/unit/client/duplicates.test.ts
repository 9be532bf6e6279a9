/**
 * Duplicate safety (docs/sending.md, Writes that may have landed; spec: Errors, clients retry 5xx and 429): 1,000
 * creates under 30 % injected 429/5xx and some slow responses end with exactly 1,000 registrations stored, no
 * duplicates, and every call resolved — here against the client's own
 * fault-injecting stand-in server (helpers/faultServer.ts), which also drops answers AFTER the write landed.
 */
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { createPartnerClient, type ResponseOf, type ApiResponse, type TransportEvent } from '../../../src/core/client';
import { startFaultServer, type FaultServer } from './helpers/faultServer';
import { seededRandom } from '../../../src/core/sandbox/realism';

/** Runs `tasks` with at most `limit` in flight; resolves with every task's settled result. */
async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i).then(
        (value) => ({ status: 'fulfilled', value }) as const,
        (reason: unknown) => ({ status: 'rejected', reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

const registration = (i: number) => ({
  product_id: 'TPP-1',
  invoiceNumber: `INV-${String(i).padStart(5, '0')}`,
  enrollDate: '2025-03-01',
  customer: { name: `Customer ${i}`, email: `c${i}@example.com` },
  vehicle: { year: 2020, make: 'Ford', model: 'F-150' },
  tires: [{ make: 'Michelin', model: 'Defender', size: '275/65R18', retailPrice: 199.99 }],
});

describe('client: 1,000 creates under injected faults (own fault server)', function () {
  this.timeout(120_000);
  let fault: FaultServer;
  let agent: Agent;

  before(async () => {
    fault = await startFaultServer(
      {
        errorRate: 0.2, // 429/500/502/503/504 before the write
        errorAfterWriteRate: 0.05, // 500/502/504 after the write landed
        dropAfterWriteRate: 0.05, // connection dropped after the write landed
        dropBeforeRate: 0.02,
        slowRate: 0.05,
        slowMaxMs: 400, // some beyond the 250 ms attempt timeout, after the write
        retryAfterSeconds: 0,
      },
      20261121,
    );
    agent = new Agent({ connections: 64 });
  });
  after(async () => {
    await agent.close();
    await fault.close();
  });

  it('stores exactly 1,000 registrations, none twice, and resolves every call', async () => {
    const events: TransportEvent[] = [];
    let tokens = 0;
    const client = createPartnerClient({
      baseUrls: { v3: fault.baseUrl },
      token: () => `jwt-${++tokens}`,
      dispatcher: agent,
      timeoutMs: 250,
      retry: { maxAttempts: 30, maxTotalMs: 90_000, baseDelayMs: 2, maxDelayMs: 40 },
      random: seededRandom(7),
      onEvent: (e) => events.push(e),
    });
    const t0 = performance.now();
    const settled = await pool(1000, Number(process.env.TPP_CLIENT_CONCURRENCY ?? 50), (i) => client.call('createTireProtectionRegistration', {}, registration(i)));
    const seconds = (performance.now() - t0) / 1000;

    const rejected = settled.filter((s) => s.status === 'rejected');
    assert.equal(rejected.length, 0, `rejected: ${rejected.slice(0, 3).map((r) => String((r as PromiseRejectedResult).reason)).join(' | ')}`);
    const responses = settled.map((s) => (s as PromiseFulfilledResult<ApiResponse<ResponseOf<'createTireProtectionRegistration'>>>).value);

    // Exactly 1,000 stored, one per invoice number.
    assert.equal(fault.records.length, 1000);
    const byInvoice = new Map(fault.records.map((r) => [r.invoiceNumber, r._id]));
    assert.equal(byInvoice.size, 1000, 'an invoice number was stored twice');
    // Every call's id is the id stored for its invoice number.
    responses.forEach((r, i) => assert.equal(r.body.id, byInvoice.get(registration(i).invoiceNumber), `call ${i}`));

    // The faults really happened and were really handled (the test could fail).
    const injected = fault.injected;
    const faults = Object.entries(injected).filter(([k]) => k.startsWith('status') || k.startsWith('drop')).reduce((n, [, v]) => n + v, 0);
    const recovered = responses.filter((r) => r.recovered).length;
    const attempts = responses.reduce((n, r) => n + r.attempts, 0);
    const posts = fault.server.requests.filter((r) => r.method === 'POST').length;
    const gets = fault.server.requests.length - posts;
    assert.ok(faults >= 250, `only ${faults} faults injected`);
    assert.ok(recovered > 0, 'no create was recovered by the invoice check');
    assert.ok((injected.slow ?? 0) > 0, 'no slow answers');
    assert.ok(tokens >= fault.server.requests.length, 'a token was reused');
    console.log(
      `      1000 creates in ${seconds.toFixed(1)} s: ${posts} POSTs, ${gets} check GETs, ${attempts} attempts, ${recovered} recovered; ` +
        `injected ${JSON.stringify(injected)}; ${events.filter((e) => e.type === 'retry').length} retries`,
    );
  });
});
