// Local shows its addresses as Sandbox does (README: every environment shows its base address): the v3, v2 and
// eligibility base addresses of the embedded sandbox as rows of the rendered tree, each with Copy Address inline and
// in its context menu; Configure Environment › Local › Base address lists the same three. Screenshot:
// test-results/ui/local-addresses.png. Leaves the workbench as it found it (tree collapsed, quick input closed).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension } from '../shared/extension';
import { driver, screenshot, texts, until } from '../shared/driver';
import { contextMenu, expandRow, quickPickRows, rowSelector } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);

describe('Local base addresses (rendered tree)', function () {
  this.timeout(120_000);
  let origin = '';

  before(async () => {
    const api = await activateExtension();
    await cmd('workbench.view.extension.tpp');
    // Test editors run Local on any free port (tpp.local.port = 0): the addresses are known once the sandbox started.
    await api.api.target('local');
    assert.ok(await until(() => api.localSandbox.info?.origin, 60_000), 'the Local sandbox started');
    origin = api.localSandbox.info!.origin;
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
  });

  it('the Local row lists its v3, v2 and eligibility addresses, each with Copy Address', async () => {
    await expandRow('Local');
    const wanted: [string, string][] = [
      ['Base address (v3)', `${origin}/api/v3`],
      ['v2 address', origin],
      ['Eligibility address', `${origin}/api/v1`],
    ];
    for (const [label, url] of wanted) {
      const row = await until(async () => (await texts(rowSelector(label)))[0]);
      assert.ok(row, `a row "${label}" under Local: ${JSON.stringify(await texts('.part.sidebar .monaco-list-row'))}`);
      assert.equal(row.replace(/\s+/g, ''), `${label}${url}`.replace(/\s+/g, ''), 'the label, then the address as its description');
      const inline = await driver<(string | null)[]>('attrs', { selector: `${rowSelector(label)} .actions .action-label`, name: 'aria-label' });
      assert.ok(inline.includes('Copy Address…'), `${label} has Copy Address inline: ${JSON.stringify(inline)}`);
    }
    // A wider side bar shows the addresses whole (without window focus the resize commands act on the editor part:
    // narrowing it widens the side bar).
    for (let i = 0; i < 6; i++) await cmd('workbench.action.decreaseViewWidth');
    await screenshot('local-addresses');
    for (let i = 0; i < 6; i++) await cmd('workbench.action.increaseViewWidth');
    await contextMenu('v2 address', 'Copy Address…');
    const copied = await until(async () => (await texts('.part.statusbar')).join(' ').includes(`Copied ${origin}`), 10_000);
    assert.ok(copied, `the status bar says what was copied: ${(await texts('.part.statusbar')).join(' ')}`);
  });

  it('Configure Environment › Local › Base address lists the same three addresses', async () => {
    void cmd('tpp.configureEnvironment', 'local');
    await quickPickRows(/Configure Local/);
    await driver('type', 'Base address');
    await driver('press', 'Enter');
    const rows = await quickPickRows(/Local base addresses/);
    for (const url of [`${origin}/api/v3`, origin, `${origin}/api/v1`]) assert.ok(rows.some((r) => r.includes(url)), `${url} listed: ${JSON.stringify(rows)}`);
    await driver('press', 'Escape');
  });
});
