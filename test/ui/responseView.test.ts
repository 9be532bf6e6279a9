// The response view in the rendered workbench: a registration sent to Local renders in one
// panel beside the payload; sending it again gives a 409 with the registration it conflicts with. The page runs
// in a webview iframe: its content is read from the page's own report, its look from the screenshots
// test-results/ui/response-view-201.png and response-view-409.png (the README shows the latter).
// Its Open Invoice… button opens the conflicting registration in a tab named by the invoice number a person knows.
// Leaves the workbench as it found it (Local key deleted, editors closed).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import type { RequestOutcome } from '../../src/extension/send/runRequest';
import { activateExtension } from '../shared/extension';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);

describe('response view (rendered workbench)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let uri: vscode.Uri;
  const invoice = `INV-UI-${Date.now().toString(36).toUpperCase()}`;

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
  });

  after(async () => {
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    await api.environments.keys.delete('local');
    if (uri) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    await sleep(300);
  });

  it('renders a 201 beside the payload: status and meaning, facts, headers and the body as a foldable tree', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    uri = vscode.Uri.joinPath(folder, 'ui-response.tire-protection-registration.json');
    const tire = { make: 'BFGoodrich', model: 'All-Terrain T/A KO2', size: '275/65R18', retailPrice: 289.99 };
    const payload = {
      $schema: 'tpp://schemas/tire-protection-registration.json',
      product_id: 'tp-road-hazard-36',
      invoiceNumber: invoice,
      enrollDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + 'Z',
      customer: { name: 'Daniel Okafor <img src=x onerror=alert(1)>', email: 'daniel.okafor@example.com' },
      vehicle: { year: 2022, make: 'Ford', model: 'F-150' },
      tires: [tire, tire, tire, tire],
    };
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(payload, null, 2) + '\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const outcome = await cmd<RequestOutcome>('tpp.sendPayload', uri, 'local');
    assert.equal(outcome.ok, true, outcome.message);
    const report = outcome.shown?.report;
    assert.ok(report, 'the page reported it rendered');
    assert.match(report.text, /201 Created/);
    assert.equal(report.images, 0);
    await sleep(500);
    const toasts = await texts('.notifications-toasts .notification-list-item-message');
    assert.ok(!toasts.some((t) => /201|sent/.test(t)), `no notification of what the response view shows: ${JSON.stringify(toasts)}`);
    await cmd('notifications.clearAll');
    await sleep(600);
    await screenshot('response-view-201');
  });

  it('renders a 409 with the registration it conflicts with and a button to open it', async () => {
    await cmd('notifications.clearAll');
    const outcome = await cmd<RequestOutcome>('tpp.sendPayload', uri, 'local');
    assert.equal(outcome.status, 409, outcome.message);
    const report = outcome.shown?.report;
    assert.ok(report);
    assert.match(report.text, /409 Conflict/);
    assert.match(report.text, /Conflicts with/);
    assert.ok(report.actions.some((a) => a.startsWith('Open Invoice')), JSON.stringify(report.actions));
    assert.equal(report.live.length, 1, `one live region: ${JSON.stringify(report.live)}`);
    assert.match(report.live[0]!, /^409 Conflict: /, 'the live region says the status line only');
    assert.ok(report.live[0]!.length < 200, report.live[0]);
    await sleep(600);
    const toasts = await texts('.notifications-toasts .notification-list-item-message');
    assert.ok(!toasts.some((t) => /409|refused/.test(t)), `no toast over the response view that explains the 409: ${JSON.stringify(toasts)}`);
    await cmd('notifications.clearAll');
    await sleep(600);
    await screenshot('response-view-409');
  });

  it('reads in a dark and a high-contrast theme: theme colours, a light tab icon, high-contrast borders (screenshots)', async () => {
    const config = vscode.workspace.getConfiguration('workbench');
    try {
      for (const [theme, shot] of [['Default Dark Modern', 'response-view-409-dark'], ['Default High Contrast', 'response-view-409-high-contrast']] as const) {
        await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
        await sleep(1200);
        const outcome = await cmd<RequestOutcome>('tpp.sendPayload', uri, 'local');
        assert.equal(outcome.status, 409, outcome.message);
        await cmd('notifications.clearAll');
        await sleep(800);
        assert.ok(await screenshot(shot));
      }
    } finally {
      await config.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
      await sleep(800);
    }
  });

  it('Open Invoice… of the 409 opens the registration in a tab titled by its invoice number, not its id', async () => {
    const tabs = () => texts('.part.editor .tabs-container .tab');
    await driver('click', { selector: 'vscode-button:has-text("Open Invoice")', frames: true });
    const tab = await until(async () => (await tabs()).find((t) => t.includes('· registration')), 20_000);
    assert.ok(tab, `a record tab opened: ${JSON.stringify(await tabs())}`);
    await screenshot('response-view-409-open-invoice');
    assert.equal(tab.trim(), `${invoice} · registration`);
  });
});
