// README "Quick start" › First steps 1–6, in order and by the means the README names (the Tire Protection view, its
// welcome button, tree rows and their context menus, the CodeLens, palette titles, a notification's button), from a
// profile with no key. Step 6 ("Your application" › Local first): Copy as Code (Python) of the example registration,
// opened in the editor and saved as tpp_sample.py with the dotenv file's standard-library loader line at its top, run
// as its own process (python3 tpp_sample.py): its 201 in the Integration Log and its registration in the tree.
// Screenshots: test-results/ui/readme-*.png, one or more per step. Prints the machine time of the whole path (never
// asserted). Leaves the workbench as it found it for the suites after it.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../src/core/history/history';
import type { ExtensionApi } from '../../src/extension/extension';
import { samplePython } from '../samples/harness';
import { activateExtension } from '../shared/extension';
import { driver, frameTexts, screenshot, sleep, texts, until } from '../shared/driver';
import { answerInput, clickToastButton, contextMenu, expandRow, pick, quickInput, runFromPalette, scrollLogToTop, sidebarRows, waitToast } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const lenses = () => texts('.monaco-editor .codelens-decoration a');
const menuItems = () => texts('.context-view .monaco-menu .action-menu-item');

async function clickCodeLens(title: string): Promise<void> {
  assert.ok(await until(async () => (await lenses()).some((t) => t.includes(title)), 20_000), `the CodeLens "${title}"; have ${JSON.stringify(await lenses())}`);
  await driver('click', `.monaco-editor .codelens-decoration a:has-text("${title}")`);
}

/** The newest history entry of Local that `match` accepts and that is not among `seen`, once it is there. */
async function sent(api: ExtensionApi, seen: Set<string>, match: (e: HistoryEntry) => boolean): Promise<HistoryEntry> {
  const e = await until(() => api.history.list('local').find((x) => !seen.has(x.id) && x.status !== undefined && match(x)), 30_000);
  assert.ok(e, `a request on Local; history: ${JSON.stringify(api.history.list('local').slice(0, 5).map((x) => `${x.method} ${x.path} ${x.status}`))}`);
  seen.add(e.id);
  return e;
}

const invoiceOf = (body: string | undefined) => String((JSON.parse(body ?? '{}') as { invoiceNumber?: unknown }).invoiceNumber ?? '');

/** Waits until the response view (a webview) shows text matching `re`. */
async function responseView(re: RegExp): Promise<string> {
  const t = await until(async () => (await frameTexts('body')).find((x) => re.test(x)), 20_000);
  assert.ok(t, `the response view shows ${re}`);
  return t;
}

/** Waits for a side-bar row matching every pattern. */
async function row(...res: RegExp[]): Promise<string> {
  const r = await until(async () => (await sidebarRows()).find((t) => res.every((re) => re.test(t))), 20_000);
  assert.ok(r, `a row matching ${res.join(' and ')}; rows: ${JSON.stringify(await sidebarRows())}`);
  return r;
}

/** Runs `python3 tpp_sample.py` in `cwd` as a person does in a terminal: nothing of this host's TPP_* settings leaks in. */
function runPython(cwd: string, python: string): Promise<{ status?: number; body: string; output: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TPP_')));
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['tpp_sample.py'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (d: string) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const m = /^HTTP (\d{3})\n([\s\S]*)$/m.exec(output);
      resolve({ status: m ? Number(m[1]) : undefined, body: m ? m[2]!.trim() : '', output });
    });
  });
}

describe('README first steps, then your own application on Local (rendered workbench)', function () {
  this.timeout(300_000);
  let api: ExtensionApi;
  let python: string | undefined;
  let workspace: string;
  const seen = new Set<string>();
  let invoice = '';
  let started = 0;

  before(async function () {
    python = samplePython();
    if (!python) this.skip();
    api = await activateExtension();
    workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    // As a fresh profile starts (the suites before this one may have left a key): Local active, no key, nothing sent.
    await api.environments.keys.delete('local');
    await cmd('tpp.selectEnvironment', 'local');
    for (const e of api.history.list('local')) seen.add(e.id);
    await cmd('workbench.view.explorer');
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
    if (api) await api.environments.keys.delete('local');
    for (const f of ['tpp-local.env', 'tpp-local-key.pem', 'tpp_sample.py']) fs.rmSync(path.join(workspace, f), { force: true });
    await sleep(500);
  });

  it('README step 1: open the Tire Protection view and click Generate Key Pair', async () => {
    started = performance.now();
    await driver('click', '.part.activitybar .action-item a[aria-label^="Tire Protection"]');
    const button = '.part.sidebar .welcome-view-content a.monaco-button:has-text("Generate Key Pair")';
    assert.ok(await until(async () => ((await texts(button)).length ? true : undefined), 20_000), 'the Get Started view offers Generate Key Pair');
    await driver('click', button);
    await pick(/Generate Key Pair for Local/, /^P-256/);
    await pick(/New key pair for Local/, /Only in VS Code/);
    await waitToast(/Generated a P-256 key pair for Local/);
    await expandRow('Local');
    await row(/^Key pair\s*P-256/);
    await screenshot('readme-1-key-pair');
    await cmd('notifications.clearAll');
  });

  it('README step 2: right-click Local › Verify Connection: the Local sandbox answers with its generated Partner ID', async () => {
    await contextMenu('Local', 'Verify Connection');
    // The Local sandbox starts on first use: on a loaded machine that can take over a minute.
    await waitToast(/Local accepts the token: partner_id local-/, 'readme-2-verify-connection', 150_000);
    await cmd('notifications.clearAll');
  });

  it('README step 3: open tire-protection-registration.json, click Send to Local, and again: two invoice numbers', async () => {
    void cmd('workbench.action.quickOpen');
    await pick(/Search files by name|Go to File/i, /^tire-protection-registration\.json/, 'tire-protection-registration.json');
    await clickCodeLens('Send to Local');
    const first = await sent(api, seen, (e) => e.method === 'POST' && e.status === 201);
    await responseView(/201/);
    await clickCodeLens('Send to Local');
    const second = await sent(api, seen, (e) => e.method === 'POST' && e.status === 201);
    invoice = invoiceOf(second.exchange?.request.body);
    assert.match(invoice, /^INV-/);
    assert.notEqual(invoiceOf(first.exchange?.request.body), invoice, 'a new invoice number each time');
    await responseView(/201 Created/);
    await screenshot('readme-3-sent-twice');
  });

  it('README step 4: File Claim… and Cancel Registration… on its row, then both again from the palette: 409s', async () => {
    await expandRow('Registrations');
    await row(new RegExp(`^${invoice}`));
    await contextMenu(invoice, 'File Claim…');
    assert.ok(await until(() => (vscode.window.activeTextEditor?.document.uri.scheme === 'tpp-draft' ? true : undefined)), 'the claim draft opened');
    await clickCodeLens('Send to Local');
    await sent(api, seen, (e) => e.method === 'POST' && /\/claims$/.test(e.path) && e.status === 201);
    await screenshot('readme-4a-claim-filed');
    await cmd('notifications.clearAll');
    await contextMenu(invoice, 'Cancel Registration…');
    await answerInput(/cancelledOn/);
    await sent(api, seen, (e) => e.method === 'PATCH' && e.status === 204);
    await row(new RegExp(`^${invoice}`), /Cancelled/);
    await cmd('notifications.clearAll');
    // Its menu offers neither now.
    await driver('click', { selector: `.part.sidebar .monaco-list-row[aria-label^="${invoice}"]`, button: 'right' });
    const items = await until(async () => ((await menuItems()).length ? menuItems() : undefined));
    assert.ok(items && !items.some((t) => /File Claim|Cancel Registration/.test(t)), JSON.stringify(items));
    await screenshot('readme-4b-cancelled-menu');
    await driver('press', 'Escape');
    assert.ok(await until(async () => ((await menuItems()).length === 0 ? true : undefined)), 'the context menu closed');

    await runFromPalette('Tire Protection: Cancel Registration…');
    await pick(/Cancel registration \(Local\)/, new RegExp(`^${invoice}.*Cancelled`, 's'), invoice);
    await answerInput(/cancelledOn/);
    await sent(api, seen, (e) => e.method === 'PATCH' && e.status === 409);
    await responseView(/409/);
    await screenshot('readme-4c-second-cancellation-409');
    await cmd('notifications.clearAll');

    await runFromPalette('Tire Protection: File Claim…');
    await pick(/File a claim \(Local\)/, new RegExp(`^${invoice}.*Cancelled`, 's'), invoice);
    assert.ok(await until(() => (vscode.window.activeTextEditor?.document.uri.scheme === 'tpp-draft' ? true : undefined)), 'the claim draft opened');
    await clickCodeLens('Send to Local');
    await sent(api, seen, (e) => /\/claims$/.test(e.path) && e.status === 409);
    await responseView(/409/);
    await screenshot('readme-4d-claim-on-cancelled-409');
    await cmd('notifications.clearAll');
  });

  it('README step 5: right-click Local › Connect Your Application…: the dotenv file and the key file beside it', async () => {
    await contextMenu('Local', 'Connect Your Application…');
    await pick(/Connect Your Application to Local/, /Save as a dotenv File/);
    await answerInput(/Dotenv file of your application/);
    await waitToast(/Wrote tpp-local\.env for your application on Local/, 'readme-5-connected');
    assert.match(fs.readFileSync(path.join(workspace, 'tpp-local.env'), 'utf8'), /^TPP_PRIVATE_KEY_FILE=.*tpp-local-key\.pem$/m);
    await cmd('notifications.clearAll');
  });

  it('README step 6: Copy as Code (Python), Open in Editor, saved with the dotenv loader line on top: the program gets 201', async () => {
    // The dotenv file is open beside the example: its comment gives the Python line that needs no package.
    const dotenv = await until(() => vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith('/tpp-local.env'))?.document.getText());
    assert.ok(dotenv, 'Connect Your Application opened the dotenv file');
    const loader = /^#\s+Python \(standard library\):\s*(.+)$/m.exec(dotenv)?.[1];
    assert.ok(loader, `the dotenv file gives a standard-library loader line:\n${dotenv}`);
    await driver('click', '.tabs-container .tab:has-text("tire-protection-registration.json")');
    assert.ok(await until(() => (vscode.window.activeTextEditor?.document.uri.path.endsWith('/tire-protection-registration.json') ? true : undefined)), 'the example is in front');
    await runFromPalette('Tire Protection: Copy as Code');
    await pick(/Copy as Code/, /^Python/, 'Python');
    await waitToast(/Copied a Python program/, 'readme-6a-copied-as-code');
    await clickToastButton('Copied a Python program', 'Open in Editor');
    const editor = await until(() => (vscode.window.activeTextEditor?.document.isUntitled && vscode.window.activeTextEditor.document.languageId === 'python' ? vscode.window.activeTextEditor : undefined));
    assert.ok(editor, 'Open in Editor opened the program');
    // The loader line as the user pastes it (typed, the editor's auto-closing quotes would change it).
    assert.ok(await editor.edit((e) => e.insert(new vscode.Position(0, 0), `${loader.trim()}\n`)));
    await driver('press', 'Control+s');
    // The editor's own Save As dialog (an input holding the proposed path): the path typed over it.
    assert.ok(await until(async () => /Save As|Untitled/i.test(await quickInput())), `the Save As dialog; shown: ${await quickInput()}`);
    await driver('press', 'Control+a');
    await answerInput(/./, path.join(workspace, 'tpp_sample.py'));
    const saved = () => fs.existsSync(path.join(workspace, 'tpp_sample.py')) && vscode.workspace.textDocuments.some((d) => d.uri.path.endsWith('/tpp_sample.py') && !d.isDirty);
    assert.ok(await until(() => (saved() ? true : undefined), 30_000), `tpp_sample.py saved; the dialog shows: ${await quickInput()}`);
    await sleep(300); // the tab's redraw under its new name
    await screenshot('readme-6b-program-saved');
    await cmd('notifications.clearAll');
    const run = await runPython(workspace, python!);
    assert.equal(run.status, 201, run.output);
    const id = String((JSON.parse(run.body) as { id?: unknown }).id ?? '');
    assert.ok(id, run.body);
    // The program made its invoice number when it ran: the request the Integration Log keeps says which.
    const logged = await until(() => api.integrationLog.list().find((e) => e.source === 'sandbox-log' && e.response?.status === 201 && String(e.response.body ?? '').includes(id)), 20_000);
    const mine = invoiceOf(logged?.request.body);
    assert.match(mine, /^INV-/, JSON.stringify(logged));
    await until(async () => {
      await scrollLogToTop();
      return (await sidebarRows()).find((t) => /^201 · Local · POST registrations/.test(t));
    }, 20_000);
    await row(/^201 · Local · POST registrations/);
    // Its registration is the newest, listed last: after the earlier suites' registrations it lies below the
    // Environments view's fold, where rows are not drawn, so scroll there as a person does.
    const ENV_LIST = '.part.sidebar .pane:has(.pane-header:has-text("Environments")) .monaco-list';
    await until(async () => {
      await driver('wheel', { selector: ENV_LIST, dy: 100_000 });
      return (await sidebarRows()).some((t) => t.startsWith(mine));
    }, 20_000);
    await row(new RegExp(`^${mine}`));
    await screenshot('readme-6c-your-program-201');
    console.log(`      README first steps and your application's 201: ${((performance.now() - started) / 1000).toFixed(1)} s of machine time`);
  });
});
