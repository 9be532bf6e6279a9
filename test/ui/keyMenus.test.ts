// The key actions of an environment's context menu follow its key's state, as a registration's follow its state: a
// Sandbox with no key offers Generate Key Pair… and Import Private Key…, not Rotate Key…, Confirm Key Rotation…,
// Delete Key… or Copy Public Key; with a key, Rotate Key… and Delete Key… come back (Confirm only while a rotation
// waits). Read from the rendered context menu. Leaves Sandbox without a key, as it found it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';
import { rowSelector } from '../shared/workbench';

/** Right-clicks the environment row `label` and returns its context menu's entries, then closes the menu. */
async function menuOf(label: string, shot?: string): Promise<string[]> {
  assert.ok(await until(async () => (await texts(rowSelector(label))).length > 0), `a tree row "${label}"`);
  await driver('click', { selector: rowSelector(label), button: 'right' });
  const items = await until(async () => {
    const t = await texts('.context-view .monaco-menu .action-menu-item');
    return t.length ? t : undefined;
  });
  assert.ok(items, `the context menu of ${label} opened`);
  await sleep(200);
  if (shot) await screenshot(shot);
  await driver('press', 'Escape');
  return items.map((t) => t.trim());
}

describe('key actions follow the key (rendered context menu)', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async () => {
    api = await activateExtension();
    await api.environments.keys.delete('sandbox');
    await vscode.commands.executeCommand('workbench.view.extension.tpp');
    await vscode.commands.executeCommand('workbench.actions.treeView.tpp.environments.collapseAll');
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
    await api.environments.keys.delete('sandbox');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('a Sandbox with no key offers no key action that needs one; with a key, Rotate and Delete are offered', async () => {
    const bare = await menuOf('Sandbox', 'key-menu-no-key');
    assert.ok(bare.some((t) => t.startsWith('Generate Key Pair')), JSON.stringify(bare));
    for (const needsKey of ['Rotate Key', 'Confirm Key Rotation', 'Delete Key', 'Copy Public Key', 'Save Public Key']) {
      assert.ok(!bare.some((t) => t.startsWith(needsKey)), `no ${needsKey} without a key: ${JSON.stringify(bare)}`);
    }
    await vscode.commands.executeCommand('tpp.generateKeyPair', 'sandbox', { curve: 'P-256', existing: 'replace' });
    const keyed = await until(async () => {
      const m = await menuOf('Sandbox');
      return m.some((t) => t.startsWith('Rotate Key')) ? m : undefined;
    }, 20_000);
    assert.ok(keyed, 'Rotate Key… is offered once there is a key');
    await menuOf('Sandbox', 'key-menu-with-key');
    assert.ok(keyed.some((t) => t.startsWith('Delete Key')) && keyed.some((t) => t.startsWith('Copy Public Key')), JSON.stringify(keyed));
    assert.ok(!keyed.some((t) => t.startsWith('Confirm Key Rotation')), `no rotation waits: ${JSON.stringify(keyed)}`);
    await vscode.commands.executeCommand('notifications.clearAll');
  });
});
