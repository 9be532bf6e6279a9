// The main flow on the Local sandbox in the rendered workbench: key generated -> connection verified ->
// registration sent from an example file with the CodeLens -> its row appears in the tree (read from the DOM) ->
// claim filed -> its row appears under the registration -> registration cancelled -> the row shows Cancelled ->
// a claim against it gives 409, explained in the response view (no toast over it) -> cancelling again gives 409. Screenshots: test-results/ui/flow-*.png.
// Leaves the workbench as it found it (Local key deleted, tree collapsed, editors closed) for the suites after it.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { driver, frameTexts, screenshot, sleep, texts, until } from '../shared/driver';
import { expandRow, sidebarRows, toasts, waitResponse, waitToast } from '../shared/workbench';

const lenses = () => texts('.monaco-editor .codelens-decoration a');
const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);

async function clickLens(title: string): Promise<void> {
  assert.ok(await until(async () => (await lenses()).some((t) => t.includes(title))), `CodeLens "${title}" rendered; have ${JSON.stringify(await lenses())}`);
  await driver('click', `.monaco-editor .codelens-decoration a:has-text("${title}")`);
}

async function clearToasts(): Promise<void> {
  await cmd('notifications.clearAll');
}

describe('main flow on the Local sandbox (rendered workbench)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  const invoice = `INV-UI-${Date.now().toString(36).toUpperCase()}`;
  let registrationId = '';
  let claimUri: vscode.Uri;
  let serviceInvoice = '';

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('workbench.view.extension.tpp');
  });

  after(async () => {
    await cmd('tpp.clearRegistrationFilter', 'local');
    await cmd('workbench.action.closeAllEditors');
    await clearToasts();
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
    await api.environments.keys.delete('local');
    await api.environments.keys.delete('sandbox');
    await api.environments.keys.delete('production');
    for (const env of ['sandbox', 'production'])
      for (const k of ['baseUrl', 'partnerId']) await vscode.workspace.getConfiguration(`tpp.${env}`).update(k, undefined, vscode.ConfigurationTarget.Global);
    await sleep(500);
  });

  it('1. generates a Local key pair', async () => {
    void cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    await waitToast(/Generated a P-256 key pair for Local/);
    await expandRow('Local');
    assert.ok(await until(async () => (await sidebarRows()).some((r) => /^Key pair\s*P-256/.test(r))));
    await screenshot('flow-01-key-generated');
    await clearToasts();
  });

  it('2. verifies the connection', async () => {
    void cmd('tpp.verifyConnection', 'local');
    // The first use of Local starts the sandbox (its database included): over 20 s on a loaded machine.
    await waitToast(/Local accepts the token: partner_id local-/, 'flow-02-connection-verified', 40_000);
    await clearToasts();
  });

  it('3. sends a registration from the example file with the CodeLens "Send to Local"', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const example = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'tire-protection-registration.json'))).toString()) as Record<string, unknown>;
    const uri = vscode.Uri.joinPath(folder, 'ui-flow.tire-protection-registration.json');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify({ ...example, invoiceNumber: invoice, customer: { name: '<img src=x onerror=alert(1)>', email: 'ui@example.com' } }, null, 2) + '\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await clickLens('Send to Local');
    // No notification on success: the response view shows the answer (VS Code UX Guidelines, Notifications).
    const entry = await until(() => api.history.list('local').find((e) => e.method === 'POST' && e.status !== undefined && e.status < 300));
    assert.ok(entry);
    await screenshot('flow-03-registration-sent');
    await clearToasts();
  });

  it('4. the registration appears in the tree, and as Active once expanded (DOM)', async () => {
    await cmd('tpp.filterRegistrations', 'local', { invoiceNumber: invoice });
    await expandRow('Registrations');
    const listed = await until(async () => (await sidebarRows()).find((r) => r.startsWith(invoice)), 20_000);
    assert.ok(listed, JSON.stringify(await sidebarRows()));
    assert.match(listed, /Not cancelled/, 'the list alone says no more (one list request per page)');
    await expandRow(invoice);
    const row = await until(async () => (await sidebarRows()).find((r) => r.startsWith(invoice) && /Active · 4 tires available/.test(r)), 20_000);
    assert.ok(row, JSON.stringify(await sidebarRows()));
    const pages = await api.registrations.pages('local', 'tire-protection');
    registrationId = String(pages[0]!.rows.find((r) => r.record.invoiceNumber === invoice)?.record._id ?? '');
    assert.ok(registrationId);
    await screenshot('flow-04-registration-in-tree');
  });

  it('5. files a claim (prefilled payload, sent with the CodeLens) and it appears under the registration', async () => {
    assert.ok(registrationId, 'step 4 found the registration');
    await cmd('workbench.action.closeAllEditors');
    const doc = await cmd<vscode.TextDocument>('tpp.fileClaim', { kind: 'registration', env: 'local', id: registrationId });
    const payload = JSON.parse(doc.getText()) as { tires: unknown[]; serviceInvoiceNumber: string };
    serviceInvoice = payload.serviceInvoiceNumber;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), JSON.stringify({ ...payload, tires: payload.tires.slice(0, 1), authorizedAmount: 289.99 }, null, 2) + '\n');
    await vscode.workspace.applyEdit(edit);
    // A copy on disk for step 7 (the draft stays open after the send, to be edited and sent again).
    claimUri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'ui-flow-claim.tire-protection-claim.json');
    await vscode.workspace.fs.writeFile(claimUri, Buffer.from(doc.getText()));
    await screenshot('flow-05a-claim-payload');
    await clickLens('Send to Local');
    await until(async () => ((await frameTexts('h1')).some((t) => t.includes('tire-protection-claim')) ? true : undefined), 20_000);
    const tabs = await texts('.part.editor .tabs-container .tab');
    assert.ok(tabs.some((t) => t.includes(`Claim on ${invoice}`)), `the claim draft's tab stays open: ${JSON.stringify(tabs)}`);
    assert.equal(api.drafts.size, 1, 'the draft is kept');
    assert.ok(await until(() => !vscode.workspace.textDocuments.some((d) => !d.isClosed && d.isDirty)), 'no dirty document left behind');
    await expandRow(invoice);
    const claimRow = await until(async () => (await sidebarRows()).find((r) => r.startsWith(serviceInvoice)), 20_000);
    assert.ok(claimRow, JSON.stringify(await sidebarRows()));
    assert.match(claimRow, /\$289\.99 · 1 tire/);
    assert.ok(await until(async () => (await sidebarRows()).find((r) => r.startsWith(invoice) && /3 tires available/.test(r))), JSON.stringify(await sidebarRows()));
    // The response view is a webview: wait until its page shows the claim's answer before the picture.
    await until(async () => ((await frameTexts('h1')).some((t) => t.includes('tire-protection-claim')) ? true : undefined), 20_000);
    await sleep(500);
    await screenshot('flow-05-claim-in-tree');
    await clearToasts();
  });

  it('6. cancels the registration and the row shows Cancelled', async () => {
    assert.ok(registrationId, 'step 4 found the registration');
    void cmd('tpp.cancelRegistration', { kind: 'registration', env: 'local', id: registrationId }, { cancelledOn: new Date().toISOString() });
    const row = await until(async () => (await sidebarRows()).find((r) => r.startsWith(invoice) && r.includes('Cancelled')), 20_000);
    assert.ok(row, JSON.stringify(await sidebarRows()));
    await screenshot('flow-06-cancelled');
    await clearToasts();
  });

  it('7. a claim against the cancelled registration gives 409, explained in the response view with no toast over it', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(claimUri), { viewColumn: vscode.ViewColumn.One });
    await clickLens('Send to Local');
    const t = await waitResponse(/409 Conflict[\s\S]*cancelled: no claim can be filed/, 'flow-07-claim-409');
    assert.match(t, /409 Conflict/);
    await clearToasts();
  });

  it('8. cancelling again gives 409', async () => {
    assert.ok(registrationId, 'step 4 found the registration');
    void cmd('tpp.cancelRegistration', { kind: 'registration', env: 'local', id: registrationId }, { cancelledOn: new Date().toISOString() });
    const t = await waitResponse(/409 Conflict[\s\S]*already cancelled/, 'flow-08-cancel-again-409');
    assert.match(t, /409 Conflict/);
    await clearToasts();
  });

  it('9. a request to Production first lists every missing prerequisite, then asks for the environment’s name', async () => {
    await clearToasts();
    const notSetUp = await cmd('tpp.cancelRegistration', { kind: 'registration', env: 'production', id: 'any' }, { cancelledOn: new Date().toISOString() });
    assert.equal(notSetUp, undefined, 'nothing was sent, no confirmation was asked');
    const t = await waitToast(/Not sent to Production/, 'flow-09a-production-not-set-up');
    assert.match(t, /Missing: Base address, Partner ID, Key pair/);
    assert.ok((await texts('.notifications-toasts .monaco-button')).some((b) => b.includes('Configure Environment')), 'a Configure Environment… button');
    await clearToasts();
    await cmd('tpp.configureEnvironment', 'production', { baseUrl: 'https://production.invalid/api/v3', partnerId: 'P-UI-PROD', curve: 'P-256' });
    const pending = cmd('tpp.cancelRegistration', { kind: 'registration', env: 'production', id: 'any' }, { cancelledOn: new Date().toISOString() });
    const prompt = await until(async () => (await texts('.quick-input-widget')).find((x) => x.includes('Type "Production"')));
    assert.ok(prompt, 'confirmation input shown');
    await driver('type', 'production');
    const warn = await until(async () => (await texts('.quick-input-widget')).find((x) => x.includes('Type Production exactly')));
    assert.ok(warn, 'a wrong name is refused');
    await screenshot('flow-09-production-guard');
    await driver('press', 'Escape');
    assert.equal(await pending, undefined, 'nothing was sent');
    assert.equal(api.history.list('production').length, 0);
  });

  it('10. a request that takes longer than a second shows a progress notification whose Cancel stops it', async () => {
    const server = http.createServer((_req, res) => {
      const t = setTimeout(() => res.end('{}'), 30_000);
      res.on('close', () => clearTimeout(t));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await cmd('tpp.generateKeyPair', 'sandbox', { curve: 'P-256', existing: 'replace' });
      const c = vscode.workspace.getConfiguration('tpp.sandbox');
      await c.update('baseUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`, vscode.ConfigurationTarget.Global);
      await c.update('partnerId', 'P-UI-SLOW', vscode.ConfigurationTarget.Global);
      await clearToasts();
      const pending = cmd('tpp.lookUpShop', 'sandbox', '+1 555 010 0199');
      const toast = await until(async () => (await toasts()).find((x) => x.includes('Look up shop')), 10_000);
      assert.ok(toast, 'progress notification shown');
      await sleep(400);
      await screenshot('flow-10-progress-with-cancel');
      await driver('click', '.notifications-toasts .notification-list-item:has-text("Look up shop") a.monaco-button:has-text("Cancel")');
      assert.equal(await pending, undefined, 'cancelled silently');
      const entry = await until(() => api.history.list('sandbox').find((e) => e.error === 'cancelled'));
      assert.ok(entry, JSON.stringify(api.history.list('sandbox')));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
