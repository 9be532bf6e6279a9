#!/usr/bin/env node
// Adapted from shared/recipes/real-vscode-host (ops added: type, click, attrs).
// Runs VS Code extension integration tests in a REAL VS Code extension host (node, "remote" host of
// code-server = VS Code 1.100 server), with the workbench rendered by headless Debian Chromium driven by
// playwright-core. Nothing is downloaded. Exit code: 0 all tests passed, 1 tests failed,
// 2 timeout, 3 code-server died, 4 driver error.
//
//   node run-vscode-it.js --ext <extension dir> [--tests <abs path of test runner index.js>]
//        [--folder <workspace folder to open> | --no-folder] [--timeout 300] [--screenshot final.png]
// Env: VSCODE_IT_HOME (where setup-vscode-it.sh installed code-server + playwright-core; default ./.vscode-it)
//      CHROMIUM (default /usr/bin/chromium), VERBOSE=1 (all browser console + code-server log),
//      LOGS_DIR=<dir> (VS Code's logs are written there at the end), KEEP_TMP=1,
//      VSCODE_IT_UNTRUSTED=1 (Workspace Trust on and the folder not trusted: the window opens in Restricted Mode).
// Inside the extension host the env var VSCODE_IT_RESULT_FILE is set; if the test runner writes
// {"passed":n,"failed":m} there, the driver prints the line "n passed, m failed".
// Test -> driver requests (for UI checks): console.log('__VSCODE_IT_RPC__' + JSON.stringify({op, arg, out}))
//   op 'screenshot': PNG of the page saved to arg;  op 'texts': innerText of all elements matching CSS
//   selector arg; 'click', 'hover', 'wheel', 'press', 'type', 'fill' (an input's value, then Enter), 'frameTexts' (texts inside webview frames), 'attrs', 'boxes' (bounding boxes), 'viewport' (resize the window),
//   'dialogs' (true: modal dialogs show, as outside tests; false: refused again, VS Code's default in tests).  The driver then writes JSON {ok, value|error} to the file `out` (poll for it).
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const http = require('http');
const util = require('util');

function arg(name, def) { const i = process.argv.indexOf('--' + name); return i > 0 ? process.argv[i + 1] : def; }
const home = path.resolve(process.env.VSCODE_IT_HOME || '.vscode-it');
const req = m => require(require.resolve(m, { paths: [home, process.cwd(), __dirname] }));
const { chromium } = req('playwright-core');
const codeServer = require.resolve('code-server/out/node/entry.js', { paths: [home, process.cwd(), __dirname] });
const extDir = path.resolve(arg('ext', '.'));
const testsPath = path.resolve(arg('tests', path.join(extDir, 'test/suite/index.js')));
const folder = process.argv.includes('--no-folder') ? null : path.resolve(arg('folder', extDir));
const chromePath = process.env.CHROMIUM || '/usr/bin/chromium';
const timeoutS = Number(arg('timeout', 300));
const finalShot = arg('screenshot', '');
const verbose = !!process.env.VERBOSE;
const untrusted = process.env.VSCODE_IT_UNTRUSTED === '1';

for (const [what, p] of [['extension package.json', path.join(extDir, 'package.json')], ['test runner', testsPath], ['chromium', chromePath]])
  if (!fs.existsSync(p)) { console.error(`[vscode-it] ${what} not found: ${p}`); process.exit(4); }
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vscode-it-'));
const resultFile = path.join(tmp, 'result.json');
let server, browser, exiting = false;
const t0 = Date.now();
const log = (...a) => console.log(`[vscode-it +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

async function cleanup(code) {
  if (exiting) return; exiting = true;
  try { if (browser) await browser.close(); } catch {}
  if (server && server.exitCode === null && server.signalCode === null) {
    const gone = new Promise(r => server.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([gone, new Promise(r => setTimeout(r, 5000))]);
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  }
  if (!process.env.KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => cleanup(130));
process.on('SIGTERM', () => cleanup(143));

const freePort = () => new Promise((res, rej) => { const s = net.createServer(); s.unref(); s.on('error', rej);
  s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
function waitHealthy(port, deadline) {
  return new Promise((resolve, reject) => {
    const retry = () => Date.now() > deadline ? reject(new Error('code-server did not become healthy')) : setTimeout(tick, 200);
    const tick = () => http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 2000 }, r => { r.resume(); r.statusCode === 200 ? resolve() : retry(); })
      .on('error', retry).on('timeout', function () { this.destroy(); });
    tick();
  });
}
// renderer log noise that is not test output
const noise = /^(Resolving connection token|Resolved connection token|Creating a socket|Ignoring fetching additional builtin|\[Service Worker\]|ChatSessionStore|Overwriting extension|The web worker extension host is started|An iframe which has both|Failed to load resource: the server responded with a status of 404|Updating additional builtin extensions cache|Started local extension host|Extension host \(\w+\) is (unresponsive|responsive))/;

(async () => {
  const port = Number(process.env.VSCODE_IT_PORT) || await freePort();
  const authority = `127.0.0.1:${port}`;
  const userData = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 't'));   // private TMPDIR for code-server + extension host (ipc sockets etc.)
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'update.mode': 'none',
    'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false, 'extensions.ignoreRecommendations': true,
    // Restricted Mode when asked for: trust on, no start-up question, the folder never trusted.
    ...(untrusted ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false }
      : { 'security.workspace.trust.enabled': false }),
    'workbench.tips.enabled': false, 'chat.disableAIFeatures': true,
    'git.enabled': false, 'workbench.enableExperiments': false,
  }, null, 1));
  // Other editors on this machine (parallel tiers, a person's `npm start`) hold Local's default port: each test Local
  // sandbox takes any free port. tpp.local.port has machine scope, which a remote window (this workbench) reads from
  // the remote machine's settings only: VS Code drops machine-scoped values of the user settings once the
  // extension's settings are registered, at a moment that varies with the machine's load.
  fs.mkdirSync(path.join(userData, 'Machine'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'Machine', 'settings.json'), JSON.stringify({ 'tpp.local.port': 0 }, null, 1));
  server = spawn(process.execPath, [codeServer, '--config', path.join(tmp, 'config.yaml'),
    '--auth', 'none', '--bind-addr', authority, '--disable-telemetry', '--disable-update-check',
    ...(untrusted ? [] : ['--disable-workspace-trust']), '--disable-getting-started-override', '--ignore-last-opened',
    '--user-data-dir', userData, '--extensions-dir', path.join(tmp, 'extensions')], {
    // EXTENSIONS_GALLERY={} disables the (unreachable) open-vsx gallery: no DNS lookups, no errors
    // XDG_*/TMPDIR keep code-server's heartbeat/config/sockets out of $HOME and /tmp (the extension host inherits them)
    env: { ...process.env, EXTENSIONS_GALLERY: '{}', VSCODE_IT_RESULT_FILE: resultFile,
      XDG_DATA_HOME: path.join(tmp, 'xdg-data'), XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'), TMPDIR: path.join(tmp, 't') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const srvLog = fs.createWriteStream(path.join(tmp, 'code-server.log'));
  for (const s of [server.stdout, server.stderr]) { s.pipe(srvLog); if (verbose) s.on('data', d => process.stderr.write('[code-server] ' + d)); }
  server.on('exit', (c, sig) => { if (!exiting) { console.error(`[vscode-it] code-server exited early (${c ?? sig})`);
    try { console.error(fs.readFileSync(path.join(tmp, 'code-server.log'), 'utf8')); } catch {} cleanup(3); } });
  await waitHealthy(port, Date.now() + 60000);
  log('code-server up on', authority);

  browser = await chromium.launch({ executablePath: chromePath, headless: true, args: [
    '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-extensions', '--disable-default-apps', '--mute-audio'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // never let the workbench reach outside this machine
  await context.route(u => !/^(https?|wss?):\/\/(127\.0\.0\.1|localhost)[:/]/.test(u.href), r => {
    if (verbose) console.log('[vscode-it] blocked', r.request().url()); return r.abort('blockedbyclient'); });
  // VS Code's DialogService refuses every modal dialog while extension tests run. A test that checks a modal as a
  // person sees it turns them on for a while (op 'dialogs'): the workbench's refusal also asks a flag of the page.
  let dialogsPatched = false;
  await context.route(u => /^http:\/\/127\.0\.0\.1:\d+\/.*\/workbench\.js$/.test(u.href), async r => {
    const res = await r.fetch();
    const refusal = /([\w$]+)\(\)\{(return this\.(\w)\.isExtensionDevelopment&&this\.\3\.extensionTestsLocationURI\?!0:!!this\.\3\.enableSmokeTestDriver)\}(?=async confirm\(\w\)\{return this\.\1\(\)\?\(this\.\w\.trace\("DialogService:)/;
    const body = (await res.text()).replace(refusal, (_, fn, ret) => { dialogsPatched = true; return `${fn}(){if(globalThis.__vscodeItDialogs)return!1;${ret}}`; });
    await r.fulfill({ response: res, body });
  });
  const page = await context.newPage();

  let resolveExit; const exitP = new Promise(r => (resolveExit = r));
  let chain = Promise.resolve();   // keep console output in order
  page.on('console', m => { chain = chain.then(async () => {
    let vals; try { vals = await Promise.all(m.args().map(a => a.jsonValue())); } catch { vals = [m.text()]; }
    if (!vals.length) vals = [m.text()];
    // VS Code's ConsoleLogger logs ('%c INFO', 'color: #33f', fmt, ...args); ext-host console output arrives that way
    const lvl = typeof vals[0] === 'string' && /^%c\s*(TRACE|DEBUG|INFO|WARN|ERR)\b/.exec(vals[0]);
    const text = lvl ? util.format(...vals.slice(2)) : util.format(...vals);
    const rpc = /__VSCODE_IT_RPC__(\{.*\})/.exec(text);
    if (rpc) return handleRpc(JSON.parse(rpc[1]));
    if (verbose || !noise.test(text.trim())) console.log(lvl && lvl[1] !== 'INFO' ? `[${lvl[1]}] ${text}` : text);
  }).catch(e => console.log('[vscode-it] console handler error', e.message)); });
  page.on('pageerror', e => console.log('[pageerror]', e.message));

  async function belowTitleBar() {
    const size = page.viewportSize() ?? await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    const top = await page.evaluate(() => Math.ceil(document.querySelector('.part.titlebar')?.getBoundingClientRect().bottom ?? 0)).catch(() => 0);
    return { x: 0, y: top, width: size.width, height: size.height - top };
  }

  async function handleRpc({ op, arg, out }) {
    let res;
    try {
      // The workbench below its title bar: the title says "[Extension Development Host]", which is no part of what a
      // user of the extension sees (the README's screenshots come from here).
      if (op === 'screenshot') { await page.screenshot({ path: arg, clip: await belowTitleBar() }); res = { ok: true, value: arg }; }
      else if (op === 'texts') res = { ok: true, value: await page.locator(arg).allInnerTexts() };
      // innerText of the elements matching arg in every frame (webviews: the response view, the Markdown preview)
      else if (op === 'frameTexts') { const value = []; for (const f of page.frames()) value.push(...(await f.locator(arg).allInnerTexts().catch(() => []))); res = { ok: true, value }; }
      else if (op === 'press') { await page.keyboard.press(arg); res = { ok: true }; }
      else if (op === 'type') { await page.keyboard.type(arg); res = { ok: true }; }
      // arg: { selector, text, enter }: sets the first match's value as typing would (input events), focusing it first,
      // then presses Enter on it when asked: nothing is lost when focus arrives late on a loaded machine
      else if (op === 'fill') { const el = page.locator(arg.selector).first(); await el.fill(arg.text); if (arg.enter) await el.press('Enter'); res = { ok: true }; }
      else if (op === 'click') {
        // arg: a selector, or { selector, button: 'right' } (a context menu), or { selector, frames: true } (inside a
        // webview: the first frame holding a match is clicked)
        const { selector, button, frames } = typeof arg === 'string' ? { selector: arg } : arg;
        let target = page.locator(selector);
        if (frames) for (const f of page.frames()) if (await f.locator(selector).count().catch(() => 0)) { target = f.locator(selector); break; }
        await target.first().click(button ? { button } : {}); res = { ok: true };
      }
      // arg: { selector, dy }: the mouse wheel over the first match (lists scroll on wheel events, not on scrollTop);
      // the mouse then leaves, so that no hover stays open
      else if (op === 'wheel') { await page.locator(arg.selector).first().hover(); await page.mouse.wheel(0, arg.dy); await page.mouse.move(0, 0); res = { ok: true }; }
      else if (op === 'hover') { await page.locator(arg).first().hover(); res = { ok: true }; }
      // page-relative boxes of the elements matching arg (what is on the screen: the page is the window)
      else if (op === 'boxes') res = { ok: true, value: await page.locator(arg).evaluateAll(els => els.map(e => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; })) };
      // arg: { width, height } -> the window's size before
      else if (op === 'viewport') { const before = page.viewportSize(); await page.setViewportSize(arg); res = { ok: true, value: before }; }
      else if (op === 'dialogs') {
        if (!dialogsPatched) throw new Error("this workbench's DialogService was not found to let modal dialogs show in tests");
        await page.evaluate(on => { globalThis.__vscodeItDialogs = on; }, !!arg); res = { ok: true };
      }
      else if (op === 'attrs') { res = { ok: true, value: await page.locator(arg.selector).evaluateAll((els, name) => els.map(e => e.getAttribute(name)), arg.name) }; }
      else res = { ok: false, error: 'unknown op ' + op };
    } catch (e) { res = { ok: false, error: String(e && e.message || e) }; }
    if (out) { fs.writeFileSync(out + '.tmp', JSON.stringify(res)); fs.renameSync(out + '.tmp', out); }
  }

  // The web workbench calls window.codeAutomationExit(code, logs) once the extension host's test runner is done
  await page.exposeFunction('codeAutomationExit', async (code, logs) => {
    if (process.env.LOGS_DIR && Array.isArray(logs)) for (const l of logs) {
      const f = path.join(process.env.LOGS_DIR, l.relativePath); fs.mkdirSync(path.dirname(f), { recursive: true }); fs.writeFileSync(f, l.contents);
    }
    if (finalShot) { try { await page.screenshot({ path: finalShot }); } catch {} }
    resolveExit(code);
  });
  const remote = p => `vscode-remote://${authority}${p.split(path.sep).map(encodeURIComponent).join("/")}`;
  const payload = [['extensionDevelopmentPath', remote(extDir)], ['extensionTestsPath', remote(testsPath)]];
  const where = folder ? `folder=${encodeURIComponent(folder).replaceAll('%2F', '/')}` : 'ew=true';
  const url = `http://${authority}/?${where}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  if (verbose) log('opening', url);
  // A loaded machine (CI, parallel runs) can take longer than the default 30 s to serve the workbench page.
  await page.goto(url, { timeout: 180_000 });
  let timer; const code = await Promise.race([exitP, new Promise(r => { timer = setTimeout(() => r('timeout'), timeoutS * 1000); })]);
  clearTimeout(timer);
  await chain;
  try { const r = JSON.parse(fs.readFileSync(resultFile, 'utf8')); console.log(`${r.passed} passed, ${r.failed} failed`); } catch {}
  if (code === 'timeout') {
    const shot = path.join(os.tmpdir(), `vscode-it-timeout-${port}.png`);
    try { await page.screenshot({ path: shot }); } catch {}
    console.error(`[vscode-it] timed out after ${timeoutS}s (screenshot: ${shot})`); return cleanup(2);
  }
  log('extension host test runner exited with code', code);
  await cleanup(code === 0 ? 0 : 1);
})().catch(e => { console.error('[vscode-it] error', e); cleanup(4); });
