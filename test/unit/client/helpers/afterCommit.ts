/**
 * The duplicate-safety proof: creates of tire-protection registrations, motor-club
 * registrations and claims sent with `tpp send`'s core (sendFiles) to the real Local sandbox running with
 * `--fault-rate <r> --fault-mode after-commit` (that share of requests is stored, then answered 500), and the
 * sandbox's tables counted afterwards. Used by the unit test (N ≈ 200) and `npm run bench:duplicates` (N = 1,000).
 */
import { createPublicKey } from 'node:crypto';
import { sendFiles, type FileResult } from '../../../../src/core/send/sendFiles';
import { generateKeyMaterial } from '../../../../src/core/jwt/keys';
import { startSandbox } from '../../../../src/core/sandbox/server';

export interface KindStats {
  readonly sent: number;
  /** Files that ended with a 2xx (exit 0). */
  readonly ok: number;
  /** Of those, answers recovered by the duplicate check (the first attempt was stored, its answer lost). */
  readonly recovered: number;
  /** Rows stored by the sandbox for this run. */
  readonly stored: number;
  /** Rows stored more than once for the same record. */
  readonly duplicates: number;
  /** Answers that are not the id stored for the record (should be 0). */
  readonly wrongIds: number;
  readonly failures: readonly string[];
}

export interface ProofResult {
  readonly registrations: KindStats;
  readonly motorClub: KindStats;
  readonly claims: KindStats;
  /** Requests the sandbox answered with an injected 500 after committing them. */
  readonly injected: number;
  /** All requests the sandbox answered. */
  readonly requests: number;
  readonly seconds: number;
}

const PARTNER = 'P-DUP-1';

/** Sends `values` (virtual files) with `parallel` sendFiles runs side by side, as CI jobs would. */
async function sendAll(values: readonly unknown[], parallel: number, common: Omit<Parameters<typeof sendFiles>[1], 'readText'>): Promise<FileResult[]> {
  const names = values.map((_, i) => `mem/${i}.json`);
  const byName = new Map(names.map((n, i) => [n, JSON.stringify(values[i])]));
  const chunks: string[][] = Array.from({ length: parallel }, () => []);
  names.forEach((n, i) => chunks[i % parallel]?.push(n));
  const runs = await Promise.all(chunks.map((files) => sendFiles(files, { ...common, readText: (p) => byName.get(p) ?? '' })));
  const results = new Map(runs.flatMap((r) => r.results).map((r) => [r.file, r]));
  return names.map((n) => results.get(n) as FileResult);
}

const idOf = (r: FileResult): unknown => {
  try {
    return (JSON.parse(r.exchange?.response?.body ?? '{}') as { id?: unknown }).id;
  } catch {
    return undefined;
  }
};

/**
 * Runs the proof with `n` creates of each kind.
 * @param faultRate share of requests stored then answered 500 (0.3: the rate docs/sending.md's proof runs under).
 */
export async function runDuplicateProof(n: number, faultRate = 0.3, seed = 20261123, parallel = 16): Promise<ProofResult> {
  const key = await generateKeyMaterial('P-256');
  const spkiPem = createPublicKey(key.pkcs8Pem).export({ type: 'spki', format: 'pem' }).toString();
  let injected = 0;
  let requests = 0;
  const sb = await startSandbox({
    partners: [{ id: PARTNER, spkiPem }],
    faults: { errorRate: faultRate, mode: 'after-commit', seed },
    log: (line) => {
      requests++;
      if (/ 500 [\d.]+ms$/.test(line)) injected++;
    },
  });
  const t0 = performance.now();
  try {
    const common = {
      baseUrls: { v3: sb.v3BaseUrl, v2: sb.v2BaseUrl, eligibility: sb.eligibilityBaseUrl },
      partnerId: PARTNER,
      privateKeyPem: key.pkcs8Pem,
      retry: { maxAttempts: 30, maxTotalMs: 120_000, baseDelayMs: 2, maxDelayMs: 40 },
    };
    const run = `${Date.now().toString(36)}`;
    const tire = { make: 'Michelin', model: 'Defender', size: '275/65R18', retailPrice: 199.99 };
    const regs = Array.from({ length: n }, (_, i) => ({
      $schema: 'tpp://schemas/tire-protection-registration.json',
      product_id: 'TPP-STANDARD',
      invoiceNumber: `DUP-${run}-${i}`,
      enrollDate: '2025-03-01',
      customer: { name: `Customer ${i}`, email: `c${i}@example.com` },
      vehicle: { year: 2021, make: 'Ford', model: 'F-150' },
      tires: [tire, tire, tire, tire],
    }));
    const regResults = await sendAll(regs, parallel, common);
    const mcs = Array.from({ length: n }, (_, i) => ({
      $schema: 'tpp://schemas/motor-club-registration.json',
      product_id: 'MC-STANDARD',
      invoiceNumber: `MC-${run}-${i}`,
      enrollDate: '2025-03-01',
      customer: { name: `Member ${i}`, phone: '+15555550100', email: `m${i}@example.com`, address: { line1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' } },
    }));
    const mcResults = await sendAll(mcs, parallel, common);
    const regIds = regResults.map(idOf);
    const claims = regIds.map((id, i) => ({
      $schema: 'tpp://schemas/tire-protection-claim.json',
      $registrationId: String(id ?? 'REGISTRATION-ID'),
      serviceInvoiceNumber: `RO-${run}-${i}`,
      serviceInvoiceDate: '2025-08-19',
      vehicleMileage: 15870 + i,
      damageReason: 'Road hazard',
      damageDescription: 'Nail in shoulder',
      authorizedAmount: 189.99,
      tires: [{ original: { make: 'Michelin', model: 'Defender', size: '275/65R18' } }],
    }));
    const claimResults = await sendAll(claims, parallel, common);
    const seconds = (performance.now() - t0) / 1000;

    const q = async (sql: string) => (await sb.context.db.query<{ stored: number; distinct_keys: number }>(sql, [PARTNER, `%-${run}-%`])).rows[0] ?? { stored: 0, distinct_keys: 0 };
    const regRows = await q(`SELECT count(*)::int AS stored, count(DISTINCT invoice_number)::int AS distinct_keys FROM tpp.registrations WHERE partner = $1 AND invoice_number LIKE $2`);
    const mcRows = await q(`SELECT count(*)::int AS stored, count(DISTINCT invoice_number)::int AS distinct_keys FROM tpp.motor_club WHERE partner = $1 AND invoice_number LIKE $2`);
    const claimRows = await q(`SELECT count(*)::int AS stored, count(DISTINCT (registration, body->>'serviceInvoiceNumber'))::int AS distinct_keys FROM tpp.claims WHERE partner = $1 AND body->>'serviceInvoiceNumber' LIKE $2`);
    const storedIds = async (sql: string) => new Map((await sb.context.db.query<{ k: string; id: string }>(sql, [PARTNER, `%-${run}-%`])).rows.map((r) => [r.k, String(r.id)]));
    const regIdByInvoice = await storedIds(`SELECT invoice_number AS k, id FROM tpp.registrations WHERE partner = $1 AND invoice_number LIKE $2`);
    const mcIdByInvoice = await storedIds(`SELECT invoice_number AS k, id FROM tpp.motor_club WHERE partner = $1 AND invoice_number LIKE $2`);
    const claimIdByInvoice = await storedIds(`SELECT body->>'serviceInvoiceNumber' AS k, id::text AS id FROM tpp.claims WHERE partner = $1 AND body->>'serviceInvoiceNumber' LIKE $2`);

    const stats = (results: FileResult[], rows: { stored: number; distinct_keys: number }, keyOf: (i: number) => string, ids: Map<string, string>): KindStats => ({
      sent: results.length,
      ok: results.filter((r) => r.exitCode === 0).length,
      recovered: results.filter((r) => r.exchange?.recovered).length,
      stored: rows.stored,
      duplicates: rows.stored - rows.distinct_keys,
      wrongIds: results.filter((r, i) => r.exitCode === 0 && String(idOf(r)) !== ids.get(keyOf(i))).length,
      failures: results.filter((r) => r.exitCode !== 0).map((r) => r.message),
    });
    return {
      registrations: stats(regResults, regRows, (i) => regs[i]?.invoiceNumber ?? '', regIdByInvoice),
      motorClub: stats(mcResults, mcRows, (i) => mcs[i]?.invoiceNumber ?? '', mcIdByInvoice),
      claims: stats(claimResults, claimRows, (i) => claims[i]?.serviceInvoiceNumber ?? '', claimIdByInvoice),
      injected,
      requests,
      seconds,
    };
  } finally {
    await sb.close();
  }
}
