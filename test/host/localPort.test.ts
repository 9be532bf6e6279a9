// The test editors never need a fixed port free: other editors on the machine (a person's `npm start`, other test
// runs) may hold Local's default port. The harness gives each test profile `tpp.local.port` = 0 (any free port) where
// this window reads a machine-scoped setting.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, EXTENSION_ID } from '../shared/extension';

describe('Test editors: Local on any free port', () => {
  it("the test profile's Local sandbox takes any free port, never the default another editor may hold", async function () {
    this.timeout(90_000);
    const api = await activateExtension();
    const props = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { configuration: { properties: Record<string, { default?: number }> } } }).contributes.configuration.properties;
    const fixedDefault = props['tpp.local.port']?.default;
    assert.equal(typeof fixedDefault, 'number', 'tpp.local.port has a default port');
    const inspected = vscode.workspace.getConfiguration('tpp.local').inspect<number>('port');
    // A remote window (the harness's workbench) reads a machine-scoped setting from the remote machine's settings;
    // VS Code drops the user settings' value once the extension's settings are registered, whenever that happens.
    const given = vscode.env.remoteName ? (inspected as { globalRemoteValue?: number } | undefined)?.globalRemoteValue : inspected?.globalValue;
    assert.equal(given, 0, `the test profile sets tpp.local.port to 0 where this window reads it: ${JSON.stringify(inspected)}`);
    const target = await api.api.target('local');
    const port = Number(new URL(target.baseUrls.v3 as string).port);
    assert.ok(port > 0 && port !== fixedDefault, `Local listens on a free port of its own (${port}), not on ${fixedDefault}`);
  });
});
