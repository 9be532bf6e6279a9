// Variables in payload files in a real extension host, against the Local sandbox: completion
// after `{{`, hover, Ctrl+Alt+R sending the active example with its variables resolved (twice: the second send is a new
// registration, not a 409), the capture of the create, and a claim sent with `{{lastRegistration.id}}`.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../src/core/history/history';
import type { ExtensionApi } from '../../src/extension/extension';
import type { RequestOutcome } from '../../src/extension/send/runRequest';
import { driver, hasDriver, screenshot, sleep, until } from '../shared/driver';
import { activateExtension } from '../shared/extension';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
const bodyOf = (e: HistoryEntry) => JSON.parse(e.replay?.bodyJson ?? 'null') as Record<string, unknown> | null;

async function writeText(name: string, text: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(folder(), name);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
  return uri;
}

async function openPayload(api: ExtensionApi, uri: vscode.Uri): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  assert.ok(await until(() => api.diagnostics.lastDurationMs.has(uri.toString())), `${uri.path} was validated`);
  return editor;
}

/** Sends the active editor's payload as the keybinding does: Ctrl+Alt+R in the browser when the driver is there. */
async function sendWithKeybinding(api: ExtensionApi, uri: vscode.Uri): Promise<HistoryEntry> {
  const before = api.history.list('local')[0]?.id;
  // Earlier suites leave editors, webviews and views open (the response panel beside takes keys when focused):
  // start from the payload's editor alone and give it the keyboard.
  await cmd('workbench.action.closeAllEditors');
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false, preserveFocus: false });
  if (hasDriver()) {
    const name = uri.path.split('/').pop()!;
    await driver('click', `.monaco-editor[data-uri$="/${name}"] .view-lines`).catch(() => cmd('workbench.action.focusActiveEditorGroup'));
    await sleep(300); // the context key tpp.isPayloadFile follows the active editor
    await driver('press', 'Control+Alt+KeyR');
  } else await cmd('tpp.sendPayload'); // what the keybinding runs: no argument, the active editor, the active environment
  const sent = await until(() => {
    const e = api.history.list('local')[0];
    return e && e.id !== before && e.status !== undefined ? e : undefined;
  }, 60_000);
  if (!sent) await screenshot('variables-keybinding');
  assert.ok(sent, 'the keybinding sent a request');
  return sent;
}

describe('variables in payload files (Local)', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    if (!(await api.keys.summary('local'))) await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    // The Local sandbox starts on first use: start it here, so the sends below measure only themselves.
    assert.equal((await cmd<{ status: number }>('tpp.verifyConnection', 'local')).status, 200);
    await api.variables.clearCaptures('local');
    await vscode.workspace.getConfiguration('tpp').update('variables', { $shared: { storeNo: '0142' }, local: { productId: 'tp-road-hazard-36' } }, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('tpp').update('variables', undefined, vscode.ConfigurationTarget.Global);
    await cmd('workbench.action.closeAllEditors');
  });

  it('the keybinding is Ctrl+Alt+R / Cmd+Alt+R on payload files only', () => {
    const pkg = vscode.extensions.getExtension('tpp-toolkit.tire-protection-partner-toolkit')!.packageJSON as { contributes: { keybindings: { command: string; key: string; mac: string; when: string }[] } };
    const kb = pkg.contributes.keybindings.find((k) => k.command === 'tpp.sendPayload');
    assert.deepEqual({ key: kb?.key, mac: kb?.mac }, { key: 'ctrl+alt+r', mac: 'cmd+alt+r' });
    assert.match(kb!.when, /tpp\.isPayloadFile/);
  });

  it('completion after {{ offers dynamic values, the environment variables and the captures; hover tells when a value is known', async () => {
    const uri = await writeText('vars-complete.part.json', '{\n  "$schema": "tpp://schemas/part.json",\n  "partNumber": "{{",\n  "make": "{{$guid}}",\n  "model": "{{storeNo}}"\n}\n');
    const editor = await openPayload(api, uri);
    const list = await cmd<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(2, 19), '{');
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const l of ['$guid', '$timestamp', '$datetime', '$randomInt', '$date', 'storeNo', 'productId', 'lastRegistration.id', 'lastShop.uniqueId']) assert.ok(labels.includes(l), `${l} in ${labels.join(', ')}`);
    const randomInt = list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === '$randomInt')!;
    assert.match((randomInt.insertText as vscode.SnippetString).value, /^\\\$randomInt \$\{1:1\} \$\{2:100\}\}\}$/);
    const dynamic = await cmd<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(3, 15));
    assert.match(dynamic.map((h) => h.contents.map((c) => (c as vscode.MarkdownString).value).join('')).join(''), /resolved at send time/);
    const own = await cmd<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(4, 15));
    assert.match(own.map((h) => h.contents.map((c) => (c as vscode.MarkdownString).value).join('')).join(''), /0142/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor', editor.document.uri);
  });

  it('an unknown variable is a warning until the setting defines it', async () => {
    const uri = await writeText('vars-unknown.part.json', JSON.stringify({ $schema: 'tpp://schemas/part.json', $uniqueId: 'NW-1', product_id: '{{productCode}}', partNumber: 'P', make: 'M', model: 'X', size: '225/65R17', date: '{{$date}}', quantity: '{{$randomInt 1 9}}', cost: 10.5 }, null, 2));
    await openPayload(api, uri);
    const codes = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tpp').map((d) => (typeof d.code === 'object' ? d.code.value : d.code));
    assert.ok(await until(() => codes().includes('unknown-variable')), codes().join());
    assert.deepEqual(codes(), ['unknown-variable']);
    await vscode.workspace.getConfiguration('tpp').update('variables', { $shared: { storeNo: '0142', productCode: 'tp-road-hazard-36' }, local: { productId: 'tp-road-hazard-36' } }, vscode.ConfigurationTarget.Global);
    assert.ok(await until(() => codes().length === 0), `the setting's variable is known now: ${codes().join()}`);
  });

  let registrationId = '';
  it('Ctrl+Alt+R sends the example registration with its variables resolved; the second send is a new registration too', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'tire-protection-registration.json');
    const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    assert.match(text, /\{\{\$timestamp\}\}/, 'the example uses variables');
    await openPayload(api, uri);
    const first = await sendWithKeybinding(api, uri);
    assert.equal(first.method, 'POST');
    assert.ok(first.path.endsWith('/tire-protection/registrations'), first.path);
    assert.ok(first.status === 200 || first.status === 201, `${first.status} ${first.error ?? ''}`);
    const sent = bodyOf(first)!;
    assert.match(String(sent.invoiceNumber), /^INV-\d{10}-\d{4}$/, 'history shows the resolved body');
    assert.ok(!JSON.stringify(sent).includes('{{'));
    const second = await sendWithKeybinding(api, uri);
    assert.ok(second.status === 200 || second.status === 201, `${second.status} ${second.error ?? ''}`);
    assert.notEqual(bodyOf(second)!.invoiceNumber, sent.invoiceNumber);
    // The capture follows the answer (the history entry is written first).
    const captured = await until(() => (api.variables.captured('local').lastRegistration?.invoiceNumber === bodyOf(second)!.invoiceNumber ? api.variables.captured('local').lastRegistration : undefined));
    assert.ok(captured, 'the last create is captured');
    registrationId = String(captured.id);
    assert.match(registrationId, /^[0-9a-f]{24}$/);
    assert.equal(await vscode.workspace.fs.readFile(uri).then((b) => Buffer.from(b).toString('utf8')), text, 'the file itself is unchanged');
  });

  it('a claim with {{lastRegistration.id}} goes to the captured registration (and again: 4 tires, 1 per claim)', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'tire-protection-claim.json');
    await openPayload(api, uri);
    for (let i = 0; i < 2; i++) {
      const outcome = await cmd<RequestOutcome>('tpp.sendPayload');
      assert.equal(outcome.status, 201, outcome.message);
      const entry = api.history.list('local')[0]!;
      assert.ok(registrationId && entry.path.endsWith(`/tire-protection/registrations/${registrationId}/claims`), entry.path);
      assert.ok(typeof api.variables.captured('local').lastClaim?.id === 'number');
    }
  });

  it('a capture not made yet refuses the send with a clear message and sends nothing', async () => {
    await api.variables.clearCaptures('local');
    const before = api.history.list('local').length;
    const uri = vscode.Uri.joinPath(folder(), 'part.json');
    await openPayload(api, uri);
    assert.equal(await cmd('tpp.sendPayload'), undefined);
    assert.equal(api.history.list('local').length, before);
  });
});
