// A flow the editor refuses sends nothing at all (docs/flows.md, What a flow may do): the whole flow is checked before
// its first request, as tpp run checks it, in a real extension host. A local server stands in for another host and
// counts what reaches it; a refusal names the file, line and column on the Test Explorer item, in Send Flow Request's
// result and as a diagnostic of the .http file.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { RequestResult } from '../../src/core/flows/types';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { driver, texts, until } from '../shared/driver';
import { showDialogs } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;

describe('flows: a refused flow sends nothing, not even its first requests', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let server: http.Server;
  let other = '';
  const received: string[] = [];

  /** A flow at the workspace folder's top, so that `../` leaves it. */
  async function writeFlow(name: string, lines: readonly string[]): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(folder(), name);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(lines.join('\n') + '\n'));
    await api.flows.load(uri);
    return uri;
  }

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    server = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    other = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(join(dirname(folder().fsPath), 'outside.txt'), 'a secret beside the workspace folder');
  });
  beforeEach(() => void (received.length = 0));
  after(async () => {
    await new Promise((r) => server.close(r));
    await cmd('workbench.action.closeAllEditors');
  });

  it('a body file outside the workspace folder in the 2nd request: nothing is sent; the item, Send Flow Request and a diagnostic name file, line and column', async () => {
    // The 2nd request goes to the environment, where a body file may go: only the file's place refuses it.
    const uri = await writeFlow('refused-file.http', [`GET http://${other}/first`, '', '###', 'POST {{baseUrl}}/tire-protection/registrations', 'Content-Type: text/plain', '', '< ../outside.txt', '']);
    const history = api.history.list('local').length;
    const results = await cmd<RequestResult[]>('tpp.runFlow', uri, 'local');
    assert.deepEqual(received, [], 'not even the first request');
    assert.equal(api.history.list('local').length, history, 'nothing reached the environment');
    assert.deepEqual(results?.map((r) => r.outcome), ['errored', 'errored']);
    const report = api.flowTests.lastRun.find((r) => r.id.endsWith('#1'));
    assert.match(report?.messages[0]?.message ?? '', /refused-file\.http:7:1: \.\.\/outside\.txt is outside the flow's project .*tpp\.flows\.allowRead/, JSON.stringify(api.flowTests.lastRun));
    assert.equal(report?.messages[0]?.line, 7, 'the item points at the < line');

    const sent = await cmd<{ result: RequestResult }>('tpp.sendFlowRequest', uri, 1, 'local');
    assert.equal(sent?.result.outcome, 'errored');
    assert.match(sent?.result.message ?? '', /refused-file\.http:7:1: .*outside the flow's project/);
    assert.deepEqual(received, [], 'Send Flow Request sent nothing either');
    assert.equal(api.history.list('local').length, history);

    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const diagnostic = await until(() => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'flow-body-file'));
    assert.ok(diagnostic, JSON.stringify(vscode.languages.getDiagnostics(uri)));
    assert.deepEqual([diagnostic.range.start.line, diagnostic.range.start.character], [6, 0]);
    assert.match(diagnostic.message, /outside the flow's project/);
  });

  it('{{partnerId}} to another host in the 2nd request, refused in the dialog: asked before the first request, nothing is sent', async () => {
    const uri = await writeFlow('refused-host.http', [`GET http://${other}/first`, '', '###', `POST http://${other}/second`, 'Content-Type: application/json', '', '{ "who": "{{partnerId}}" }', '']);
    // VS Code refuses modal dialogs while extension tests run: shown here as a person sees it, and answered with Escape.
    await showDialogs(true);
    const running = Promise.resolve(cmd<RequestResult[]>('tpp.runFlow', uri, 'local'));
    try {
      const dialog = await until(async () => (await texts('.monaco-dialog-box')).join(' | ') || undefined, 20_000);
      assert.match(dialog ?? '', new RegExp(`would send the Partner ID \\(\\{\\{partnerId\\}\\}\\) to ${other.replace(/\./g, '\\.')}, which is not an address of Local`));
      assert.deepEqual(received, [], 'asked before the first request');
      await driver('press', 'Escape');
    } finally {
      await showDialogs(false);
    }
    const results = await running;
    assert.deepEqual(received, [], 'not even the first request');
    assert.deepEqual(results?.map((r) => r.outcome), ['errored', 'errored']);
    assert.match(results?.[0]?.message ?? '', new RegExp(`refused-host\\.http:4:6: .*the Partner ID \\(\\{\\{partnerId\\}\\}\\) to ${other.replace(/\./g, '\\.')}, which is not an address of the environment`));
  });

  it('a backfill whose 2nd request sends {{row.n}} to another host, refused in the dialog: asked before the first row, no row is sent', async () => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), 'refused-rows.csv'), Buffer.from('n\n1\n2\n'));
    const uri = await writeFlow('refused-rows.http', ['# @data ./refused-rows.csv', `GET http://${other}/first`, '', '###', `POST http://${other}/second`, 'Content-Type: application/json', '', '{ "n": "{{row.n}}" }', '']);
    await showDialogs(true);
    const running = Promise.resolve(cmd('tpp.runFlow', uri, 'local'));
    try {
      const dialog = await until(async () => (await texts('.monaco-dialog-box')).join(' | ') || undefined, 20_000);
      assert.match(dialog ?? '', /would send the data file's \{\{row\.n\}\} to 127\.0\.0\.1:\d+/);
      assert.deepEqual(received, [], 'asked before the first row');
      await driver('press', 'Escape');
    } finally {
      await showDialogs(false);
    }
    await running;
    assert.deepEqual(received, [], 'no row was sent');
    assert.match(api.flowTests.lastBackfill?.error ?? '', /^Not run: no row is sent until the flow is corrected: refused-rows\.http:5:6: .*the data file's \{\{row\.n\}\}/);
  });
});
