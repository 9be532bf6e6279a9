/**
 * Duplicate safety (docs/sending.md, Writes that may have landed), against the Local sandbox (src/core/sandbox) with
 * its rate-limit and fault-injection knobs on: 1,000 creates under ≥ 30 % injected 429/5xx and some slow responses
 * end with exactly 1,000 registrations stored, no duplicates, and every call resolved.
 *
 * The sandbox's slow answers are delayed BEFORE processing, and the client's attempt timeout is shorter than
 * the delay: the timed-out create is still processed later, which exercises the invoice check and the
 * recovery from a 409 on the resend.
 */
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { Agent } from 'undici';
import { createPartnerClient, type ResponseOf, type ApiResponse } from '../../../src/core/client';
import { ENDPOINTS } from '../../../src/core/contract';
import { startSandbox, type SandboxHandle } from '../../../src/core/sandbox/server';
import { generateKeyMaterial, type KeyMaterial } from '../../../src/core/jwt/keys';
import { TokenMinter } from '../../../src/core/jwt/mint';

const PARTNER = 'P-CLIENT-1';

const registration = (i: number) => ({
  product_id: 'TPP-1',
  invoiceNumber: `SB-${String(i).padStart(5, '0')}`,
  enrollDate: '2025-03-01',
  customer: { name: `Customer ${i}`, email: `c${i}@example.com` },
  vehicle: { year: 2020, make: 'Ford', model: 'F-150' },
  tires: [{ make: 'Michelin', model: 'Defender', size: '275/65R18', retailPrice: 199.99 }],
});

describe('client: 1,000 creates against the Local sandbox with rate limit and faults on', function () {
  this.timeout(180_000);
  let sandbox: SandboxHandle;
  let key: KeyMaterial;
  let agent: Agent;
  const statuses: number[] = [];
  const lines: string[] = [];
  // The sandbox's clock (and the tokens' iat) moves 3 ms per answer, not with the wall: 333 answers per second against
  // a limit of 250, so the rate limit answers 429 once its bucket has drained however fast this machine sends.
  let now = Date.now();

  before(async () => {
    key = await generateKeyMaterial('P-256');
    const spkiPem = createPublicKey(key.pkcs8Pem).export({ type: 'spki', format: 'pem' }).toString();
    sandbox = await startSandbox({
      partners: [{ id: PARTNER, spkiPem }],
      rateLimitPerSecond: 250,
      now: () => now,
      faults: { errorRate: 0.33, slowRate: 0.03, slowMs: 700, seed: 42 }, // 0.33: the rate applies to every request (check reads too), so creates see about a third
      log: (line) => {
        lines.push(line);
        const m = / (\d{3}) [\d.]+ms$/.exec(line);
        if (m) now += 3; // a request's line (a fault adds a second line, naming it)
        if (m && line.startsWith('POST ')) statuses.push(Number(m[1]));
      },
    });
    agent = new Agent({ connections: 64 });
  });
  after(async () => {
    await agent?.close();
    await sandbox?.close();
  });

  it('the sample registration is valid under the contract (so only injected faults fail)', () => {
    assert.equal(ENDPOINTS.createTireProtectionRegistration.body?.safeParse(registration(1)).success, true);
  });

  it('stores exactly 1,000 registrations, none twice, and resolves every call', async () => {
    const minter = new TokenMinter();
    let tokens = 0;
    const client = createPartnerClient({
      baseUrls: { v3: sandbox.v3BaseUrl },
      token: () => (tokens++, minter.mint(key, { iss: PARTNER, aud: sandbox.v3BaseUrl, now: Math.floor(now / 1000) })),
      dispatcher: agent,
      timeoutMs: 400,
      retry: { maxAttempts: 25, maxTotalMs: 120_000, baseDelayMs: 5, maxDelayMs: 200 },
    });
    const t0 = performance.now();
    const settled: PromiseSettledResult<ApiResponse<ResponseOf<'createTireProtectionRegistration'>>>[] = new Array(1000);
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < 1000) {
          const i = next++;
          settled[i] = await client.call('createTireProtectionRegistration', {}, registration(i)).then(
            (value) => ({ status: 'fulfilled', value }) as const,
            (reason: unknown) => ({ status: 'rejected', reason }) as const,
          );
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;

    const rejected = settled.filter((s) => s.status === 'rejected');
    assert.equal(rejected.length, 0, `rejected: ${rejected.slice(0, 3).map((r) => String((r as PromiseRejectedResult).reason)).join(' | ')}`);
    const responses = settled.map((s) => (s as PromiseFulfilledResult<ApiResponse<ResponseOf<'createTireProtectionRegistration'>>>).value);

    const stored = (await sandbox.context.db.query<{ _id: string; invoiceNumber: string }>('SELECT id AS "_id", invoice_number AS "invoiceNumber" FROM tpp.registrations WHERE partner = $1 ORDER BY position', [PARTNER])).rows;
    assert.equal(stored.length, 1000);
    const byInvoice = new Map(stored.map((r) => [r.invoiceNumber, r._id]));
    assert.equal(byInvoice.size, 1000, 'an invoice number was stored twice');
    responses.forEach((r, i) => assert.equal(r.body.id, byInvoice.get(registration(i).invoiceNumber), `call ${i} got another id`));

    const faults = statuses.filter((s) => s === 429 || s >= 500).length;
    const share = faults / statuses.length;
    const recovered = responses.filter((r) => r.recovered).length;
    const conflicts = statuses.filter((s) => s === 409).length;
    assert.ok(share >= 0.3, `only ${(share * 100).toFixed(1)} % of creates were answered 429/5xx`);
    assert.ok(statuses.filter((s) => s === 429).length > 0, 'the rate limit never answered 429');
    assert.ok(tokens > statuses.length, 'fewer tokens than requests');
    console.log(
      `      sandbox: 1000 creates in ${seconds.toFixed(1)} s; ${statuses.length} POSTs answered, ${faults} (${(share * 100).toFixed(1)} %) 429/5xx ` +
        `(${statuses.filter((s) => s === 429).length} × 429), ${conflicts} × 409 on late resends, ${recovered} recovered by the invoice check; ` +
        `statuses ${JSON.stringify(statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {}))}`,
    );
  });
});
