// `npm run bench:activation`: median over 5 fresh window loads of the time spent in `activate()`
// (measured inside the real extension host), plus require+activate as seen by the caller, and the
// size of the production bundle. Targets: activate() under 20 ms, dist/extension.js at most 120 KB (scripts/package.mjs).
// RUNS=n window loads (default 5; 1 with TPP_BENCH_SMOKE=1, scripts/bench-size.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureEditor } from '../test/harness/editor.mjs';
import { done, sized } from './bench-size.mjs';

const root = resolve('.');
ensureEditor();
const runs = Number(process.env.RUNS || sized(5, 1));
const samples = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'tpp-bench-'));
  const out = join(dir, 'timing.json');
  cpSync(join(root, 'examples'), join(dir, 'ws'), { recursive: true });
  const r = spawnSync(process.execPath, [join(root, 'test/harness/run-vscode-it.cjs'), '--ext', root, '--tests', join(root, 'out/test/bench/index.js'), '--folder', join(dir, 'ws'), '--timeout', '120'], {
    env: { ...process.env, TPP_BENCH_OUT: out },
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    console.error(r.stdout, r.stderr);
    process.exit(1);
  }
  samples.push(JSON.parse(readFileSync(out, 'utf8')));
  rmSync(dir, { recursive: true, force: true });
  const s = samples.at(-1);
  console.log(`window load ${i + 1}: activate() ${s.activationMs.toFixed(2)} ms, require+activate ${s.loadAndActivateMs.toFixed(2)} ms, dist/core.js loaded by activation: ${s.coreLoaded ? 'YES' : 'no'}`);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const act = median(samples.map((s) => s.activationMs));
const total = median(samples.map((s) => s.loadAndActivateMs));
const size = statSync(join(root, 'dist/extension.js')).size / 1024;
console.log(`\nactivate(): median ${act.toFixed(2)} ms over ${runs} window loads (target < 20 ms)`);
console.log(`require + activate(): median ${total.toFixed(2)} ms`);
console.log(`dist/extension.js: ${size.toFixed(1)} KB (production; target <= 120 KB)`);
done('activation');
