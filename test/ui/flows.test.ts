// A flow (.http file, docs/flows-editor.md) in the rendered Test Explorer: a request whose answer is not one the
// contract declares (a scheduled 502 from the Local sandbox's control API, docs/testing-your-application.md) fails its
// `?? contract`; the Test Explorer shows the failed request and the message at the `??` line. Screenshot:
// test-results/ui/flows.png (README: media/screenshots/flows.png). Leaves Local without a key, as it found it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RequestResult } from '../../src/core/flows/types';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { screenshot, sleep, texts, until } from '../shared/driver';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);

const FLOW = [
  '### the token is accepted',
  'GET {{baseUrl}}/verify-token',
  '',
  '?? status == 200',
  '?? contract',
  '',
  '### the answer the contract declares',
  'GET {{baseUrl}}/verify-token',
  '',
  '?? contract',
  '',
];

describe('flows in the Test Explorer (rendered DOM)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;

  after(async () => {
    await api?.environments.keys.delete('local');
    await cmd('workbench.action.closeAllEditors');
    await cmd('workbench.action.closePanel');
    await cmd('notifications.clearAll');
  });

  it('shows a failed ?? contract and its message', async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'flows', 'contract.http');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(FLOW.join('\n')));
    await cmd('workbench.action.closeAllEditors');
    await cmd('workbench.action.closePanel');
    await cmd('notifications.clearAll');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });

    // The second request meets a 502 (every attempt of its retries): an answer the contract does not declare.
    const origin = new URL((await api.api.target('local')).baseUrls.v3!).origin;
    const fault = (n: number) => ({ method: 'GET', path: '/api/v3/verify-token', fault: 502, times: n });
    const first = await api.flowRuns.run({ flow: api.flows.get(uri)!, env: 'local', only: [0] });
    assert.equal(first[0]?.outcome, 'passed', JSON.stringify(first[0]?.assertions));
    await fetch(`${origin}/__tpp/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault(10)) });
    let results: readonly RequestResult[] | undefined;
    try {
      results = await cmd<RequestResult[]>('tpp.runFlow', uri, 'local');
    } finally {
      await fetch(`${origin}/__tpp/faults`, { method: 'DELETE' });
    }
    const failed = results?.find((r) => r.outcome === 'failed');
    assert.ok(failed, `a request failed: ${JSON.stringify(results?.map((r) => [r.outcome, r.message, r.assertions.map((a) => a.message)]))}`);
    const contract = failed.assertions.find((a) => a.assertion.subject.kind === 'contract' && !a.passed);
    assert.ok(contract, 'the ?? contract assertion failed');

    await cmd('workbench.view.testing.focus');
    await cmd('testing.collapseAll').then(undefined, () => undefined);
    const rows = await until(async () => {
      const t = await texts('.part.sidebar .monaco-list-row');
      return t.some((x) => x.includes('contract.http')) ? t : undefined;
    }, 20_000);
    assert.ok(rows, `the Test Explorer lists the file: ${JSON.stringify(await texts('.part.sidebar .monaco-list-row'))}`);
    // The editor shows the failure at its ?? line: peek the message there.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false, selection: new vscode.Range(contract.assertion.line - 1, 0, contract.assertion.line - 1, 0) });
    await cmd('testing.goToNextMessage').then(undefined, () => undefined);
    const peek = await until(async () => {
      const t = (await texts('.monaco-editor .peekview-widget, .monaco-editor .test-message-inline-content')).join('\n');
      return t.includes(contract.message.slice(0, 20)) ? t : undefined;
    }, 15_000);
    await sleep(500);
    await screenshot('flows');
    assert.ok(peek, `the message is shown in the editor: ${JSON.stringify(await texts('.monaco-editor .peekview-widget'))}`);
  });
});
