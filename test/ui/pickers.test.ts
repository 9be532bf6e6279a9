// The palette's registration pickers read the model the tree reads: right after a registration is cancelled (its row
// in the tree says Cancelled), Cancel Registration… from the palette no longer offers it, and File Claim… does not
// offer a cancelled one; a registration of the same run that is not cancelled is offered by both (the pickers did
// read the rows). Read from the rendered quick input. Leaves the workbench as it found it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';
import { exampleRegistration, expandRow, quickInputClosed, quickPickRows, runFromPalette, startWithLocalKey } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const sidebarRows = () => texts('.part.sidebar .monaco-list-row');

describe('registration pickers of the palette (rendered workbench)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  const prefix = `INV-PK-${Date.now().toString(36).toUpperCase()}-`;
  const cancelled = `${prefix}CANCELLED`;
  const kept = `${prefix}KEPT`;

  before(async () => {
    api = await startWithLocalKey();
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
    await cmd('tpp.clearRegistrationFilter', 'local');
    await vscode.workspace.getConfiguration('tpp.registrations').update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    await cmd('notifications.clearAll');
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
    await api.environments.keys.delete('local');
    await sleep(300);
  });

  it('after a cancellation, Cancel Registration… and File Claim… from the palette no longer offer the cancelled registration', async () => {
    const example = await exampleRegistration();
    const create = async (invoiceNumber: string) => String(((await api.api.send('local', 'createTireProtectionRegistration', {}, { ...example, invoiceNumber } as never)).response.body as { id: string }).id);
    const id = await create(cancelled);
    await create(kept);
    // The tree reads its list first, as a person looks at it before cancelling: both rows, Not cancelled.
    await vscode.workspace.getConfiguration('tpp.registrations').update('pageSize', 500, vscode.ConfigurationTarget.Global);
    await cmd('tpp.filterRegistrations', 'local', { invoicePrefix: prefix });
    await expandRow('Local');
    await expandRow('Registrations');
    const listed = await until(async () => {
      const r = await sidebarRows();
      return [cancelled, kept].every((i) => r.some((x) => x.startsWith(i) && /Not cancelled/.test(x))) ? r : undefined;
    }, 20_000);
    assert.ok(listed, JSON.stringify(await sidebarRows()));

    void cmd('tpp.cancelRegistration', { kind: 'registration', env: 'local', id, invoiceNumber: cancelled }, { cancelledOn: new Date().toISOString() });
    const row = await until(async () => (await sidebarRows()).find((r) => r.startsWith(cancelled) && /Cancelled/.test(r) && !/Not cancelled/.test(r)), 20_000);
    assert.ok(row, `the tree shows it Cancelled: ${JSON.stringify(await sidebarRows())}`);
    await cmd('notifications.clearAll');

    // At once, as a person opening the palette right after the cancellation would.
    await runFromPalette('Tire Protection: Cancel Registration…');
    const cancelRows = await quickPickRows(/Cancel registration \(Local\)/);
    await screenshot('picker-cancel-after-cancellation');
    assert.ok(cancelRows.some((r) => r.startsWith(kept)), `Cancel Registration… offers the registration that is not cancelled: ${JSON.stringify(cancelRows)}`);
    assert.ok(!cancelRows.some((r) => r.startsWith(cancelled)), `Cancel Registration… no longer offers the cancelled one: ${JSON.stringify(cancelRows)}`);
    await driver('press', 'Escape');
    assert.ok(await quickInputClosed(), 'the picker closed');

    await runFromPalette('Tire Protection: File Claim…');
    const claimRows = await quickPickRows(/File a claim \(Local\)/);
    assert.ok(claimRows.some((r) => r.startsWith(kept)), `File Claim… offers the registration that is not cancelled: ${JSON.stringify(claimRows)}`);
    assert.ok(!claimRows.some((r) => r.startsWith(cancelled)), `File Claim… does not offer the cancelled one: ${JSON.stringify(claimRows)}`);
    await driver('press', 'Escape');
  });
});
