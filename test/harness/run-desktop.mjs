// `npm run test:desktop`: the host tier in a desktop VS Code through @vscode/test-electron, for machines
// that have one installed. Set VSCODE_EXECUTABLE to its binary (nothing is downloaded here: VS Code's
// download host is unreachable from CI). Tier selection: `host` (default) or `ui` is not available
// on desktop (the UI tier needs the browser driver of run-vscode-it.cjs).
import { runTests } from '@vscode/test-electron';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './editor.mjs';

const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
if (!vscodeExecutablePath) {
  console.error('test:desktop needs VSCODE_EXECUTABLE=<path to a desktop VS Code >= 1.100>. Use `npm test` for the bundled editor.');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'tpp-desktop-'));
cpSync(join(repoRoot, 'examples'), join(work, 'workspace'), { recursive: true });
// A test editor's Local sandbox takes any free port, so that it never collides with another editor's (or the user's).
mkdirSync(join(work, 'user-data', 'User'), { recursive: true });
writeFileSync(join(work, 'user-data', 'User', 'settings.json'), JSON.stringify({ 'tpp.local.port': 0 }));
try {
  await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: join(repoRoot, 'out/test/host/index.js'),
    launchArgs: [join(work, 'workspace'), '--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${join(work, 'user-data')}`],
    extensionTestsEnv: { TPP_TIER: 'host' },
  });
} catch (err) {
  console.error('desktop host tests failed:', err instanceof Error ? err.message : err);
  process.exit(1);
}
