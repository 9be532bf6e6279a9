// Benchmark of the payload diagnostics pipeline (docs/diagnostics.md), which runs as the user types: is it fast enough?
//   npm run bench:diagnostics   (npx tsx scripts/bench-diagnostics.ts)
// For generated v2 Registrations documents of about 10 KB, 1 MB and 10 MB, prints the median time of
//   ours:       what the editor does: diagnosePayload (JSON.parse + zod + unknown-key walk + semantic checks + offsets
//               and fixes), then each problem placed with the document's own line index (TextDocument.positionAt,
//               the same document object theirs uses: VS Code keeps one per open file)
//   ours (CLI): diagnosePayload with each problem's line/character range read (its own line index, as `tpp validate`)
//   theirs:     vscode-json-languageservice parseJSONDocument + doValidation with our generated JSON Schema
//   ajv:        what an integrator's own check costs: JSON.parse + an ajv 8 validator compiled once (outside the
//               timing) from the same JSON Schema, with allErrors (every error, as ours and theirs report)
//   JSON.parse: the floor
// and the ratios ours/theirs, ours/ajv and ours/JSON.parse; plus 1 MB and 10 MB documents with 100 scattered errors.
// Targets, judged on the 1 MB / 100 errors row: ours <= 0.2x theirs and <= 1.5x ajv. With TPP_BENCH_SMOKE=1
// (scripts/bench-size.mjs) the same rows at 10, 20 and 50 KB, a few rounds each.
//
// What ajv does not do that ours does (so ajv is a floor, not an equal): locate each problem in the text (ajv
// gives a JSON pointer only) and offer fixes; warn about unknown properties (the schema does not forbid them)
// and plausibility (semantic.ts); count maxLength in grapheme clusters (ajv counts code points); refuse money
// numbers with more than 2 decimals and impossible calendar dates (2024-02-30) that match the pattern. The
// v2-registrations schema has no `format`, so ajv-formats is not needed; `strict: false` lets ajv ignore the
// editor's own keywords (patternErrorMessage, errorMessage, deprecationMessage).
import { loadavg } from 'node:os';
import Ajv from 'ajv';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { jsonSchemaFor, PAYLOAD_KINDS } from '../src/core/contract';
import { diagnosePayload } from '../src/core/diagnostics/payload';
import { version as AJV_VERSION } from 'ajv/package.json';
import { done, sized } from './bench-size.mjs';

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

const compileStart = performance.now();
const ajvValidate = new Ajv({ allErrors: true, strict: false }).compile(jsonSchemaFor(KIND));
const ajvCompileMs = performance.now() - compileStart;
/** The integrator's check: parse, validate, read the errors. */
function ajvCheck(text: string): number {
  ajvValidate(JSON.parse(text));
  return ajvValidate.errors?.length ?? 0;
}

const medianOf = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * Runs ours (editor and CLI), theirs, ajv and JSON.parse in turn in each round (the order rotating from round to round), so that a
 * busy moment of a shared machine falls on all of them alike; ratios are medians of the rounds' own ratios.
 */
async function bench(label: string, text: string, runs: number) {
  const doc = TextDocument.create('file:///bench.json', 'json', 1, text);
  const oursProblems = diagnosePayload(text)!.problems.length;
  const theirsProblems = (await ls.doValidation(doc, ls.parseJSONDocument(doc))).length;
  const ajvProblems = ajvCheck(text);
  const contenders: Record<'ours' | 'cli' | 'theirs' | 'ajv' | 'floor', () => unknown> = {
    ours: () => {
      let lines = 0;
      for (const p of diagnosePayload(text)!.problems) lines += doc.positionAt(p.start).line + doc.positionAt(p.end).line;
      return lines;
    },
    cli: () => diagnosePayload(text)!.problems.map((p) => p.range),
    theirs: () => ls.doValidation(doc, ls.parseJSONDocument(doc)),
    ajv: () => ajvCheck(text),
    floor: () => JSON.parse(text),
  };
  const names = Object.keys(contenders) as (keyof typeof contenders)[];
  for (let i = 0; i < 3; i++) for (const n of names) await contenders[n](); // warm up
  const times = { ours: [] as number[], cli: [] as number[], theirs: [] as number[], ajv: [] as number[], floor: [] as number[] };
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(round + k) % names.length]!;
      times[n].push(await timed(contenders[n]));
    }
  }
  const ratio = (a: number[], b: number[]) => medianOf(a.map((x, i) => x / b[i]!));
  const [ours, cli, theirs, ajv, floor] = [medianOf(times.ours), medianOf(times.cli), medianOf(times.theirs), medianOf(times.ajv), medianOf(times.floor)];
  const vsTheirs = ratio(times.ours, times.theirs);
  const vsAjv = ratio(times.ours, times.ajv);
  const mb = text.length / 1e6;
  console.log(
    `${label.padEnd(22)} ${(mb < 0.1 ? `${(text.length / 1e3).toFixed(1)} KB` : `${mb.toFixed(2)} MB`).padStart(9)}` +
      `  ours ${ours.toFixed(2).padStart(8)} ms  ours (CLI) ${cli.toFixed(2).padStart(8)} ms  theirs ${theirs.toFixed(2).padStart(8)} ms  ajv ${ajv.toFixed(2).padStart(7)} ms  JSON.parse ${floor.toFixed(2).padStart(7)} ms` +
      `  ours/theirs ${vsTheirs.toFixed(3)}  ours/ajv ${vsAjv.toFixed(2)}  ours/JSON.parse ${ratio(times.ours, times.floor).toFixed(2)}` +
      `  (${(ours / mb).toFixed(1)} ms/MB; problems ours ${oursProblems}, theirs ${theirsProblems}, ajv ${ajvProblems})`,
  );
  return { vsTheirs, vsAjv };
}

async function main() {
  console.log(`node ${process.version}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; each round runs all five in turn; times are medians, ratios medians of each round's ratio; theirs = parseJSONDocument + doValidation (vscode-json-languageservice)`);
  console.log(`ajv = JSON.parse + ajv ${AJV_VERSION} validator (allErrors), compiled once in ${ajvCompileMs.toFixed(1)} ms (not timed below)`);
  const [small, medium, large] = sized([10_000, 1_000_000, 10_000_000], [10_000, 20_000, 50_000]);
  const [many, few] = sized([31, 9], [3, 3]);
  await bench('valid', documentOf(small), sized(300, 5));
  await bench('valid', documentOf(medium), many);
  await bench('valid', documentOf(large), few);
  const judged = documentOf(medium, 100);
  const r = await bench('100 scattered errors', judged, many);
  await bench('100 scattered errors', documentOf(large, 100), few);
  const { vsTheirs, vsAjv } = r;
  const at = `${(judged.length / 1e6).toFixed(2)} MB, 100 errors`;
  console.log(`${at}: ours/theirs ${vsTheirs.toFixed(3)}, target <= 0.2 at 1 MB: ${vsTheirs <= 0.2 ? 'met' : 'NOT met'}`);
  console.log(`${at}: ours/ajv ${vsAjv.toFixed(2)}, target <= 1.5 at 1 MB: ${vsAjv <= 1.5 ? 'met' : 'NOT met'}`);
  done('diagnostics');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
