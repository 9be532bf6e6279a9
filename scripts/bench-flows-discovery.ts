// Benchmark of the Test Explorer's flow discovery (docs/flows-editor.md): what FlowIndex.discover() does once the
// workspace's files are listed — read each .http file and parse it with core's parseFlow — through the same
// function the controller calls (parseFlowFiles, src/extension/services/flowDiscovery.ts), on 200 files holding
// 1,000 requests in all, from disk. The editor (findFiles, the test items) is not included. Against it, the floor:
// the least code that could list the requests — read the same files and split them on `###`.
//   npm run bench:discovery      (npx tsx scripts/bench-flows-discovery.ts [--files 200] [--requests 1000] [--runs 10])
//   TPP_BENCH_SMOKE=1 (scripts/bench-size.mjs): 10 files, 50 requests, 2 runs; the target is printed, not judged.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFlowFiles } from '../src/extension/services/flowDiscovery';
import { done, judgeTarget, sized } from './bench-size.mjs';

const TARGET_MS = 500;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** One request of a realistic flow: a named create with a JSON body and assertions, or a read of it. */
function request(file: number, i: number): string {
  if (i % 2 === 0) {
    return [
      `### create ${i}`,
      `# @name reg${i}`,
      'POST {{baseUrl}}/tire-protection/registrations',
      'Content-Type: application/json',
      '',
      '{',
      `  "invoiceNumber": "INV-{{$timestamp}}-${file}-${i}",`,
      '  "enrollDate": "2026-01-15",',
      '  "customer": { "name": "Ava Garcia", "email": "ava@example.com" },',
      '  "vehicle": { "year": 2021, "make": "Toyota", "model": "RAV4" },',
      '  "tires": [{ "make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99 }]',
      '}',
      '',
      '?? status == 201',
      '?? body $.id exists',
      '?? contract',
      '',
    ].join('\n');
  }
  return [`### read ${i}`, `GET {{baseUrl}}/tire-protection/registrations/{{reg${i - 1}.response.body.$.id}}`, '', '?? status == 200', `?? body $.invoiceNumber includes INV-`, '?? duration < 1000', ''].join('\n');
}

/** Writes `files` flow files holding `requests` requests in all; returns the directory. */
function corpus(files: number, requests: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'tpp-bench-flows-'));
  for (let f = 0; f < files; f++) {
    const count = Math.floor(requests / files) + (f < requests % files ? 1 : 0);
    const text = ['@shop = 1042', '', ...Array.from({ length: count }, (_, i) => request(f, i))].join('\n');
    writeFileSync(join(dir, `flow-${String(f).padStart(3, '0')}.http`), text);
  }
  return dir;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function listFlows(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => /\.(http|rest)$/.test(f)).map((f) => join(dir, f));
}

async function main(): Promise<void> {
  const files = Number(arg('--files', sized('200', '10')));
  const requests = Number(arg('--requests', sized('1000', '50')));
  const runs = Number(arg('--runs', sized('10', '2')));
  const dir = corpus(files, requests);
  try {
    const measured: number[] = [];
    const floor: number[] = [];
    let parsedRequests = 0;
    let splitRequests = 0;
    for (let r = 0; r < runs; r++) {
      // Alternated, so neither gets a warmer disk cache or JIT than the other.
      let t = performance.now();
      const flows = await parseFlowFiles(await listFlows(dir), (f) => readFile(f, 'utf8'));
      measured.push(performance.now() - t);
      parsedRequests = flows.reduce((n, f) => n + f.requests.length, 0);
      const problems = flows.reduce((n, f) => n + f.problems.length, 0);
      if (problems) throw new Error(`the corpus should parse without problems; ${problems} found`);
      t = performance.now();
      const texts = await Promise.all((await listFlows(dir)).map((f) => readFile(f, 'utf8')));
      splitRequests = texts.reduce((n, text) => n + text.split(/^###.*$/m).filter((b) => b.trim() && !b.trim().startsWith('@')).length, 0);
      floor.push(performance.now() - t);
    }
    if (parsedRequests !== requests || splitRequests !== requests) throw new Error(`expected ${requests} requests; parsed ${parsedRequests}, split ${splitRequests}`);
    const [first, med, floorMed] = [measured[0] ?? NaN, median(measured), median(floor)];
    console.log(`Flow discovery: ${files} files, ${requests} requests, ${runs} runs; Node ${process.version}`);
    console.log(`  read + parseFlow (the Test Explorer's path): first ${first.toFixed(1)} ms, median ${med.toFixed(1)} ms`);
    console.log(`  floor (read + split on ###):                first ${(floor[0] ?? NaN).toFixed(1)} ms, median ${floorMed.toFixed(1)} ms`);
    console.log(`  ratio (median / floor median): ${(med / floorMed).toFixed(1)}×`);
    const worst = Math.max(first, med);
    console.log(`Target: discovery under ${TARGET_MS} ms — ${worst < TARGET_MS ? 'met' : 'NOT met'} (worst of first and median: ${worst.toFixed(1)} ms).`);
    if (!judgeTarget(worst < TARGET_MS)) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  done('discovery');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
