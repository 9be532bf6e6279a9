/**
 * node scripts/bench-backfill-peer.mjs <v3 base> <pkcs8 key file> <invoice prefix> <rows> <jobs>
 *
 * The peer of `tpp run --data` in bench-backfill.ts: the loop an integrator writes by hand with well-kept libraries
 * (undici, jose), in a process of its own and timed from its start to its exit as `tpp run` is: `<rows>` version 3
 * registration creates, `<jobs>` at a time, a fresh ES256 JWT per request (iss P1, aud the base, 300 s), no journal,
 * no checks, no retry. Exits 1 if any create did not answer 201. `body` is also the bench's own bare client's body.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { importPKCS8, SignJWT } from 'jose';
import { request } from 'undici';

/** The registration of row `n`: the same fields the example flow makes from its CSV row. */
export function body(prefix, n) {
  const tire = (d) => ({ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99, dot: `DOT U2LL LMLR ${d}124` });
  return { product_id: 'tp-road-hazard-36', invoiceNumber: `${prefix}-${n}`, enrollDate: '2025-06-01', customer: { name: `Person ${n}`, email: `p${n}@example.com` }, vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' }, tires: [1, 2, 3, 4].map(tire) };
}

async function main([base, keyFile, prefix, rows, jobs]) {
  const key = await importPKCS8(readFileSync(keyFile, 'utf8'), 'ES256');
  const url = `${base}/tire-protection/registrations`;
  let next = 1;
  let failed = 0;
  await Promise.all(
    Array.from({ length: Number(jobs) }, async () => {
      for (let n = next++; n <= Number(rows); n = next++) {
        const now = Math.floor(Date.now() / 1000);
        const jwt = await new SignJWT({ iss: 'P1', aud: base, iat: now, exp: now + 300 }).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(key);
        const r = await request(url, { method: 'POST', headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' }, body: JSON.stringify(body(prefix, n)) });
        await r.body.dump();
        if (r.statusCode !== 201) failed++;
      }
    }),
  );
  if (failed > 0) {
    process.stderr.write(`${failed} creates did not answer 201\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
