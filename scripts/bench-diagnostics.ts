// Benchmark of the payload diagnostics pipeline (issue: live schema-driven diagnostics).
//   npm run bench:diagnostics   (npx tsx scripts/bench-diagnostics.ts)
// For generated v2 Registrations documents of about 10 KB, 1 MB and 10 MB, prints the median time of
//   ours:       diagnosePayload (JSON.parse + zod + unknown-key walk + semantic checks + ranges)
//   theirs:     vscode-json-languageservice parseJSONDocument + doValidation with our generated JSON Schema
//   JSON.parse: the floor
// and the ratios ours/theirs and ours/JSON.parse; plus a 1 MB document with 100 scattered errors.
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { jsonSchemaFor, PAYLOAD_KINDS } from '../src/core/contract';
import { diagnosePayload } from '../src/core/diagnostics/payload';

const KIND = 'v2-registrations';
const template = (PAYLOAD_KINDS[KIND].template as { Registrations: Record<string, unknown>[] }).Registrations[0]!;

function registration(i: number): Record<string, unknown> {
  return {
    ...template,
    ShopID: `SHOP-${String(i % 997).padStart(4, '0')}`,
    InvoiceNumber: `INV-${String(i).padStart(8, '0')}`,
    CustomerID: `CUST-${i}`,
    VehicleYear: String(2000 + (i % 25)),
    VehicleMake: 'Ford',
    VehicleModel: 'F-150',
    TireDOT2: 'DOT U2LL LMLR 5108',
  };
}

/** A pretty-printed v2 Registrations document of about `bytes` characters; `errors` problems spread evenly. */
function documentOf(bytes: number, errors = 0): string {
  const sample = JSON.stringify({ $schema: `tpp://schemas/${KIND}.json`, Registrations: Array.from({ length: 10 }, (_, i) => registration(i)) }, null, 2);
  const n = Math.max(1, Math.round((bytes / sample.length) * 10));
  const regs = Array.from({ length: n }, (_, i) => registration(i));
  for (let e = 0; e < errors; e++) {
    const r = regs[Math.floor(((e + 0.5) * n) / errors)]!;
    switch (e % 4) {
      case 0:
        r.ShopID = 'S'.repeat(31);
        break;
      case 1:
        r.TPPPrice = '12.555';
        break;
      case 2:
        r.InvoiceNumer = r.InvoiceNumber;
        break;
      default:
        delete r.CustomerID;
    }
  }
  return JSON.stringify({ $schema: `tpp://schemas/${KIND}.json`, Registrations: regs }, null, 2);
}

const ls = getLanguageService({});
ls.configure({ validate: true, allowComments: false, schemas: [{ uri: `tpp://schemas/${KIND}.json`, fileMatch: ['*.json'], schema: jsonSchemaFor(KIND) }] });

async function median(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function bench(label: string, text: string, runs: number) {
  const doc = TextDocument.create('file:///bench.json', 'json', 1, text);
  const oursProblems = diagnosePayload(text)!.problems.length;
  const theirsProblems = (await ls.doValidation(doc, ls.parseJSONDocument(doc))).length;
  // warm up
  for (let i = 0; i < 3; i++) {
    diagnosePayload(text);
    JSON.parse(text);
  }
  await ls.doValidation(doc, ls.parseJSONDocument(doc));
  const ours = await median(runs, () => diagnosePayload(text));
  const theirs = await median(Math.max(3, Math.ceil(runs / 3)), () => ls.doValidation(doc, ls.parseJSONDocument(doc)));
  const floor = await median(runs, () => JSON.parse(text));
  const mb = text.length / 1e6;
  console.log(
    `${label.padEnd(22)} ${(mb < 0.1 ? `${(text.length / 1e3).toFixed(1)} KB` : `${mb.toFixed(2)} MB`).padStart(9)}` +
      `  ours ${ours.toFixed(2).padStart(8)} ms  theirs ${theirs.toFixed(2).padStart(8)} ms  JSON.parse ${floor.toFixed(2).padStart(7)} ms` +
      `  ours/theirs ${(ours / theirs).toFixed(3)}  ours/JSON.parse ${(ours / floor).toFixed(2)}` +
      `  (${(ours / mb).toFixed(1)} ms/MB; problems ours ${oursProblems}, theirs ${theirsProblems})`,
  );
}

async function main() {
  console.log(`node ${process.version}; medians; theirs = parseJSONDocument + doValidation (vscode-json-languageservice)`);
  await bench('valid', documentOf(10_000), 300);
  await bench('valid', documentOf(1_000_000), 31);
  await bench('valid', documentOf(10_000_000), 9);
  await bench('100 scattered errors', documentOf(1_000_000, 100), 31);
  await bench('100 scattered errors', documentOf(10_000_000, 100), 9);
}

void main();
