// Save as Flow (docs/flows.md "Recording a flow") in the rendered workbench: the README's first steps done in the
// editor on Local (Verify Connection, the example registration sent twice, a claim, a cancellation, then the 409s of a
// second cancellation and a claim on the cancelled registration), then **Save as Flow…** on the Request history row's
// context menu, "The last 15 minutes", the Save dialog's proposed file, and **Run Flow** on the message: the saved flow
// passes in the Test Explorer, again on the same Local sandbox, and again after the sandbox's reset. Screenshots:
// test-results/ui/save-as-flow-*.png. Prints the machine time from Save as Flow to the green run (never asserted).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { RequestResult } from '../../src/core/flows/types';
import type { ExtensionApi } from '../../src/extension/extension';
import type { FlowTestReport } from '../../src/extension/flows/testReport';
import type { RequestOutcome } from '../../src/extension/send/runRequest';
import { driver, screenshot, sleep, until } from '../shared/driver';
import { answerInput, clickToastButton, contextMenu, expandRow, pick, quickInput, startWithLocalKey, waitToast } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);

/** Sends `uri` (a payload file or a draft) to Local and returns the outcome, asserting its status. */
async function send(uri: vscode.Uri, status: number): Promise<RequestOutcome> {
  const outcome = await cmd<RequestOutcome>('tpp.sendPayload', uri, 'local');
  assert.equal(outcome?.status, status, outcome?.message);
  return outcome;
}

/**
 * Resets the editor's Local sandbox as `POST /__tpp/reset` resets a `tpp sandbox` (docs/sandbox.md, Control API).
 * The editor's sandbox answers control calls only with the admin token its process made at its start; the editor gives
 * it to a person through Copy Local Control Token (docs/testing-your-application.md, Security), and to this test, in
 * the extension's process, as the same value of the sandbox's info (`controlToken`), leaving the clipboard alone.
 */
async function resetLocalSandbox(api: ExtensionApi): Promise<void> {
  const info = api.localSandbox.info;
  assert.ok(info, 'the Local sandbox runs');
  const { origin, controlToken: token } = info;
  const res = await fetch(`${origin}/__tpp/reset`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
  assert.equal(res.status, 200, await res.text());
}

/** Resolves with the reports of the next Test Explorer run (a new `lastRun`) once it ended. */
async function nextRun(api: ExtensionApi, before: readonly FlowTestReport[]): Promise<readonly FlowTestReport[]> {
  const reports = await until(() => (api.flowTests.lastRun !== before && api.flowTests.lastRun.length ? api.flowTests.lastRun : undefined), 120_000);
  assert.ok(reports, 'the Test Explorer ran the flow');
  return reports;
}

const outcomes = (reports: readonly { outcome: string; status?: number }[]) => reports.map((r) => `${r.outcome} ${r.status ?? ''}`.trim());
const GREEN = ['passed 200', 'passed 201', 'passed 201', 'passed 201', 'passed 204', 'passed 409', 'passed 409'];

describe('Save as Flow: the README first steps become a regression flow that stays green (rendered workbench)', function () {
  this.timeout(400_000);
  let api: ExtensionApi;
  const saved: vscode.Uri[] = [];

  before(async () => {
    api = await startWithLocalKey();
    // A person who starts the story now: Local's Request history and the Integration Log hold only what follows.
    await cmd('tpp.clearHistory', 'local');
    await cmd('tpp.clearIntegrationLog');
    await cmd('tpp.filterIntegrationLog', 'all');
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
  });

  after(async () => {
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    for (const uri of saved) fs.rmSync(uri.fsPath, { force: true });
    await cmd('workbench.view.extension.tpp');
  });

  it('README steps 2–4 in the editor: verify, send the example twice, claim, cancel, then the two 409s', async () => {
    const verified = await cmd<{ status: number }>('tpp.verifyConnection', 'local');
    assert.equal(verified?.status, 200);
    const example = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'tire-protection-registration.json');
    await send(example, 201);
    const id = String(((await send(example, 201)).body as { id: string }).id);
    const row = { kind: 'registration', env: 'local', id };
    await send((await cmd<vscode.TextDocument>('tpp.fileClaim', row)).uri, 201);
    assert.equal((await cmd<RequestOutcome>('tpp.cancelRegistration', row, { cancelledOn: new Date().toISOString() }))?.status, 204);
    assert.equal((await cmd<RequestOutcome>('tpp.cancelRegistration', row, { cancelledOn: new Date().toISOString() }))?.status, 409);
    await send((await cmd<vscode.TextDocument>('tpp.fileClaim', row)).uri, 409);
    assert.equal(api.history.list('local').length, 7, JSON.stringify(api.history.list('local').map((e) => `${e.method} ${e.path} ${e.status}`)));
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
  });

  it('Save as Flow… on Request history, the last 15 minutes, Run Flow on its message: green, again, and after a reset', async () => {
    await cmd('workbench.view.extension.tpp');
    await expandRow('Local');
    const started = performance.now();
    await contextMenu('Request history', 'Save as Flow…');
    await pick(/Save as Flow: Request History of Local/, /^The last 15 minutes/);
    // The Save dialog (the editor's own, an input holding the proposed path): its proposal, in the workspace's flows/.
    const dialog = async () => {
      const shown = await quickInput();
      return /Save as Flow(?!:)/.test(shown) && !/The last 15 minutes/.test(shown);
    };
    assert.ok(await until(dialog, 20_000), `the Save dialog; shown: ${await quickInput()}`);
    await answerInput(/Save as Flow(?!:)/);
    const editor = await until(() => (vscode.window.activeTextEditor?.document.uri.path.endsWith('.http') ? vscode.window.activeTextEditor : undefined), 20_000);
    assert.ok(editor, 'the saved flow opened');
    const uri = editor.document.uri;
    saved.push(uri);
    assert.match(uri.path, /\/flows\/local-history-\d{8}-\d{4}\.http$/);
    const text = editor.document.getText();
    assert.match(text, /^# Recorded by Save as Flow from the Request History of Local \(Local\):/);
    // Only the second registration's answer is read (the claim and the cancellations are for it): it alone is named.
    assert.equal(text.match(/\{\{registration\.response\.body\.\$\.id\}\}/g)?.length, 4, text);
    assert.equal(text.match(/^# @name /gm)?.length, 1, text);
    assert.doesNotMatch(text, /Bearer|authorization|eyJ/i);
    await sleep(500); // the flow's diagnostics (docs/flows-editor.md) follow the document's opening
    assert.deepEqual(vscode.languages.getDiagnostics(uri).map((d) => `${d.range.start.line + 1}: ${d.message}`), [], 'the saved flow has no problem');
    await waitToast(/Saved flows\/local-history-.*\.http: 7 requests, 7 checked with \?\? contract/, 'save-as-flow-1-saved');
    const before = api.flowTests.lastRun;
    await clickToastButton('Saved flows/', 'Run Flow');
    const first = await nextRun(api, before);
    const seconds = (performance.now() - started) / 1000;
    assert.deepEqual(outcomes(first), GREEN, JSON.stringify(first.map((r) => r.messages)));
    await cmd('workbench.view.testing.focus');
    await sleep(800);
    await screenshot('save-as-flow-2-green');
    console.log(`      Save as Flow to a green regression flow: ${seconds.toFixed(1)} s of machine time`);

    const again = await cmd<RequestResult[]>('tpp.runFlow', uri, 'local');
    assert.deepEqual(outcomes((again ?? []).map((r) => ({ outcome: r.outcome, status: r.exchange?.response?.status }))), GREEN, 'twice in a row on the same Local sandbox');
    await resetLocalSandbox(api);
    const afterReset = await cmd<RequestResult[]>('tpp.runFlow', uri, 'local');
    assert.deepEqual(outcomes((afterReset ?? []).map((r) => ({ outcome: r.outcome, status: r.exchange?.response?.status }))), GREEN, 'after the sandbox was reset');
    await sleep(800);
    await screenshot('save-as-flow-3-green-after-reset');
  });

  it("Save as Flow… on the Integration Log's title bar: the story and the three runs, as logged by the sandbox, pass too", async () => {
    // The editor's own reads (its tree, a record's details) are hidden, and not saved: the story and three runs.
    const sent = () => api.integrationLog.list('all', false).length;
    await until(() => sent() >= 28, 20_000);
    assert.equal(sent(), 28, 'the story and three runs of its 7 requests');
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    await cmd('tpp.integrationLog.focus');
    await driver('click', '.part.sidebar .pane-header:has-text("Integration Log") .action-label[aria-label="Save as Flow…"]');
    await pick(/Save as Flow(?!:)/, /Integration Log/);
    await pick(/Save as Flow: Integration Log/, /^Everything kept/);
    assert.ok(await until(async () => /Save as Flow(?!:)/.test(await quickInput()) && !/Everything kept/.test(await quickInput()), 20_000), `the Save dialog; shown: ${await quickInput()}`);
    await answerInput(/Save as Flow(?!:)/);
    const editor = await until(() => (vscode.window.activeTextEditor?.document.uri.path.includes('/local-integration-log-') ? vscode.window.activeTextEditor : undefined), 20_000);
    assert.ok(editor, 'the saved flow opened');
    saved.push(editor.document.uri);
    assert.match(editor.document.getText(), /^# Recorded by Save as Flow from the Integration Log \(Local\):\n# 28 requests/);
    await waitToast(/Saved flows\/local-integration-log-.*\.http: 28 requests/, 'save-as-flow-4-integration-log');
    const results = await cmd<RequestResult[]>('tpp.runFlow', editor.document.uri, 'local');
    assert.deepEqual(outcomes((results ?? []).map((r) => ({ outcome: r.outcome, status: r.exchange?.response?.status }))), [...GREEN, ...GREEN, ...GREEN, ...GREEN]);
  });
});
