// Runs one editor tier ("host", "ui", or "restricted": the same workbench in Restricted Mode) inside a real VS Code 1.100 extension host (code-server's
// server + web workbench in headless Chromium; see run-vscode-it.cjs).
//   node test/harness/run-tier.mjs host|ui|restricted [--timeout 300]
// Installs the editor first if needed (test/harness/setup-vscode-it.sh, idempotent, no downloads
// from Microsoft). Opens a throwaway copy of examples/ as the workspace. Screenshots go to
// test-results/<tier>/. Prints "<tier>: N passed, N failed" and exits non-zero if any test failed,
// none ran, or the editor could not run.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorHome, ensureEditor, repoRoot as root } from './editor.mjs';

const tier = process.argv[2];
if (!['host', 'ui', 'restricted'].includes(tier)) {
  console.error('usage: run-tier.mjs host|ui|restricted');
  process.exit(2);
}
const timeout = process.argv.includes('--timeout') ? process.argv[process.argv.indexOf('--timeout') + 1] : '900';
const home = editorHome;

ensureEditor();
const tests = join(root, 'out/test', tier, 'index.js');
if (!existsSync(tests)) {
  console.error(`[${tier}] ${tests} missing: run node scripts/build.mjs first`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), `tpp-${tier}-`));
const workspace = join(work, 'workspace');
cpSync(join(root, 'examples'), workspace, { recursive: true });
const state = join(work, 'state');
mkdirSync(state);
const shots = join(root, 'test-results', tier);
mkdirSync(shots, { recursive: true });

const child = spawn(process.execPath, [join(root, 'test/harness/run-vscode-it.cjs'), '--ext', root, '--tests', tests, '--folder', workspace, '--timeout', timeout, '--screenshot', join(shots, 'final.png')], {
  cwd: root,
  env: { ...process.env, VSCODE_IT_HOME: home, TPP_TIER: tier, TPP_IT_STATE_DIR: state, VSCODE_IT_SHOTS: shots, ...(tier === 'restricted' ? { VSCODE_IT_UNTRUSTED: '1' } : {}) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let summary;
child.stdout.setEncoding('utf8');
let buffered = '';
child.stdout.on('data', (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    const m = /^(\d+) passed, (\d+) failed$/.exec(line.trim());
    if (m) summary = { passed: Number(m[1]), failed: Number(m[2]) };
    else process.stdout.write(line + '\n');
  }
});
const forward = (sig) => child.kill(sig);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code) => {
  rmSync(work, { recursive: true, force: true });
  const s = summary ?? { passed: 0, failed: 0 };
  if (!summary) console.log(`[${tier}] the editor ended (exit ${code}) before the test runner reported`);
  const failed = code !== 0 && s.failed === 0 ? s.failed + 1 : s.failed; // a crash or timeout counts as a failure
  console.log(`${tier}: ${s.passed} passed, ${failed} failed`);
  process.exit(code !== 0 ? code || 1 : s.passed === 0 ? 1 : 0);
});
