// README "Quick start" › First steps 1–5, in order and by the means the README names (the Tire Protection view, its
// welcome button, tree rows and their context menus, the Explorer, the CodeLens, a notification's button, palette
// titles), from a profile with no key. Step 4 is your own program: Write Program… (Python) writes tpp_sample.py, which
// loads tpp-local.env itself, and Run in Terminal runs it in VS Code's terminal: its 201 in the Integration Log, its
// registration in the tree, Local's Connection row on its 201. A person's actions from the activity-bar icon to that
// 201 are counted (clicks, key chords, typed strings: the README's target is at most 20, with no paste and no hand
// edit) and printed with the machine time (never a timed assertion). Screenshots: test-results/ui/readme-*.png.
// The terminal's shell is /bin/sh with the python3 that has the program's libraries first on its PATH (the README
// says it needs requests and PyJWT[crypto]), not the machine's login shell. Leaves the workbench as it found it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../src/core/history/history';
import type { ExtensionApi } from '../../src/extension/extension';
import { samplePython } from '../samples/harness';
import { activateExtension } from '../shared/extension';
import { driver, frameTexts, screenshot, sleep, texts, until } from '../shared/driver';
import { answerInput, contextMenu, expandRow, pick, quickInput, rowSelector, runFromPalette, scrollLogToTop, sidebarRows, waitToast } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const lenses = () => texts('.monaco-editor .codelens-decoration a');
const menuItems = () => texts('.context-view .monaco-menu .action-menu-item');
const PROGRAM_FILES = ['tpp_sample.py', 'tpp-local.env', 'tpp-local-key.pem'];
/** The README's target: at most this many actions of a person from the activity-bar icon to the program's 201. */
const MAX_ACTIONS = 20;

/** What a person does, counted: each click, key chord and typed string is one action. */
class Person {
  readonly done = { clicks: 0, chords: 0, typed: 0 };

  get actions(): number {
    return this.done.clicks + this.done.chords + this.done.typed;
  }

  async click(target: string | { selector: string; button: 'right' }): Promise<void> {
    this.done.clicks++;
    await driver('click', target);
  }

  async press(chord: string): Promise<void> {
    this.done.chords++;
    await driver('press', chord);
  }

  /** Picks `entry` of the quick pick titled `title`: the arrow keys while another row is highlighted, then Enter. */
  async pick(title: RegExp, entry: RegExp): Promise<void> {
    assert.ok(await until(async () => title.test(await quickInput())), `quick pick ${title}; shown: ${await quickInput()}`);
    const focused = async () => (await texts('.quick-input-widget .monaco-list-row.focused')).join('\n');
    assert.ok(await until(async () => (await texts('.quick-input-widget .monaco-list-row')).some((r) => entry.test(r))), `the quick pick lists ${entry}`);
    for (let i = 0; i < 10 && !entry.test(await focused()); i++) await this.press('ArrowDown');
    assert.ok(entry.test(await focused()), `the quick pick highlights ${entry}`);
    await this.press('Enter');
  }

  async clickCodeLens(title: string): Promise<void> {
    assert.ok(await until(async () => (await lenses()).some((t) => t.includes(title)), 20_000), `the CodeLens "${title}"; have ${JSON.stringify(await lenses())}`);
    await this.click(`.monaco-editor .codelens-decoration a:has-text("${title}")`);
  }

  async clickToastButton(message: string, button: string): Promise<void> {
    await this.click(`.notifications-toasts .notification-list-item:has-text(${JSON.stringify(message)}) a.monaco-button:has-text(${JSON.stringify(button)})`);
  }
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
  assert.ok(t, `the response view shows ${re}; have ${JSON.stringify(await frameTexts('body'))}`);
  return t;
}

/** Waits for a side-bar row matching every pattern. */
async function row(...res: RegExp[]): Promise<string> {
  const r = await until(async () => (await sidebarRows()).find((t) => res.every((re) => re.test(t))), 20_000);
  assert.ok(r, `a row matching ${res.join(' and ')}; rows: ${JSON.stringify(await sidebarRows())}`);
  return r;
}

/**
 * Removes the program and its dotenv and key files through VS Code's file service, once their editors' documents are
 * gone: a document the editor still holds of a file deleted behind its back refuses a later save of a new file of
 * that name ("File Modified Since"), which the suites after this one write.
 */
async function removeProgramFiles(): Promise<void> {
  const workspace = vscode.workspace.workspaceFolders![0]!.uri;
  const paths = PROGRAM_FILES.map((f) => vscode.Uri.joinPath(workspace, f).fsPath);
  await until(() => (vscode.workspace.textDocuments.some((d) => paths.includes(d.uri.fsPath)) ? undefined : true), 10_000);
  for (const f of PROGRAM_FILES) await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspace, f)).then(undefined, () => undefined);
}

describe('README first steps, your own program on Local among them (rendered workbench)', function () {
  this.timeout(300_000);
  let api: ExtensionApi;
  let python: string | undefined;
  let workspace: string;
  const seen = new Set<string>();
  const person = new Person();
  let invoice = '';
  let started = 0;
  let terminalBefore: Record<string, unknown> = {};

  before(async function () {
    python = samplePython();
    if (!python) this.skip();
    api = await activateExtension();
    workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    // As a fresh profile and clone start (the suites before this one may have left a key or files): Local active, no
    // key, no program, nothing sent.
    await api.environments.keys.delete('local');
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('workbench.action.closeAllEditors');
    await removeProgramFiles();
    for (const e of api.history.list('local')) seen.add(e.id);
    const terminal = vscode.workspace.getConfiguration('terminal.integrated');
    terminalBefore = { 'profiles.linux': terminal.inspect('profiles.linux')?.globalValue, 'defaultProfile.linux': terminal.inspect('defaultProfile.linux')?.globalValue, gpuAcceleration: terminal.inspect('gpuAcceleration')?.globalValue };
    await terminal.update('profiles.linux', { 'tpp-readme': { path: '/bin/sh', env: { PATH: `${path.dirname(python!)}:${process.env.PATH ?? ''}` } } }, vscode.ConfigurationTarget.Global);
    await terminal.update('defaultProfile.linux', 'tpp-readme', vscode.ConfigurationTarget.Global);
    await terminal.update('gpuAcceleration', 'off', vscode.ConfigurationTarget.Global); // rows in the DOM, readable
    await cmd('workbench.action.closeAllEditors');
    await cmd('workbench.view.explorer');
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
    for (const t of vscode.window.terminals) if (t.name.startsWith('Tire Protection: ')) t.dispose();
    await cmd('workbench.action.closePanel');
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
    if (api) await api.environments.keys.delete('local');
    const terminal = vscode.workspace.getConfiguration('terminal.integrated');
    for (const [k, v] of Object.entries(terminalBefore)) await terminal.update(k, v, vscode.ConfigurationTarget.Global);
    await removeProgramFiles();
    await cmd('workbench.view.extension.tpp');
    await sleep(500);
  });

  it('step 1: open the Tire Protection view, click Generate Key Pair, Enter (P-256), Enter (secret storage only)', async () => {
    started = performance.now();
    await person.click('.part.activitybar .action-item a[aria-label^="Tire Protection"]');
    const button = '.part.sidebar .welcome-view-content a.monaco-button:has-text("Generate Key Pair")';
    assert.ok(await until(async () => ((await texts(button)).length ? true : undefined), 20_000), 'the Get Started view offers Generate Key Pair');
    await person.click(button);
    await person.pick(/Generate Key Pair for Local/, /^P-256/);
    await person.pick(/New key pair for Local/, /Only in VS Code/);
    await waitToast(/Generated a P-256 key pair for Local/, 'readme-1-key-pair');
    assert.ok(await api.environments.keys.get('local'), 'Local has a key pair');
    assert.equal(person.actions, 4, 'the icon, the button, two Enters');
  });

  it('step 2: right-click Local › Verify Connection: the Local sandbox answers with its generated Partner ID', async () => {
    assert.ok(await until(async () => (await texts(rowSelector('Local'))).length > 0), 'the Local row');
    await person.click({ selector: rowSelector('Local'), button: 'right' });
    assert.ok(await until(async () => ((await menuItems()).some((t) => t.includes('Verify Connection')) ? true : undefined)), `its menu offers Verify Connection: ${JSON.stringify(await menuItems())}`);
    await person.click('.context-view .monaco-menu .action-menu-item:has-text("Verify Connection")');
    // The Local sandbox starts on first use: on a loaded machine that can take over a minute.
    await waitToast(/Local accepts the token: partner_id local-/, 'readme-2-verify-connection', 150_000);
  });

  it('step 3: in the Explorer, open tire-protection-registration.json, click Send to Local, and again: two invoice numbers', async () => {
    await person.click('.part.activitybar .action-item a[aria-label^="Explorer"]');
    const file = '.part.sidebar .monaco-list-row[aria-label^="tire-protection-registration.json"]';
    assert.ok(await until(async () => (await texts(file)).length > 0, 20_000), 'the Explorer lists the example');
    await person.click(file);
    await person.clickCodeLens('Send to Local');
    const first = await sent(api, seen, (e) => e.method === 'POST' && e.status === 201);
    await responseView(/201/);
    await person.clickCodeLens('Send to Local');
    const second = await sent(api, seen, (e) => e.method === 'POST' && e.status === 201);
    invoice = invoiceOf(second.exchange?.request.body);
    assert.match(invoice, /^INV-/);
    assert.notEqual(invoiceOf(first.exchange?.request.body), invoice, 'a new invoice number each time');
    await responseView(/201 Created/);
    await screenshot('readme-3-sent-twice');
  });

  it('step 4: Write Program…, Enter (Python), Run in Terminal: the program loads tpp-local.env itself and gets its 201', async () => {
    const program = path.join(workspace, 'tpp_sample.py');
    await person.clickCodeLens('Write Program');
    await person.pick(/Write Program/, /^Python/);
    await waitToast(/Wrote tpp_sample\.py: it loads tpp-local\.env/, 'readme-4a-program-written');
    assert.ok(fs.existsSync(program) && fs.existsSync(path.join(workspace, 'tpp-local.env')), 'the program and its dotenv file, beside the example');
    assert.ok(await until(() => (vscode.window.activeTextEditor?.document.uri.fsPath === program ? true : undefined)), 'the program is open');
    const titleActions = () => driver<(string | null)[]>('attrs', { selector: '.part.editor .editor-actions .action-label', name: 'aria-label' });
    assert.ok(await until(async () => ((await titleActions()).some((a) => a?.startsWith('Run in Terminal')) ? true : undefined)), `Run in Terminal on the program's title bar too: ${JSON.stringify(await titleActions())}`);
    await person.clickToastButton('Wrote tpp_sample.py', 'Run in Terminal');
    // The program made its invoice number when it ran: the request the Integration Log keeps says which.
    const logged = await until(() => api.integrationLog.list().find((e) => e.source === 'sandbox-log' && e.response?.status === 201 && /python/i.test(e.request.headers?.['user-agent'] ?? '')), 60_000);
    assert.ok(logged, `the program's 201 reached the Local sandbox; terminal: ${JSON.stringify(await texts('.terminal-wrapper .xterm-rows'))}`);
    const actions = person.actions;
    const seconds = (performance.now() - started) / 1000;
    const terminal = await until(async () => (await texts('.terminal-wrapper .xterm-rows')).find((t) => /HTTP 201/.test(t)), 20_000);
    assert.ok(terminal, `the terminal prints HTTP 201: ${JSON.stringify(await texts('.terminal-wrapper .xterm-rows'))}`);
    await screenshot('readme-4b-program-ran');
    console.log(`      README first steps 1–4, to your program's 201: ${actions} actions (${person.done.clicks} clicks, ${person.done.chords} key chords, ${person.done.typed} typed strings; no paste, no hand edit), ${seconds.toFixed(1)} s of machine time`);
    assert.ok(actions <= MAX_ACTIONS, `at most ${MAX_ACTIONS} actions to the program's 201, not ${actions}`);

    // What the README says to look at then: the Integration Log, Local's registrations, its Connection row.
    const mine = invoiceOf(logged.request.body);
    assert.match(mine, /^INV-/, JSON.stringify(logged));
    await cmd('workbench.view.extension.tpp');
    await until(async () => {
      await scrollLogToTop();
      return (await sidebarRows()).find((t) => /^201 · Local · POST registrations/.test(t));
    }, 20_000);
    await row(/^201 · Local · POST registrations/);
    await expandRow('Local');
    await row(/^Connection\s*answering — last status 201/);
    await expandRow('Registrations');
    // Its registration is the newest, listed last: after the earlier suites' registrations it lies below the
    // Environments view's fold, where rows are not drawn, so scroll there as a person does.
    const ENV_LIST = '.part.sidebar .pane:has(.pane-header:has-text("Environments")) .monaco-list';
    await until(async () => {
      await driver('wheel', { selector: ENV_LIST, dy: 100_000 });
      return (await sidebarRows()).some((t) => t.startsWith(mine));
    }, 20_000);
    await row(new RegExp(`^${mine}`));
    await screenshot('readme-4c-your-program-201');
  });

  it('step 5: File Claim… and Cancel Registration… on its row, then both again from the palette: 409s named by invoice number', async () => {
    await cmd('notifications.clearAll');
    await row(new RegExp(`^${invoice}`));
    await contextMenu(invoice, 'File Claim…');
    assert.ok(await until(() => (vscode.window.activeTextEditor?.document.uri.scheme === 'tpp-draft' ? true : undefined)), 'the claim draft opened');
    await person.clickCodeLens('Send to Local');
    await sent(api, seen, (e) => e.method === 'POST' && /\/claims$/.test(e.path) && e.status === 201);
    await screenshot('readme-5a-claim-filed');
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
    await screenshot('readme-5b-cancelled-menu');
    await driver('press', 'Escape');
    assert.ok(await until(async () => ((await menuItems()).length === 0 ? true : undefined)), 'the context menu closed');

    await runFromPalette('Tire Protection: Cancel Registration…');
    await pick(/Cancel registration \(Local\)/, new RegExp(`^${invoice}.*Cancelled`, 's'), invoice);
    await answerInput(/cancelledOn/);
    await sent(api, seen, (e) => e.method === 'PATCH' && e.status === 409);
    // The registration it conflicts with, by the invoice number a person knows, not its id.
    const view = await responseView(new RegExp(`Open Invoice ${invoice}`));
    assert.match(view, new RegExp(`conflicts with the state of registration ${invoice} \\(it was cancelled on `));
    await screenshot('readme-5c-second-cancellation-409');
    await cmd('notifications.clearAll');

    await runFromPalette('Tire Protection: File Claim…');
    await pick(/File a claim \(Local\)/, new RegExp(`^${invoice}.*Cancelled`, 's'), invoice);
    assert.ok(await until(() => (vscode.window.activeTextEditor?.document.uri.scheme === 'tpp-draft' ? true : undefined)), 'the claim draft opened');
    await person.clickCodeLens('Send to Local');
    await sent(api, seen, (e) => /\/claims$/.test(e.path) && e.status === 409);
    await responseView(new RegExp(`Open Invoice ${invoice}`));
    await screenshot('readme-5d-claim-on-cancelled-409');
    console.log(`      README first steps 1–5: ${((performance.now() - started) / 1000).toFixed(1)} s of machine time`);
  });
});
