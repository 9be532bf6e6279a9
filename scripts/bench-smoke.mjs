// `node scripts/bench-smoke.mjs [name …]` (`npm run test:benches`, and a step of `npm test`): runs every
// `npm run bench:<name>` script of package.json once in smoke size (TPP_BENCH_SMOKE=1, scripts/bench-size.mjs), one
// after the other, to prove that each still runs and prints its figures. The figures are never judged: a bench passes
// when it exits 0 and prints its last line `bench <name>: done`, whatever its targets say. The list comes from
// package.json, so a new bench is smoked without being added here.
// Run after a production build: the `node scripts/build.mjs` parts of the scripts are left out (half a minute each on a
// shared machine, and the build is a step of `npm test` already), so the benches measure the build that is there;
// `npm test` runs this after its package step, whose production build is what bench:activation and bench:cli expect.
// Prints each bench's time and "benches: N passed, N failed".
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** A bench that has not ended after this long is stopped and fails (a smoke run takes seconds to a minute). */
const TIMEOUT_S = 240;
const BUILD = /^node scripts\/build\.mjs( --production)?$/;

const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const all = Object.keys(scripts).filter((k) => k.startsWith('bench:')).map((k) => k.slice('bench:'.length));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((n) => !all.includes(n));
if (unknown.length) {
  console.error(`bench-smoke: no script bench:${unknown.join(', bench:')} in package.json (there are: ${all.join(', ')})`);
  process.exit(2);
}
if (!existsSync(join(root, 'dist', 'cli.js'))) {
  console.error('bench-smoke: dist/ is not built: run node scripts/build.mjs --production first');
  process.exit(2);
}

/** The script's command without its build steps. */
function commandOf(name) {
  const parts = scripts[`bench:${name}`].split('&&').map((p) => p.trim()).filter((p) => !BUILD.test(p));
  return parts.join(' && ');
}

/** Runs one bench; resolves with its seconds and, when it failed, why. */
function smoke(name) {
  const command = commandOf(name);
  console.log(`\n--- bench:${name}: ${command}`);
  const started = Date.now();
  const env = { ...process.env, TPP_BENCH_SMOKE: '1', FORCE_COLOR: '0' };
  delete env.TPP_TIER; // the tier's summary line is this script's, not a bench's
  // A group of its own, so that a bench stopped for its time is stopped with the servers it started.
  const child = spawn(command, { cwd: root, env, shell: true, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    process.stdout.write(chunk);
    out = (out + chunk).slice(-100_000);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid, 'SIGKILL');
  }, TIMEOUT_S * 1000);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      const printedDone = new RegExp(`^bench ${name}: done\\b`, 'm').test(out);
      let why;
      if (timedOut) why = `still running after ${TIMEOUT_S} s`;
      else if (code !== 0) why = `exit ${code ?? signal}`;
      else if (!printedDone) why = `no line "bench ${name}: done" (it stopped before printing its figures)`;
      resolve({ name, seconds, why });
    }),
  );
}

const started = Date.now();
const results = [];
for (const name of wanted.length ? wanted : all) results.push(await smoke(name));
const failed = results.filter((r) => r.why);
console.log('\nbench smoke runs (figures not judged):');
for (const r of results) console.log(`  bench:${r.name.padEnd(12)} ${r.seconds.toFixed(1).padStart(6)} s  ${r.why ? `FAILED: ${r.why}` : 'ok'}`);
console.log(`  all ${results.length} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`benches: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
