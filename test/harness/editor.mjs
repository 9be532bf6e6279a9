// Where the test editor (code-server 4.100.3 = VS Code 1.100.3, + playwright-core) lives, and its
// one-time install (test/harness/setup-vscode-it.sh: npm registry + Debian packages only).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const editorHome = process.env.VSCODE_IT_HOME || join(repoRoot, '.vscode-it');

/** Installs the editor unless already installed; exits the process (code 3) if the install fails. */
export function ensureEditor() {
  if (existsSync(editorHome) && readdirSync(editorHome).some((f) => f.startsWith('.done-'))) return;
  console.log(`installing the test editor (code-server 4.100.3) into ${editorHome}, once`);
  const r = spawnSync('bash', [join(repoRoot, 'test/harness/setup-vscode-it.sh')], { stdio: 'inherit', env: { ...process.env, VSCODE_IT_HOME: editorHome } });
  if (r.status !== 0) {
    console.error(`editor install failed (exit ${r.status})`);
    process.exit(3);
  }
}
