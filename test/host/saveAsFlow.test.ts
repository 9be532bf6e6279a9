// Save as Flow… from a selection of rows in a real extension host (docs/flows.md "Recording a flow"): a right-click
// on one of several selected Request history rows hands the command the clicked row and the selection, as VS Code
// does for a tree with canSelectMany; the flow holds exactly the selected requests, in the order they were sent, each
// with its observed `?? status`. In the Integration Log a request is taken once, whichever of its rows (the entry, its
// diagnosis) are selected. A selection that holds a row that is not a request is refused, naming that row, and
// nothing is written. The whole story through the palette and the last 15 minutes is the UI tier's
// (test/ui/saveAsFlow.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseFlow } from '../../src/core/flows/parse';
import type { Exchange } from '../../src/core/exchange/types';
import type { HistoryEntry } from '../../src/core/history/history';
import type { SaveAsFlowResult } from '../../src/extension/commands/saveAsFlow';
import type { ExtensionApi } from '../../src/extension/extension';
import type { RequestOutcome } from '../../src/extension/send/runRequest';
import type { TreeNode } from '../../src/extension/tree/node';
import { hasDriver, until } from '../shared/driver';
import { activateExtension } from '../shared/extension';
import { folderRows } from '../shared/tree';
import { answerInput, quickInput } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);

/** The rows of Local's Request history, newest first, as the view lists them. */
async function historyRows(api: ExtensionApi): Promise<(TreeNode & { entry: HistoryEntry })[]> {
  const local = (await api.view.getChildren()).find((n) => n.toTreeItem().id === 'environment:local');
  assert.ok(local, 'the Local row');
  const folder = (await api.view.getChildren(local)).find((n) => n.toTreeItem().contextValue === 'history');
  assert.ok(folder, "Local's Request history");
  return (await api.view.getChildren(folder)) as (TreeNode & { entry: HistoryEntry })[];
}

/**
 * Accepts the Save dialog's proposed file (the editor's own dialog, an input holding the path), failing at once when
 * a picker of Save as Flow is shown instead: the rows were then not taken as the selection.
 */
async function acceptSaveDialog(): Promise<void> {
  const shown = await until(async () => ((await quickInput()) || undefined), 20_000);
  assert.ok(shown && /Save as Flow(?!:)/.test(shown) && !/Which requests become the flow/.test(shown), `the Save dialog, not a picker; shown: ${shown}`);
  await answerInput(/Save as Flow(?!:)/);
}

/** The `.http` files of the workspace, anywhere in it. */
const flowFiles = async () => (await vscode.workspace.findFiles('**/*.http')).map((u) => u.fsPath).sort();

describe('Save as Flow… from selected rows', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let invoice = '';
  let registrationId = '';
  const written: vscode.Uri[] = [];

  before(async function () {
    // Without the workbench's driver the Save dialog cannot be answered (the test harness provides it).
    if (!hasDriver()) this.skip();
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    if (!(await api.environments.keys.get('local'))) await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256' });
    await cmd('tpp.clearHistory', 'local');
    // Three requests: a registration made, the connection verified, the registration cancelled.
    const example = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'tire-protection-registration.json');
    const created = await cmd<RequestOutcome>('tpp.sendPayload', example, 'local');
    assert.equal(created?.status, 201, created?.message);
    const body = created.body as { id: string };
    invoice = String((JSON.parse(created.exchange?.request.body ?? '{}') as { invoiceNumber?: unknown }).invoiceNumber ?? '');
    assert.match(invoice, /^INV-\d+-\d+$/, 'the example made its invoice number');
    assert.equal((await cmd<{ status: number }>('tpp.verifyConnection', 'local'))?.status, 200);
    registrationId = body.id;
    const row = { kind: 'registration', env: 'local', id: body.id };
    assert.equal((await cmd<RequestOutcome>('tpp.cancelRegistration', row, { cancelledOn: new Date().toISOString() }))?.status, 204);
  });

  after(async () => {
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    for (const uri of written) fs.rmSync(uri.fsPath, { force: true });
    if (api) await cmd('tpp.clearRegistrationFilter', 'local');
  });

  it('writes exactly the selected history rows, in the order they were sent, each with its ?? status', async () => {
    const rows = await historyRows(api);
    assert.deepEqual(rows.map((r) => `${r.entry.method} ${r.entry.status}`), ['PATCH 204', 'GET 200', 'POST 201'], 'newest first');
    const [cancel, , create] = rows;
    // Ctrl+click the cancellation, then right-click the creation: VS Code passes the clicked row, then the selection.
    const saving = cmd<SaveAsFlowResult>('tpp.saveAsFlow', create, [cancel, create]);
    await acceptSaveDialog();
    const result = await saving;
    assert.ok(result, 'the flow was saved');
    written.push(result.uri);
    assert.match(result.uri.path, /\/flows\/local-history-\d{8}-\d{4}\.http$/);
    const text = fs.readFileSync(result.uri.fsPath, 'utf8');
    assert.match(text, /^# Recorded by Save as Flow from the Request History of Local \(Local\):/);
    const flow = parseFlow(text, path.basename(result.uri.fsPath));
    assert.deepEqual(flow.problems, []);
    assert.deepEqual(
      flow.requests.map((q) => `${q.method} ${q.url}`),
      ['POST {{baseUrl}}/tire-protection/registrations', 'PATCH {{baseUrl}}/tire-protection/registrations/{{registration.response.body.$.id}}'],
      'the two selected requests, the creation first; not the verification between them',
    );
    assert.deepEqual(text.match(/^\?\? status .*$/gm), ['?? status == 201', '?? status == 204']);
    assert.equal(result.requests, 2);
    assert.doesNotMatch(text, /Bearer|authorization|eyJ/i, 'no token');
    assert.ok(!text.includes(invoice), 'the invoice number is new on each run');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, result.uri.fsPath, 'the saved flow is open');
  });

  it("takes a request once from the Integration Log, whichever of its rows (the entry, its diagnosis) are selected", async () => {
    const again = await cmd<RequestOutcome>('tpp.cancelRegistration', { kind: 'registration', env: 'local', id: registrationId }, { cancelledOn: new Date().toISOString() });
    assert.equal(again?.status, 409, 'a second cancellation');
    await cmd('tpp.filterIntegrationLog', 'all');
    const view = api.integrationLogView;
    // The sandbox's entries of this registration: its creation (by its invoice number) and the 409 (by its id).
    const entries = () => view.getChildren().filter((x): x is Exchange => 'request' in x && x.request.url.includes('/tire-protection/registrations'));
    const rows = await until(() => {
      const created = entries().find((x) => x.request.method === 'POST' && x.response?.status === 201 && x.request.body?.includes(invoice));
      const refused = entries().find((x) => x.request.method === 'PATCH' && x.response?.status === 409 && x.request.url.endsWith(registrationId));
      return created && refused ? { created, refused } : undefined;
    }, 20_000);
    assert.ok(rows, 'the sandbox logged the creation and the 409');
    const diagnosis = view.getChildren(rows.refused);
    assert.ok(diagnosis.length > 0, "the 409's diagnosis rows");
    const saving = cmd<SaveAsFlowResult>('tpp.saveAsFlow', rows.created, [rows.refused, diagnosis[0], rows.created]);
    await acceptSaveDialog();
    const result = await saving;
    assert.ok(result, 'the flow was saved');
    written.push(result.uri);
    const text = fs.readFileSync(result.uri.fsPath, 'utf8');
    assert.match(text, /^# Recorded by Save as Flow from the Integration Log \(Local\):/);
    assert.deepEqual(parseFlow(text, 'log.http').requests.map((q) => q.method), ['POST', 'PATCH'], 'the 409 once, though two of its rows were selected');
    assert.deepEqual(text.match(/^\?\? status .*$/gm), ['?? status == 201', '?? status == 409'], 'the 409 kept as the expected answer');
  });

  it('refuses a selection holding a row that is not a request, naming it, and writes nothing', async () => {
    await cmd('tpp.filterRegistrations', 'local', { invoiceNumber: invoice });
    const registration = (await folderRows(api, 'local', 'tire-protection')).find((n) => n.toTreeItem().label === invoice);
    assert.ok(registration, `the registration row ${invoice}`);
    const verify = (await historyRows(api)).find((r) => r.entry.method === 'GET');
    assert.ok(verify, 'the verification row');
    const before = await flowFiles();
    const said: string[] = [];
    const { error } = api.log;
    api.log.error = (m: string, e?: unknown) => (said.push(`${m}: ${e instanceof Error ? e.message : String(e)}`), error.call(api.log, m, e));
    const result = await Promise.resolve(cmd<SaveAsFlowResult>('tpp.saveAsFlow', verify, [verify, registration])).finally(() => Object.assign(api.log, { error }));
    assert.equal(result, undefined, 'nothing saved');
    assert.equal(said.length, 1, said.join('\n'));
    assert.match(said[0]!, new RegExp(`^Command tpp\\.saveAsFlow failed: Save as Flow takes requests, and "${invoice}" is not one: select rows of a Request history or of the Integration Log only\\.$`));
    assert.deepEqual(await flowFiles(), before, 'no file written');
  });
});
