// The palette's registration pickers read the model the tree reads, and lead to the 409s of README step 4: right
// after a registration is cancelled (its row in the tree says Cancelled), Cancel Registration… and File Claim… from
// the palette still offer it, after the registrations they apply to, with its state and the 409 it will meet; picked,
// they send (or open the claim draft) and the server's 409 follows. Text typed into Cancel Registration… that matches no
// row is taken as the invoice number. Read from the rendered quick input. Leaves the workbench as it found it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';
import { answerInput, exampleRegistration, expandRow, pick, quickPickRows, runFromPalette, startWithLocalKey, waitResponse, waitToast } from '../shared/workbench';

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

  it('after a cancellation, both pickers offer the cancelled registration with its state, and picking it gives the 409', async () => {
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
    const keptAt = cancelRows.findIndex((r) => r.startsWith(kept));
    const cancelledAt = cancelRows.findIndex((r) => r.startsWith(cancelled));
    assert.ok(keptAt >= 0 && cancelledAt > keptAt, `the registration that is not cancelled first, then the cancelled one: ${JSON.stringify(cancelRows)}`);
    assert.match(cancelRows[cancelledAt]!, /Cancelled[\s\S]*409/, 'its state and the 409 it meets are shown');
    await pick(/Cancel registration \(Local\)/, new RegExp(`^${cancelled}`), cancelled);
    await answerInput(/cancelledOn/);
    await waitResponse(/409 Conflict/, 'picker-cancel-again-409');
    await cmd('notifications.clearAll');

    await runFromPalette('Tire Protection: File Claim…');
    const claimRows = await quickPickRows(/File a claim \(Local\)/);
    assert.ok(claimRows.some((r) => r.startsWith(kept)), `File Claim… offers the registration that is not cancelled: ${JSON.stringify(claimRows)}`);
    assert.ok(claimRows.some((r) => r.startsWith(cancelled) && /Cancelled[\s\S]*409/.test(r)), `File Claim… offers the cancelled one, with its state: ${JSON.stringify(claimRows)}`);
    await pick(/File a claim \(Local\)/, new RegExp(`^${cancelled}`), cancelled);
    await waitToast(new RegExp(`Registration ${cancelled} is cancelled: the server answers this claim with 409`));
    assert.ok(await until(() => (vscode.window.activeTextEditor?.document.uri.scheme === 'tpp-draft' ? true : undefined)), 'the claim draft opened');
    await runFromPalette('Tire Protection: Send Payload');
    await waitResponse(/409 Conflict/, 'picker-claim-on-cancelled-409');
    await cmd('notifications.clearAll');
    await cmd('workbench.action.closeAllEditors');
  });

  it('Cancel Registration… takes typed text that matches no row as the invoice number', async () => {
    const elsewhere = `INV-PT-${Date.now().toString(36).toUpperCase()}`;
    const example = await exampleRegistration();
    await api.api.send('local', 'createTireProtectionRegistration', {}, { ...example, invoiceNumber: elsewhere } as never);
    await runFromPalette('Tire Protection: Cancel Registration…');
    await quickPickRows(/Cancel registration \(Local\)/);
    await driver('type', elsewhere);
    const rows = await until(async () => {
      const r = await texts('.quick-input-widget .monaco-list-row');
      return r.some((x) => x.includes(`Use invoice number "${elsewhere}"`)) ? r : undefined;
    });
    assert.ok(rows, `the free-entry item names the typed invoice number: ${JSON.stringify(await texts('.quick-input-widget .monaco-list-row'))}`);
    await screenshot('picker-cancel-typed-invoice');
    await driver('press', 'Enter');
    await answerInput(new RegExp(`Store number of ${elsewhere}`));
    await answerInput(/cancelledOn/);
    await waitToast(new RegExp(`Cancelled registration ${elsewhere} on Local`));
    await cmd('notifications.clearAll');
  });
});
