// `npm test`: type-check, lint, the import-cycle check, build, then the tiers (unit, samples, host, UI), the .vsix
// content check and every bench once in smoke size. Every tier prints "<tier>: N passed, N failed"; this script ends
// with the total and fails if any step fails or any tier ran zero tests.
import { spawn } from 'node:child_process';

const steps = [
  { name: 'typecheck', cmd: ['npx', 'tsc', '--noEmit', '-p', '.'] },
  // The webview page (src/webview) has the DOM library and no Node types: its own project.
  { name: 'typecheck webview', cmd: ['npx', 'tsc', '--noEmit', '-p', 'src/webview'] },
  { name: 'lint', cmd: ['npx', 'eslint', '.'] },
  // Layers read one way (ARCHITECTURE.md): any import cycle under src/ fails the run (madge exits 1).
  { name: 'cycles', cmd: ['npx', 'madge', '--circular', '--no-spinner', '--extensions', 'ts', 'src'] },
  { name: 'build', cmd: ['node', 'scripts/build.mjs'] },
  { name: 'unit', tier: true, cmd: ['npx', 'mocha', 'test/unit/**/*.test.ts'] },
  // The code samples of `tpp code`, run against the Local sandbox from dist (curl, Node, Python, Go) or syntax-checked.
  { name: 'samples', tier: true, cmd: ['npx', 'mocha', 'test/samples/**/*.test.ts'] },
  { name: 'host', tier: true, cmd: ['node', 'test/harness/run-tier.mjs', 'host'] },
  { name: 'ui', tier: true, cmd: ['node', 'test/harness/run-tier.mjs', 'ui'] },
  // The same workbench in Restricted Mode (Workspace Trust on, the folder untrusted): flows list but send nothing.
  { name: 'restricted', tier: true, cmd: ['node', 'test/harness/run-tier.mjs', 'restricted'] },
  { name: 'package', cmd: ['node', 'scripts/package.mjs', '--check'] },
  // Every `npm run bench:*` once in smoke size on the production build just made: it runs and prints its figures
  // (never judged), so a bench cannot rot unseen.
  { name: 'benches', tier: true, cmd: ['node', 'scripts/bench-smoke.mjs'] },
];

function run(step) {
  return new Promise((resolve) => {
    const started = Date.now();
    console.log(`\n=== ${step.name}: ${step.cmd.join(' ')}`);
    const child = spawn(step.cmd[0], step.cmd.slice(1), { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TPP_TIER: step.name, FORCE_COLOR: '0' } });
    let summary;
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      text = (text + chunk).slice(-2_000_000);
      for (const m of chunk.matchAll(new RegExp(`^${step.name}: (\\d+) passed, (\\d+) failed`, 'gm'))) summary = { passed: Number(m[1]), failed: Number(m[2]) };
    });
    child.on('exit', (code) => resolve({ code, summary, seconds: (Date.now() - started) / 1000, failures: failuresIn(text) }));
  });
}

/**
 * Mocha's numbered failure reports ("  1) suite", its title and the first lines of the error) from a step's output,
 * repeated at the end of the run so that the last lines of a long CI log say which test failed and why.
 */
function failuresIn(text) {
  // Mocha's summary of failures follows its last "N failing" line; the inline marks above it carry no error.
  const at = text.search(/^\s*\d+ failing\s*$(?![\s\S]*^\s*\d+ failing\s*$)/m);
  const lines = (at >= 0 ? text.slice(at) : text).split('\n');
  const out = [];
  const seen = new Set();
  for (let i = 0; i < lines.length && out.length < 120; i++) {
    if (!/^\s{2,}\d+\) \S/.test(lines[i]) || /✔|passing|failing/.test(lines[i])) continue;
    // The spec reporter lists each failure twice: once inline (no error below it), once in the summary with the error.
    const block = lines.slice(i, i + 8).filter((l) => l.trim() !== '');
    if (seen.has(block[0].trim())) continue;
    if (!block.some((l) => /Error|expected|Timeout|assert/i.test(l))) continue;
    out.push(...block.slice(0, 8));
    seen.add(block[0].trim());
  }
  return out;
}

let passed = 0;
let failed = 0;
const problems = [];
const failureReports = [];
for (const step of steps) {
  const r = await run(step);
  if (step.tier) {
    const s = r.summary ?? { passed: 0, failed: 0 };
    passed += s.passed;
    failed += s.failed;
    if (!r.summary || s.passed === 0) problems.push(`${step.name}: no test ran`);
  }
  if (r.code !== 0) problems.push(`${step.name} failed (exit ${r.code}) after ${r.seconds.toFixed(1)} s`);
  if (r.code !== 0 && r.failures.length) failureReports.push(`--- ${step.name}:`, ...r.failures);
  else console.log(`=== ${step.name}: ok in ${r.seconds.toFixed(1)} s`);
}
if (failureReports.length) console.log(`\nFailed tests:\n${failureReports.join('\n')}`);
if (problems.length) console.log(`\nFAILED: ${problems.join('; ')}`);
if (problems.length && failed === 0) failed = problems.length; // a broken step counts as a failure
console.log(`\nall: ${passed} passed, ${failed} failed`);
process.exit(problems.length ? 1 : 0);
