// npm run bench:jwt: time to mint one partner JWT per curve with the toolkit's TokenMinter (key imported
// once per session, a fresh token per request). Prints the first (cold: includes the key import) and the
// steady-state figures per token. Target: under 0.5 ms per ES256 token after the first. BENCH_N=n tokens per curve
// (default 2000; 50 with TPP_BENCH_SMOKE=1, scripts/bench-size.mjs).
import { CURVES } from '../src/core/jwt/algorithms';
import { generateKeyMaterial } from '../src/core/jwt/keys';
import { TokenMinter } from '../src/core/jwt/mint';
import { done, sized } from './bench-size.mjs';

const N = Number(process.env.BENCH_N ?? sized(2000, 50));
const claims = { iss: 'P-1234', aud: 'https://sandbox.example.test/api/v3' };

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${N} tokens per curve\n`);
  console.log('curve  alg    first (ms)  mean (ms)  median (ms)  p95 (ms)  tokens/s');
  for (const curve of CURVES) {
    const key = await generateKeyMaterial(curve);
    const minter = new TokenMinter();
    let t = performance.now();
    await minter.mint(key, claims);
    const first = performance.now() - t;
    for (let i = 0; i < sized(100, 10); i++) await minter.mint(key, claims); // warm-up
    const times: number[] = [];
    const start = performance.now();
    for (let i = 0; i < N; i++) {
      t = performance.now();
      await minter.mint(key, claims);
      times.push(performance.now() - t);
    }
    const total = performance.now() - start;
    times.sort((a, b) => a - b);
    const mean = total / N;
    const median = times[Math.floor(N / 2)]!;
    const p95 = times[Math.floor(N * 0.95)]!;
    const row = [curve.padEnd(6), key.alg.padEnd(6), first.toFixed(3).padStart(10), mean.toFixed(3).padStart(10), median.toFixed(3).padStart(12), p95.toFixed(3).padStart(9), Math.round(1000 / mean).toString().padStart(9)];
    console.log(row.join(' '));
    if (curve === 'P-256') console.log(`       ES256 target < 0.5 ms after the first: ${mean < 0.5 ? 'met' : 'NOT met'} (mean ${mean.toFixed(3)} ms)`);
  }
  done('jwt');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
