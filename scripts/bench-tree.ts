// Benchmark of the Environments tree's first page of registrations with 10,000 stored in the Local sandbox: the
// time from "expand Registrations" to rows, i.e. what RegistrationsFolderNode.children() waits for — one list
// request (a row's metadata is read only when that row is expanded), with a freshly minted ES256 token, over loopback
// to the sandbox running in the same process (as the embedded Local sandbox does in the extension host).
// Rendering by the workbench is not included.
//   npm run bench:tree            (npx tsx scripts/bench-tree.ts [--stored 10000] [--page-sizes 50,100] [--runs 30])
//   TPP_BENCH_SMOKE=1 (scripts/bench-size.mjs): 200 stored, 3 runs.
import { createPartnerClient } from '../src/core/client';
import { generateKeyMaterial, publicKeyPem } from '../src/core/jwt/keys';
import { TokenMinter } from '../src/core/jwt/mint';
import { startSandbox } from '../src/core/sandbox/server';
import { cancelRegistration, createRegistration } from '../src/core/sandbox/ops/registrations';
import { loadRegistrationPage, type ListCall } from '../src/core/listing/registrationPages';
import { done, sized } from './bench-size.mjs';

const PARTNER = 'BENCH-TREE';
const TARGET_MS = 300;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const stored = Number(arg('--stored', sized('10000', '200')));
  const pageSizes = arg('--page-sizes', '50,100').split(',').map(Number);
  const runs = Number(arg('--runs', sized('30', '3')));
  const key = await generateKeyMaterial('P-256');
  const sb = await startSandbox({ partners: [{ id: PARTNER, spkiPem: publicKeyPem(key) }] });
  try {
    const t0 = performance.now();
    // Stored through the sandbox's own operations (no HTTP), like the sample data.
    for (let i = 0; i < stored; i++) {
      const id = await createRegistration(sb.context, PARTNER, 'tire-protection', {
        product_id: 'tire-protection',
        invoiceNumber: `INV-${String(i).padStart(6, '0')}`,
        enrollDate: '2026-01-15',
        customer: { name: 'Ava Garcia', email: 'ava@example.com' },
        vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' },
        tires: [1, 2, 3, 4].map(() => ({ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 })),
      });
      if (i % 7 === 0) await cancelRegistration(sb.context, PARTNER, { id }, '2026-02-01');
    }
    console.log(`Tree benchmark: ${stored.toLocaleString('en-US')} registrations stored in ${((performance.now() - t0) / 1000).toFixed(2)} s; Node ${process.version}`);
    const minter = new TokenMinter();
    const client = createPartnerClient({
      baseUrls: { v3: sb.v3BaseUrl },
      token: () => minter.mint(key, { iss: PARTNER, aud: sb.v3BaseUrl, lifetimeSeconds: 300 }),
    });
    const call: ListCall = (id, params, o) => client.call(id, params, undefined, { query: o.query, signal: o.signal });
    console.log('page size  requests  first (cold) ms  median ms  p95 ms  max ms');
    let worstMedian = 0;
    for (const pageSize of pageSizes) {
      const times: number[] = [];
      let first = NaN;
      for (let r = 0; r < runs; r++) {
        const s = performance.now();
        const page = await loadRegistrationPage(call, { product: 'tire-protection', page: 1, pageSize });
        const ms = performance.now() - s;
        if (page.rows.length !== Math.min(pageSize, stored) || page.rows.some((row) => row.state !== 'Cancelled' && row.state !== 'Not cancelled')) throw new Error(`unexpected page: ${page.rows.length} rows`);
        if (r === 0) first = ms;
        times.push(ms);
      }
      times.sort((a, b) => a - b);
      const median = pct(times, 50);
      if (pageSize === pageSizes[0]) worstMedian = Math.max(worstMedian, median, first);
      console.log(`${String(pageSize).padEnd(10)} ${'1'.padEnd(9)} ${first.toFixed(1).padEnd(16)} ${median.toFixed(1).padEnd(10)} ${pct(times, 95).toFixed(1).padEnd(7)} ${(times.at(-1) ?? NaN).toFixed(1)}`);
    }
    console.log(`Target: first page (default page size ${pageSizes[0]}) in under ${TARGET_MS} ms from expand to rows — ${worstMedian < TARGET_MS ? 'met' : 'NOT met'} (worst of cold and median: ${worstMedian.toFixed(1)} ms).`);
  } finally {
    await sb.close();
  }
  done('tree');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
