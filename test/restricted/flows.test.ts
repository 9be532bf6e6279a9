// Flows in Restricted Mode (docs/flows.md, What a flow may do; package.json capabilities.untrustedWorkspaces): the
// Test Explorer lists a cloned repository's flows, but Run Flow, Send Flow Request, a backfill and Resume Backfill
// send nothing until the folder is trusted; Run Flow says so in a dialog with a way to trust it. Every request of these
// flows goes to a server of the test's own, which counts what reaches it.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { driver, screenshot, texts, until } from '../shared/driver';
import { activateExtension } from '../shared/extension';
import { showDialogs } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;

describe('Restricted Mode: flows are listed, none is sent', function () {
  this.timeout(120_000);
  let server: Server;
  const received: string[] = [];
  let flow: vscode.Uri;
  let backfill: vscode.Uri;

  before(async () => {
    server = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    flow = vscode.Uri.joinPath(folder(), 'flows', 'cloned.http');
    await vscode.workspace.fs.writeFile(flow, Buffer.from(`### first\nGET ${origin}/first\n\n### second\nPOST ${origin}/second\nContent-Type: application/json\n\n{"a":1}\n`));
    backfill = vscode.Uri.joinPath(folder(), 'flows', 'cloned-rows.http');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), 'flows', 'cloned-rows.csv'), Buffer.from('n\n1\n2\n'));
    await vscode.workspace.fs.writeFile(backfill, Buffer.from(`# @data ./cloned-rows.csv\n### a row\nPOST ${origin}/row/{{row.n}}\n`));
    await activateExtension();
    // Local is set up, so nothing but Restricted Mode stands between these flows and the server.
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
  });

  after(async () => {
    await showDialogs(false);
    await new Promise((r) => server.close(r));
  });

  it('the window is in Restricted Mode and the Test Explorer lists the flows', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the harness opened the folder untrusted');
    const api = await activateExtension();
    await api.flowTests.controller.resolveHandler?.(undefined);
    const item = await until(() => api.flowTests.controller.items.get(flow.toString()));
    assert.ok(item, 'the flow is listed');
    assert.equal(item.children.size, 2);
  });

  it('Run Flow asks for trust in a dialog, with a way to give it, and sends nothing', async () => {
    await showDialogs(true);
    const running = cmd('tpp.runFlow', flow, 'local');
    const dialog = '.monaco-dialog-box';
    const message = await until(async () => (await texts(dialog)).join(' | ') || undefined, 20_000);
    assert.match(message ?? '', /Restricted Mode: flows and backfills send nothing until you trust it/);
    assert.match(message ?? '', /Manage Workspace Trust/);
    await screenshot('restricted-run-flow');
    await driver('press', 'Escape');
    await running;
    await showDialogs(false);
    assert.deepEqual(received, []);
  });

  it('Send Flow Request, a backfill and Resume Backfill send nothing either', async () => {
    await cmd('tpp.sendFlowRequest', flow, 1, 'local');
    await cmd('tpp.runFlow', backfill, 'local');
    await cmd('tpp.resumeBackfill', backfill, 'local');
    assert.deepEqual(received, []);
  });
});
