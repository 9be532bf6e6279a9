// `npm run bench:cli`: start-up of `tpp validate` on one example file, next to a bare `node -e ''` in the same run.
// The two commands run in turn (A B A B …) after warm-up runs, and the ratio is taken pair by pair, so a machine
// whose speed drifts during the run moves both alike. Prints min and median wall time of each and the median
// ratio (target ≤ 1.5×, issue 14). RUNS=n sets the number of pairs (default 21). Run after a production build
// (the npm script builds one first).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const runs = Number(process.env.RUNS || 21);
const warmup = 3;
const file = 'examples/tire-protection-registration.json';
const cli = resolve('dist/cli.js');
if (!existsSync(cli)) {
  console.error('dist/cli.js is not built: run npm run build:prod first');
  process.exit(2);
}
const commands = {
  validate: [process.execPath, [cli, 'validate', file]],
  node: [process.execPath, ['-e', '']],
};

/** Wall milliseconds of one run; exits if the command fails (a broken CLI must not look fast). */
function time([cmd, args]) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    process.exit(1);
  }
  return ms;
}

for (let i = 0; i < warmup; i++) for (const c of Object.values(commands)) time(c);
const a = [];
const b = [];
const ratios = [];
for (let i = 0; i < runs; i++) {
  a.push(time(commands.validate));
  b.push(time(commands.node));
  ratios.push(a.at(-1) / b.at(-1));
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const min = (xs) => Math.min(...xs);
console.log(`${runs} runs of each, in turn, after ${warmup} warm-up runs (wall time of the whole process)`);
console.log(`  node dist/cli.js validate ${file}: min ${min(a).toFixed(1)} ms, median ${median(a).toFixed(1)} ms`);
console.log(`  node -e '' (bare node, the peer):  min ${min(b).toFixed(1)} ms, median ${median(b).toFixed(1)} ms`);
const r = median(ratios);
console.log(`  ratio validate / bare node: median ${r.toFixed(2)}x (pair by pair; min ${min(ratios).toFixed(2)}x), target <= 1.5x: ${r <= 1.5 ? 'met' : 'NOT met'}`);
