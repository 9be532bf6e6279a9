// Environment setup and record states in the rendered workbench: the Configure Environment
// checklist with every missing item (screenshot), one item filled from it, the Get Started view for Sandbox, the
// environment switched by clicking the status bar item, and the tree with registrations in their states
// (screenshot). Screenshots: test-results/ui/setup-*.png. Leaves the workbench as it found it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolvePayloadVariables } from '../../src/core/variables';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';
import { expandRow, quickInput, sidebarRows } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);

describe('environment setup and record states (rendered workbench)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  const tag = Date.now().toString(36).toUpperCase();

  before(async () => {
    api = await activateExtension();
    await cmd('workbench.view.extension.tpp');
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.clearRegistrationFilter', 'local');
    await vscode.workspace.getConfiguration('tpp.registrations').update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
    await api.environments.keys.delete('local');
    await api.environments.keys.delete('sandbox');
    for (const k of ['baseUrl', 'partnerId']) await vscode.workspace.getConfiguration('tpp.sandbox').update(k, undefined, vscode.ConfigurationTarget.Global);
    await sleep(500);
  });

  it('Configure Environment lists every missing item of Sandbox at once, and one is filled from the list', async () => {
    await cmd('tpp.selectEnvironment', 'sandbox');
    void cmd('tpp.configureEnvironment', 'sandbox');
    const list = await until(async () => {
      const t = await quickInput();
      return /Configure Sandbox: 0 of 5 done/.test(t) && /Connection verified/.test(t) ? t : undefined;
    });
    assert.ok(list, await quickInput());
    for (const item of ['Base address', 'Partner ID', 'Key pair', 'Public key sent to the administrator', 'Connection verified']) assert.match(list, new RegExp(item));
    await sleep(300);
    await screenshot('setup-01-configure-checklist');
    await driver('type', 'Base address');
    await driver('press', 'Enter');
    assert.ok(await until(async () => /ending in \/api\/v3/.test(await quickInput())), 'the base address input');
    await driver('type', 'https://sandbox.invalid/api/v3');
    await driver('press', 'Enter');
    const after = await until(async () => {
      const t = await quickInput();
      return /Configure Sandbox: 1 of 5 done/.test(t) ? t : undefined;
    });
    assert.ok(after, await quickInput());
    assert.equal(vscode.workspace.getConfiguration('tpp.sandbox').inspect('baseUrl')?.globalValue, 'https://sandbox.invalid/api/v3');
    await sleep(300);
    await screenshot('setup-02-configure-one-done');
    await driver('press', 'Escape');
  });

  it('Get Started shows the missing items of the active Sandbox with a Configure Environment button', async () => {
    const welcome = await until(async () => {
      const t = (await texts('.part.sidebar .welcome-view-content')).join('\n');
      return /Configure Environment/.test(t) && /Partner ID/.test(t) ? t : undefined;
    });
    assert.ok(welcome, (await texts('.part.sidebar .welcome-view-content')).join('\n'));
    assert.match(welcome, /Sandbox environment has no key pair/);
    assert.doesNotMatch(welcome, /no base address/, 'the base address is set now');
    await screenshot('setup-03-get-started-sandbox');
  });

  it('clicking the status-bar item switches the environment', async () => {
    await driver('click', '.part.statusbar .statusbar-item:has-text("TPP: Sandbox")');
    assert.ok(await until(async () => /Choose an environment/.test(await quickInput()) || /Select Environment/.test(await quickInput())), await quickInput());
    await driver('type', 'Local');
    await driver('press', 'Enter');
    assert.ok(await until(() => api.environments.active.get() === 'local'));
    assert.ok(await until(async () => (await texts('.part.statusbar .statusbar-item')).some((t) => t.includes('TPP: Local'))));
  });

  it('the tree shows registrations in their states (Active, No tires left, Cancelled)', async () => {
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const example = resolvePayloadVariables(JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'tire-protection-registration.json'))).toString()), 'tire-protection-registration') as Record<string, unknown>;
    const create = async (suffix: string, tires: number) =>
      String(((await api.api.send('local', 'createTireProtectionRegistration', {}, { ...example, invoiceNumber: `INV-${tag}-${suffix}`, tires: (example.tires as unknown[]).slice(0, tires) } as never)).response.body as { id: string }).id);
    await create('ACTIVE', 2);
    const none = await create('NOTIRES', 1);
    const cancelled = await create('CANCELLED', 2);
    await api.api.send('local', 'createTireProtectionClaim', { id: none }, { serviceInvoiceNumber: `SRV-${tag}`, serviceInvoiceDate: '2026-11-01', authorizedAmount: 80, tires: [{ original: { make: 'A', model: 'B', size: 'C' } }] } as never);
    await api.api.send('local', 'cancelTireProtectionRegistration', { id: cancelled }, { cancelledOn: new Date().toISOString() } as never);
    // A prefix is matched among the rows read: one page holds every registration of this run.
    await vscode.workspace.getConfiguration('tpp.registrations').update('pageSize', 500, vscode.ConfigurationTarget.Global);
    await cmd('tpp.filterRegistrations', 'local', { invoicePrefix: `INV-${tag}-` });
    await expandRow('Local');
    await expandRow('Registrations');
    for (const s of ['ACTIVE', 'NOTIRES']) await expandRow(`INV-${tag}-${s}`);
    const rows = await until(async () => {
      const r = await sidebarRows();
      const has = (s: string, re: RegExp) => r.some((x) => x.startsWith(`INV-${tag}-${s}`) && re.test(x));
      return has('ACTIVE', /Active · 2 tires available/) && has('NOTIRES', /No tires left/) && has('CANCELLED', /Cancelled/) ? r : undefined;
    }, 30_000);
    assert.ok(rows, JSON.stringify(await sidebarRows()));
    await sleep(300);
    await screenshot('setup-04-tree-states');
  });
});
