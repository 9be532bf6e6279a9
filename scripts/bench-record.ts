// Benchmark of recording a flow (docs/flows.md, Recording a flow): `tpp record --sandbox` over a Local sandbox whose
// journal holds 1,000 exchanges (200 stories of an application: create, read, claim, cancel, cancel again, each with
// its own JWT and HTTP client), against what any recorder must do first: read the journal (GET /__tpp/requests) and
// parse it. Printed in parts: reading the journal alone (the floor), turning its entries into exchanges, recordFlow
// itself, the whole command in this process (read, record, write the file), and `tpp record` as a person runs it, its
// own process from the build (dist/cli.js: Node's start and the command's bundle included), which the target is judged
// on. The sandbox runs in this process, idle while timed.
//   npm run bench:record         (node scripts/build.mjs && npx tsx scripts/bench-record.ts [--stories 200] [--runs 7])
//   TPP_BENCH_SMOKE=1 (scripts/bench-size.mjs): 10 stories (50 exchanges), 2 runs; the target is printed, not judged.
import { spawn } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/cli';
import { parseFlow } from '../src/core/flows/parse';
import { generateKeyMaterial, importPrivateKeyPem } from '../src/core/jwt/keys';
import { TokenMinter } from '../src/core/jwt/mint';
import { exchangesOfLog, oneOriginBases, recordFlow } from '../src/core/record';
import { startSandbox } from '../src/core/sandbox/server';
import { done, judgeTarget, sized } from './bench-size.mjs';

const TARGET_MS = 1000;
const PARTNER = 'BENCH-RECORD';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const stories = Number(arg('--stories', sized('200', '10')));
  const runs = Number(arg('--runs', sized('7', '2')));
  const key = await generateKeyMaterial('P-256');
  const sb = await startSandbox({ partners: [{ id: PARTNER, spkiPem: createPublicKey(key.pkcs8Pem).export({ type: 'spki', format: 'pem' }).toString() }] });
  const dir = mkdtempSync(join(tmpdir(), 'tpp-bench-record-'));
  try {
    const signing = importPrivateKeyPem(key.pkcs8Pem);
    const minter = new TokenMinter();
    const call = async (method: string, path: string, body?: unknown) => {
      const token = await minter.mint(signing, { iss: PARTNER, aud: sb.v3BaseUrl });
      const res = await fetch(`${sb.v3BaseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
      const text = await res.text();
      return text ? (JSON.parse(text) as { id?: string }) : {};
    };
    const today = new Date().toISOString().slice(0, 10);
    const tire = { make: 'Michelin', model: 'Defender2', size: '225/65R17' };
    const sent = performance.now();
    for (let s = 0; s < stories; s++) {
      const invoice = `BENCH-${Date.now()}-${s}`;
      const { id } = await call('POST', '/tire-protection/registrations', { product_id: 'tp-road-hazard-36', invoiceNumber: invoice, enrollDate: today, customer: { name: 'Ava Garcia', email: 'ava@example.com' }, vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' }, tires: [{ ...tire, retailPrice: 189.99 }, { ...tire, retailPrice: 189.99 }] });
      await call('GET', `/tire-protection/registrations/${id}`);
      await call('POST', `/tire-protection/registrations/${id}/claims`, { serviceInvoiceNumber: `RO-${invoice}`, serviceInvoiceDate: today, vehicleMileage: 20311, damageReason: 'Road hazard', damageDescription: 'Sidewall cut', authorizedAmount: 189.99, tires: [{ original: tire, replacement: tire }] });
      await call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() });
      await call('PATCH', `/tire-protection/registrations/${id}`, { cancelledOn: new Date().toISOString() });
    }
    const exchanges = stories * 5;
    console.log(`Recording a flow: ${exchanges} exchanges in the journal of a Local sandbox (${stories} stories sent in ${((performance.now() - sent) / 1000).toFixed(1)} s); ${runs} runs; Node ${process.version}`);

    const journalUrl = `${sb.origin}/__tpp/requests?limit=10000`;
    const floor: number[] = [];
    const convert: number[] = [];
    const record: number[] = [];
    const whole: number[] = [];
    const ownProcess: number[] = [];
    const floorProcess: number[] = [];
    // The floor of a command in its own process: Node starts, reads the journal with node:http and parses it.
    const readOnly = `require('node:http').get(${JSON.stringify(journalUrl)}, (r) => { let t = ''; r.setEncoding('utf8').on('data', (c) => (t += c)).on('end', () => JSON.parse(t)); });`;
    const cli = join(__dirname, '..', 'dist', 'cli.js');
    let written = '';
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      const text = await (await fetch(journalUrl)).text();
      const page = JSON.parse(text) as { total: number };
      floor.push(performance.now() - t);
      if (page.total !== exchanges) throw new Error(`the journal holds ${page.total} entries, not ${exchanges}`);
      t = performance.now();
      const read = exchangesOfLog(text, 'the journal').exchanges;
      convert.push(performance.now() - t);
      t = performance.now();
      const flow = recordFlow(read, { source: 'the benchmark', recordedBy: 'bench:record', bases: [oneOriginBases(sb.origin)] });
      record.push(performance.now() - t);
      if (flow.requests !== exchanges) throw new Error(`recorded ${flow.requests} requests, not ${exchanges}`);
      const out = join(dir, `run-${r}.http`);
      const io = { stdout: { write: () => true }, stderr: { write: () => true } };
      t = performance.now();
      const code = await runCli(['record', '--sandbox', sb.origin, '--out', out], io);
      whole.push(performance.now() - t);
      if (code !== 0) throw new Error(`tpp record exited ${code}`);
      written = readFileSync(out, 'utf8');
      // The sandbox answers from this process: it waits for the child, idle, as a sandbox of its own would.
      const timed = (args: string[]) =>
        new Promise<number | null>((resolve) => {
          const c = spawn(process.execPath, args, { stdio: 'ignore' });
          c.on('close', resolve);
        });
      t = performance.now();
      if ((await timed(['-e', readOnly])) !== 0) throw new Error('the journal read alone failed');
      floorProcess.push(performance.now() - t);
      t = performance.now();
      const child = await timed([cli, 'record', '--sandbox', sb.origin, '--out', join(dir, `process-${r}.http`)]);
      ownProcess.push(performance.now() - t);
      if (child !== 0) throw new Error(`tpp record (dist/cli.js) exited ${child}`);
    }
    const parsed = parseFlow(written, 'bench.http');
    if (parsed.problems.length || parsed.requests.length !== exchanges) throw new Error(`the recorded flow should parse with ${exchanges} requests and no problem: ${parsed.requests.length}, ${parsed.problems.length} problems`);
    const f = median(floor);
    const show = (label: string, xs: number[]) => console.log(`  ${label} first ${(xs[0] ?? NaN).toFixed(1)} ms, median ${median(xs).toFixed(1)} ms (${(median(xs) / f).toFixed(1)}× reading the journal)`);
    console.log(`  reading the journal alone (GET /__tpp/requests + JSON.parse, the floor): first ${(floor[0] ?? NaN).toFixed(1)} ms, median ${f.toFixed(1)} ms`);
    show('journal entries to exchanges (exchangesOfLog):                         ', convert);
    show('recordFlow (references, variables, assertions, the text):              ', record);
    show('tpp record --sandbox --out in this process (read, record, write):      ', whole);
    const fp = median(floorProcess);
    console.log(`  a Node process that only reads the journal (node:http GET + JSON.parse): first ${(floorProcess[0] ?? NaN).toFixed(1)} ms, median ${fp.toFixed(1)} ms`);
    console.log(`  tpp record --sandbox --out, its own process (dist/cli.js):              first ${(ownProcess[0] ?? NaN).toFixed(1)} ms, median ${median(ownProcess).toFixed(1)} ms (${(median(ownProcess) / fp).toFixed(1)}× that process)`);
    console.log(`  flow: ${parsed.requests.length} requests, ${(written.length / 1024).toFixed(0)} KiB, ${parsed.requests.filter((q) => q.name).length} named`);
    const worst = Math.max(ownProcess[0] ?? NaN, median(ownProcess));
    console.log(`Target: recording ${exchanges} exchanges within ${TARGET_MS} ms — ${worst <= TARGET_MS ? 'met' : 'NOT met'} (worst of tpp record's first and median run as its own process: ${worst.toFixed(1)} ms).`);
    if (!judgeTarget(worst <= TARGET_MS)) process.exitCode = 1;
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
  done('record');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
