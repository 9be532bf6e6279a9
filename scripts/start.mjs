// `npm start`: builds the extension and opens it on the examples/ workspace.
// - desktop VS Code (`code` on PATH): `code --extensionDevelopmentPath=<repo> examples/`;
// - otherwise the bundled code-server (VS Code 1.100 in the browser) on 127.0.0.1, with the extension
//   loaded as a development extension; prints the URL to open. Ctrl+C stops it and leaves no process.
// Options: --port <n> (default 8765), --no-open-check.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { editorHome, ensureEditor } from '../test/harness/editor.mjs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const examples = join(root, 'examples');
const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : Number(process.env.PORT || 8765);

const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const hasCode = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).status === 0 && !process.env.TPP_FORCE_CODE_SERVER;
if (hasCode) {
  const r = spawnSync('code', [`--extensionDevelopmentPath=${root}`, examples], { stdio: 'inherit' });
  process.exit(r.status ?? 0);
}

ensureEditor();
const home = editorHome;
const entry = join(home, 'node_modules/code-server/out/node/entry.js');
const state = join(root, '.vscode-it', 'start');
for (const d of ['user-data/User', 'extensions', 'xdg-data', 'xdg-config', 'tmp']) mkdirSync(join(state, d), { recursive: true });
const settings = join(state, 'user-data/User/settings.json');
// No startup editor of VS Code's own: on a first start VS Code for the Web opens its own "Get Started with VS Code for
// the Web" walkthrough, over the toolkit's, which the extension opens itself on its first start from the sources
// (src/extension/walkthrough.ts). Later starts open nothing; the walkthrough stays under Help › Welcome.
if (!existsSync(settings))
  writeFileSync(settings, JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'extensions.autoCheckUpdates': false, 'security.workspace.trust.enabled': false, 'chat.disableAIFeatures': true, 'git.openRepositoryInParentFolders': 'never' }, null, 1));

const authority = `127.0.0.1:${port}`;
const remote = (p) => `vscode-remote://${authority}${p.split('/').map(encodeURIComponent).join('/')}`;
const payload = encodeURIComponent(JSON.stringify([['extensionDevelopmentPath', remote(root)]]));
const url = `http://${authority}/?folder=${encodeURIComponent(examples).replaceAll('%2F', '/')}&payload=${payload}`;

const server = spawn(process.execPath, [entry, '--auth', 'none', '--bind-addr', authority, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened', '--user-data-dir', join(state, 'user-data'), '--extensions-dir', join(state, 'extensions'), '--config', join(state, 'config.yaml')], {
  env: { ...process.env, EXTENSIONS_GALLERY: '{}', XDG_DATA_HOME: join(state, 'xdg-data'), XDG_CONFIG_HOME: join(state, 'xdg-config'), TMPDIR: join(state, 'tmp') },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true, // its own process group, so Ctrl+C can end the server and every child it started
});
let announced = false;
const announce = (chunk) => {
  if (!announced && /HTTP server listening/.test(String(chunk))) {
    announced = true;
    console.log(`\nTire Protection Partner Toolkit is running in VS Code at:\n\n  ${url}\n\nOpen it in a browser on this machine. Press Ctrl+C to stop.`);
  }
  if (process.env.VERBOSE) process.stderr.write(chunk);
};
server.stdout.on('data', announce);
server.stderr.on('data', announce);

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  const t = setTimeout(() => {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    process.exit(code);
  }, 3000);
  server.once('exit', () => {
    clearTimeout(t);
    process.exit(code);
  });
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));
server.on('exit', (code) => {
  if (!stopping) {
    console.error(`code-server exited (${code})`);
    process.exit(code ?? 1);
  }
});
