// `npm run bench:cli`: start-up of `tpp validate` on one example file, next to a bare `node -e ''` in the same run.
// The commands run in turn (cold, warm, bare node, cold, warm, bare node, …) after warm-up runs, and each ratio is
// taken run by run against the bare node of the same round, so a machine whose speed drifts during the run moves
// them alike. Two figures, both printed, because a CI job on a fresh machine runs cold:
//   cold: the compile cache (src/cli/compileCache.ts) cleared before the run, as on a first run;
//   warm: the cache filled by the runs before, as on every later run.
// The cache goes to a directory of this run (TPP_COMPILE_CACHE_DIR), removed at the end. Prints min and median wall
// time of each and the median ratios (target ≤ 1.5× warm). RUNS=n sets the number of rounds (default 21; 2 with
// TPP_BENCH_SMOKE=1, scripts/bench-size.mjs, after 1 warm-up round instead of 3).
// Run after a production build (the npm script builds one first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { done, sized } from './bench-size.mjs';

const runs = Number(process.env.RUNS || sized(21, 2));
const warmup = sized(3, 1);
const file = 'examples/tire-protection-registration.json';
const cli = resolve('dist/cli.js');
if (!existsSync(cli)) {
  console.error('dist/cli.js is not built: run npm run build:prod first');
  process.exit(2);
}
const cacheDir = mkdtempSync(join(tmpdir(), 'tpp-bench-cache-'));
const env = { ...process.env, TPP_COMPILE_CACHE_DIR: cacheDir };
const validate = [process.execPath, [cli, 'validate', file]];
const bare = [process.execPath, ['-e', '']];
const clear = () => rmSync(cacheDir, { recursive: true, force: true });
const cached = () => existsSync(cacheDir) && readdirSync(cacheDir).some((f) => f.endsWith('.v8'));

/** Wall milliseconds of one run; exits if the command fails (a broken CLI must not look fast). */
function time([cmd, args]) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', env });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    process.exit(1);
  }
  return ms;
}

/** A cold run: the cache is cleared first. */
function cold() {
  clear();
  return time(validate);
}

try {
  for (let i = 0; i < warmup; i++) {
    cold();
    time(validate);
    time(bare);
  }
  // The same test as src/cli/compileCache.ts: Node's own cache where it has one (the runs use this very node).
  const nodeHasOwnCache = typeof nodeModule.enableCompileCache === 'function';
  // The warm runs must find a cache, else the warm figure would be a cold one.
  if (!nodeHasOwnCache && !cached()) {
    console.error(`no compile cache was written to ${cacheDir}`);
    process.exit(1);
  }
  const c = [];
  const w = [];
  const b = [];
  const coldRatios = [];
  const warmRatios = [];
  for (let i = 0; i < runs; i++) {
    c.push(cold());
    w.push(time(validate));
    b.push(time(bare));
    coldRatios.push(c.at(-1) / b.at(-1));
    warmRatios.push(w.at(-1) / b.at(-1));
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const min = (xs) => Math.min(...xs);
  const f = (xs) => `min ${min(xs).toFixed(1)} ms, median ${median(xs).toFixed(1)} ms`;
  const cache = nodeHasOwnCache ? "Node's module.enableCompileCache" : 'the code cache of src/cli/compileCache.ts (vm.Script cachedData)';
  console.log(`node ${process.version}, ${runs} rounds of cold, warm and bare node, after ${warmup} warm-up rounds (wall time of the whole process)`);
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; compile cache: ${cache}`);
  console.log(`  cold (cache cleared before each run) node dist/cli.js validate ${file}: ${f(c)}`);
  console.log(`  warm (cache written by the run before) node dist/cli.js validate ${file}: ${f(w)}`);
  console.log(`  node -e '' (bare node, the peer): ${f(b)}`);
  const rw = median(warmRatios);
  const rc = median(coldRatios);
  console.log(`  ratio warm / bare node: median ${rw.toFixed(2)}x (run by run; min ${min(warmRatios).toFixed(2)}x), target <= 1.5x: ${rw <= 1.5 ? 'met' : 'NOT met'}`);
  console.log(`  ratio cold / bare node: median ${rc.toFixed(2)}x (run by run; min ${min(coldRatios).toFixed(2)}x): a first run, e.g. a CI job on a fresh machine`);
} finally {
  clear();
}
done('cli');
