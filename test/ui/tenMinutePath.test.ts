// The ten-minute path of README "Your application", driven as a newcomer would in the rendered workbench: Generate Key
// Pair (Local) -> Connect Your Application (dotenv and key file) -> Copy as Code (Python) -> the program, run as a
// separate process with iat in milliseconds -> its Integration Log row names the rule and the fix -> run fixed: 201 ->
// the registration in the tree. Then Sandbox (a second `tpp sandbox`, answering bare 401s like the administrator's):
// Configure Environment, Connect Your Application (a key pair generated into a file, its public key registered by the
// "administrator"), Watch My Application, the same broken program through the proxy: the bare 401 explained; a
// registration sent twice through the proxy: its 409 row opened links the registration it conflicts with.
// Screenshots: test-results/ui/path-*.png (README: media/screenshots/remote-401.png is path-10). Prints the
// machine time of the whole path. Leaves the workbench as it found it for the suites after it.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import type { Exchange } from '../../src/core/exchange/types';
import type { ExtensionApi } from '../../src/extension/extension';
import { findTool } from '../samples/harness';
import { EXTENSION_ID, activateExtension } from '../shared/extension';
import { driver, screenshot, sleep, until } from '../shared/driver';
import { answerInput, clickToastButton, exampleRegistration, expandRow, LOG_ROWS, pick, quickInput, runFromPalette, scrollLogToTop, sidebarRows, waitResponse, waitToast } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const PARTNER = 'P-TEN-MINUTES';
const MS_IAT = 'int(time.time() * 1000)';

interface AppRun {
  readonly code: number | null;
  readonly status?: number;
  readonly body: string;
  readonly output: string;
}

/**
 * Runs the program in the workspace as its author would from a shell: the dotenv files loaded the way their comment
 * lines say (`set -a; . ./file; set +a`), then python3. Its own process; nothing of this host's TPP_* settings leaks in.
 */
function runApp(cwd: string, python: string, envFiles: readonly string[]): Promise<AppRun> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TPP_')));
  const script = `set -a; ${envFiles.map((f) => `. ./${f}`).join('; ')}; set +a; exec "$PATH_TEST_PYTHON" tpp_sample.py`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...env, PATH_TEST_PYTHON: python }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const m = /^HTTP (\d{3})\n([\s\S]*)$/m.exec(output);
      resolve({ code, status: m ? Number(m[1]) : undefined, body: m ? m[2]!.trim() : '', output });
    });
  });
}

/** Replaces the text at `find` in the editor of `doc` by typing `replacement` over its selection, and saves. */
async function retype(doc: vscode.TextDocument, find: string, replacement: string): Promise<void> {
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  const at = doc.getText().indexOf(find);
  assert.ok(at >= 0, `the program has ${find}`);
  editor.selection = new vscode.Selection(doc.positionAt(at), doc.positionAt(at + find.length));
  await driver('type', replacement);
  assert.ok(await until(() => (doc.getText().includes(replacement) ? true : undefined)), `typed ${replacement}; the program reads:\n${doc.getText()}`);
  await driver('press', 'Control+s');
  assert.ok(await until(() => (!doc.isDirty ? true : undefined)), 'the program was saved');
}

/** The newest Integration Log entry that `match` accepts, once it is there. */
async function logEntry(api: ExtensionApi, match: (x: Exchange) => boolean): Promise<Exchange> {
  const x = await until(() => api.integrationLog.list().find(match), 30_000);
  assert.ok(x, `an Integration Log entry; have ${JSON.stringify(api.integrationLog.list().slice(0, 5).map((e) => `${e.request.method} ${e.request.url} ${e.response?.status}`))}`);
  return x;
}

/** Waits for a rendered side-bar row matching every pattern; returns its text. */
async function row(...res: RegExp[]): Promise<string> {
  const r = await until(async () => {
    const found = (await sidebarRows()).find((t) => res.every((re) => re.test(t)));
    if (!found) await scrollLogToTop();
    return found;
  }, 20_000);
  assert.ok(r, `a row matching ${res.join(' and ')}; rows: ${JSON.stringify(await sidebarRows())}`);
  return r;
}

describe('the ten-minute path of your own application (rendered workbench)', function () {
  this.timeout(300_000);
  let api: ExtensionApi;
  let python: string | undefined;
  let workspace: string;
  let program: vscode.TextDocument;
  let upstream: ChildProcess | undefined;
  let target = '';
  let started = 0;

  before(async function () {
    python = findTool(['/usr/bin/python3', 'python3'], ['-c', 'import jwt, requests, cryptography']);
    if (!python) {
      console.log("      skipped: no python3 with PyJWT, cryptography and requests: install Debian's python3-jwt python3-cryptography python3-requests (test/samples/setup-toolchains.sh does)");
      this.skip();
    }
    api = await activateExtension();
    workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('workbench.view.extension.tpp');
    started = performance.now();
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
    await cmd('tpp.stopWatchingApplication', 'sandbox').then(undefined, () => undefined);
    upstream?.kill('SIGTERM');
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.clearRegistrationFilter', 'local');
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
    if (api) for (const env of ['local', 'sandbox'] as const) await api.environments.keys.delete(env);
    for (const k of ['baseUrl', 'partnerId']) await vscode.workspace.getConfiguration('tpp.sandbox').update(k, undefined, vscode.ConfigurationTarget.Global);
    await sleep(500);
  });

  it('1. Generate Key Pair (Local) from the palette', async () => {
    await runFromPalette('Tire Protection: Generate Key Pair');
    await pick(/Generate Key Pair for Local/, /^P-256/);
    await pick(/New key pair for Local/, /Only in VS Code/);
    await waitToast(/Generated a P-256 key pair for Local/, 'path-01-key-generated');
    await cmd('notifications.clearAll');
  });

  it('2. Connect Your Application (Local): the dotenv file and the key file beside it', async () => {
    await runFromPalette('Tire Protection: Connect Your Application');
    await pick(/Connect Your Application to Local/, /Save as a dotenv File/);
    // The editor's own file dialog (an input holding the proposed path): Enter keeps tpp-local.env in the workspace.
    await answerInput(/Dotenv file of your application/);
    await waitToast(/Wrote tpp-local\.env for your application on Local/, 'path-02-connected');
    const dotenv = fs.readFileSync(path.join(workspace, 'tpp-local.env'), 'utf8');
    assert.match(dotenv, /^TPP_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/api\/v3$/m);
    assert.match(dotenv, /^TPP_PRIVATE_KEY_FILE=.*tpp-local-key\.pem$/m);
    assert.equal(fs.statSync(path.join(workspace, 'tpp-local-key.pem')).mode & 0o777, 0o600);
    await cmd('notifications.clearAll');
  });

  it('3. Copy as Code (Python) of the example registration', async () => {
    await cmd('workbench.action.closeAllEditors');
    void cmd('workbench.action.quickOpen');
    await pick(/Search files by name|Go to File/i, /^tire-protection-registration\.json/, 'tire-protection-registration.json');
    assert.ok(await until(() => (vscode.window.activeTextEditor?.document.uri.path.endsWith('/tire-protection-registration.json') ? true : undefined)), 'the example is open');
    await runFromPalette('Tire Protection: Copy as Code');
    await pick(/Copy as Code/, /^Python/, 'Python');
    await waitToast(/Copied a Python program for .* It reads TPP_BASE_URL/, 'path-03-copied-as-code');
    // The OS clipboard cannot be pasted from in the headless browser: the program is read from the editor's clipboard
    // (as the host suites do) and saved as tpp_sample.py, as the user pastes it into a new file.
    const text = await vscode.env.clipboard.readText();
    assert.match(text, /"iat": now,/);
    // Through VS Code's file service: a document it still holds of an earlier tpp_sample.py (the README suite's) then
    // takes the new text, and a later save does not find the file "modified since".
    await vscode.workspace.fs.writeFile(vscode.Uri.file(path.join(workspace, 'tpp_sample.py')), Buffer.from(text));
    program = await vscode.workspace.openTextDocument(path.join(workspace, 'tpp_sample.py'));
    assert.ok(await until(() => (program.getText() === text ? true : undefined)), 'the editor holds the program as written');
    await cmd('notifications.clearAll');
  });

  it('4. the program, edited to send iat in milliseconds, gets 401; its Integration Log row names the rule and the fix', async () => {
    await retype(program, 'now,', `${MS_IAT},`);
    await screenshot('path-04-iat-in-milliseconds');
    const run = await runApp(workspace, python!, ['tpp-local.env']);
    assert.equal(run.status, 401, run.output);
    const x = await logEntry(api, (e) => e.source === 'sandbox-log' && e.request.method === 'POST' && e.response?.status === 401);
    assert.deepEqual(x.diagnosis?.map((d) => d.rule), ['iat']);
    await cmd('tpp.integrationLog.focus');
    await row(/^401 · Local · POST registrations/, /\/api\/v3\/tire-protection\/registrations/);
    const explained = await row(/^iat/, /milliseconds, not seconds: use int\(time\.time\(\)\) in Python/);
    assert.match(explained, /iat/);
    await screenshot('path-05-local-401-explained');
  });

  it('5. run fixed: 201, and the registration appears in the tree', async () => {
    await retype(program, MS_IAT, 'now');
    const since = new Date(Date.now() - 1000).toISOString();
    const run = await runApp(workspace, python!, ['tpp-local.env']);
    assert.equal(run.status, 201, run.output);
    const id = String((JSON.parse(run.body) as { id?: unknown }).id ?? '');
    assert.ok(id, run.body);
    // The program made its invoice number when it ran: the request it sent, as the Integration Log keeps it, says which.
    const sent = await logEntry(api, (e) => e.source === 'sandbox-log' && e.request.method === 'POST' && e.response?.status === 201 && e.time >= since);
    const invoice = String((JSON.parse(sent.request.body ?? '{}') as { invoiceNumber?: unknown }).invoiceNumber ?? '');
    assert.match(invoice, /^INV-\d+-\d+$/, sent.request.body);
    await row(/^201 · Local · POST registrations/, /\/api\/v3\/tire-protection\/registrations/);
    await screenshot('path-06-201');
    // The folder was never read in this profile, or its pages were dropped with the new key: a filter reads it again.
    await runFromPalette('Tire Protection: Filter Registrations');
    await answerInput(/Filter registrations \(Local\)/, invoice);
    await answerInput(/Store number/);
    await cmd('workbench.view.extension.tpp');
    await expandRow('Local');
    await expandRow('Registrations');
    await row(new RegExp(`^${invoice}`));
    await screenshot('path-07-registration-in-tree');
  });

  it('6. Sandbox: Configure Environment with the administrator’s address and Partner ID', async () => {
    const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    upstream = spawn(process.execPath, [cli, 'sandbox'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
    target = await new Promise<string>((resolve) => createInterface({ input: upstream!.stdout! }).once('line', resolve));
    await driver('click', '.part.statusbar .statusbar-item:has-text("TPP: Local")');
    await pick(/Local/, /Sandbox/, 'Sandbox');
    assert.ok(await until(() => (api.environments.active.get() === 'sandbox' ? true : undefined)));
    await runFromPalette('Tire Protection: Configure Environment');
    await pick(/Configure Sandbox: 0 of 5 done/, /Base address/, 'Base address');
    await answerInput(/Base address of Sandbox/, target);
    await pick(/Configure Sandbox: 1 of 5 done/, /Partner ID/, 'Partner ID');
    await answerInput(/Partner ID/, PARTNER);
    assert.ok(await until(async () => /Configure Sandbox: 2 of 5 done/.test(await quickInput())));
    await screenshot('path-08-sandbox-configured');
    await driver('press', 'Escape');
  });

  it('7. Connect Your Application (Sandbox): a key pair generated into a file, its public key registered by the administrator', async () => {
    await runFromPalette('Tire Protection: Connect Your Application');
    await pick(/Connect Your Application to Sandbox/, /Save as a dotenv File/);
    await answerInput(/Dotenv file of your application/);
    await pick(/the private key for Sandbox/, /Generate a new key pair into a file/);
    await answerInput(/Private key file of your application \(Sandbox\)/);
    await pick(/Generate Key Pair for Sandbox/, /^P-256/);
    await waitToast(/Generated a P-256 key pair for Sandbox .* Send the public key to the administrator/);
    await vscode.env.clipboard.writeText('');
    await clickToastButton('Generated a P-256 key pair for Sandbox', 'Copy Public Key');
    const spki = await until(async () => ((await vscode.env.clipboard.readText()).includes('BEGIN PUBLIC KEY') ? vscode.env.clipboard.readText() : undefined));
    assert.ok(spki, 'Copy Public Key put the SPKI PEM on the clipboard');
    // The administrator registers it (the upstream's control API stands in for the administrator's own tools).
    const res = await fetch(`${new URL(target).origin}/__tpp/partners`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: PARTNER, spki_pem: spki }) });
    assert.equal(res.status, 201, await res.text());
    await waitToast(/Wrote tpp-sandbox\.env for your application on Sandbox/, 'path-09-sandbox-connected');
    assert.equal(fs.statSync(path.join(workspace, 'tpp-sandbox-key.pem')).mode & 0o777, 0o600);
    await cmd('notifications.clearAll');
  });

  it('8. Watch My Application on Sandbox: the same broken program through the proxy; the bare 401 is explained', async () => {
    await runFromPalette('Tire Protection: Watch My Application on Sandbox/Production');
    await pick(/Watch your application on which environment/, /Sandbox/, 'Sandbox');
    await waitToast(/Watching your application on Sandbox: point it at http:\/\/127\.0\.0\.1:\d+\/api\/v3/);
    // The toast fades before a newcomer reads it: Copy Watch Settings stays on the Integration Log's title bar.
    await cmd('notifications.clearAll');
    await vscode.env.clipboard.writeText('');
    await cmd('tpp.integrationLog.focus');
    await driver('click', '.part.sidebar .pane-header:has-text("Integration Log") .action-label[aria-label="Copy Watch Settings"]');
    const settings = await until(async () => ((await vscode.env.clipboard.readText()).includes('TPP_BASE_URL=') ? vscode.env.clipboard.readText() : undefined));
    assert.ok(settings, 'Copy Watch Settings put the proxy settings on the clipboard');
    assert.match(settings, new RegExp(`^TPP_AUDIENCE=${target.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
    assert.match(settings, new RegExp(`^TPP_PARTNER_ID=${PARTNER}$`, 'm'), 'the Partner ID too');
    assert.match(settings, /TPP_PRIVATE_KEY_FILE: keep the line of that file/, 'says where the key file comes from');
    await screenshot('path-09b-copy-watch-settings');
    // Pasted by the user into a file loaded after the Sandbox one (the clipboard read as in step 3).
    fs.writeFileSync(path.join(workspace, 'tpp-sandbox-watch.env'), settings);
    await cmd('notifications.clearAll');
    await retype(program, 'now,', `${MS_IAT},`);
    const run = await runApp(workspace, python!, ['tpp-sandbox.env', 'tpp-sandbox-watch.env']);
    assert.equal(run.status, 401, run.output);
    assert.deepEqual(JSON.parse(run.body), { error: 'unauthorized', statusCode: 401 }, 'the administrator’s bare 401, unchanged');
    const x = await logEntry(api, (e) => e.env === 'sandbox' && e.source === 'proxy-log' && e.response?.status === 401);
    assert.deepEqual(x.diagnosis?.map((d) => d.rule), ['iat'], 'checked against the registered key and the real address: only iat is wrong');
    // A clean frame for the README: the Integration Log alone, in a wider side bar.
    await cmd('workbench.action.closeAllEditors');
    await cmd('workbench.action.closePanel');
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
    await cmd('tpp.integrationLog.focus');
    for (let i = 0; i < 6; i++) await cmd('workbench.action.decreaseViewWidth');
    await row(/^401 · Sandbox · POST registrations/, /\/api\/v3\/tire-protection\/registrations/);
    await row(/^iat/, /milliseconds, not seconds: use int\(time\.time\(\)\) in Python/);
    await sleep(300); // the redraw after the width change
    await screenshot('path-10-remote-401-explained');
    for (let i = 0; i < 6; i++) await cmd('workbench.action.increaseViewWidth');
    console.log(`      ten-minute path: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });

  it('9. the same registration twice through the proxy: opening the 409 row links the registration it conflicts with', async () => {
    const watch = api.applicationWatch.info('sandbox');
    assert.ok(watch, 'the watch of step 8 still runs');
    // The application's key file (step 7), a token as the fixed program makes it.
    const key = createPrivateKey(fs.readFileSync(path.join(workspace, 'tpp-sandbox-key.pem')));
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const input = `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64({ iss: PARTNER, aud: target, iat: now, exp: now + 300 })}`;
    const token = `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    const invoice = `INV-TWICE-${Date.now()}`;
    const body: Record<string, unknown> = { ...(await exampleRegistration()), invoiceNumber: invoice };
    delete body.$schema; // the editor's hint, not a field of the request
    const post = () => fetch(`${watch.v3BaseUrl}/tire-protection/registrations`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const first = await post();
    assert.equal(first.status, 201, await first.clone().text());
    const id = String(((await first.json()) as { id?: unknown }).id ?? '');
    assert.equal((await post()).status, 409);
    await logEntry(api, (e) => e.source === 'proxy-log' && e.response?.status === 409);
    await cmd('tpp.integrationLog.focus');
    await row(/^409 · Sandbox · POST registrations/);
    // A log scrolled down keeps its place when rows arrive above it: scrolled to the newest first, as a person does.
    await scrollLogToTop();
    await sleep(300);
    await driver('click', `${LOG_ROWS}:has-text("409 · Sandbox")`);
    const t = await waitResponse(new RegExp(`409 Conflict[\\s\\S]*invoice ${invoice}[\\s\\S]*already exists \\(${id}\\)`), 'path-11-remote-409-linked');
    assert.match(t, /Sandbox/);
  });
});
