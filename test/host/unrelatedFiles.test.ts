// The extension stays in its lane: another project's JSON files (a package.json, a registration.json, files named
// like payload kinds but without the toolkit's `.tpp.json` namespace) get no activation, no diagnostics, no iat/exp
// hover, no status item and no menu item of ours. The host tier's window is already activated by the examples
// workspace, so activation is checked on the manifest; everything else on the running extension and, with the
// driver, on the rendered workbench.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, EXTENSION_ID } from '../shared/extension';
import { driver, hasDriver, sleep, texts, until } from '../shared/driver';
import type { ExtensionApi } from '../../src/extension/extension';

interface Manifest {
  activationEvents: string[];
  contributes: { jsonValidation: { fileMatch: string }[]; menus: Record<string, { command: string; when?: string }[]> };
}
const manifest = () => vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as Manifest;

/** A glob of `workspaceContains` or `fileMatch` (only `*` and `**` are used there) as a test of a file name. */
const globMatches = (glob: string, name: string) => new RegExp(`(^|/)${glob.replace(/^\*\*\//, '').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`).test(name);

/** Files of another project: named like payload kinds, with fields a payload would be refused for, and JWT claims. */
const FILES: Record<string, unknown> = {
  'package.json': { name: 'someone-else', version: '1.0.0', iat: 1700000000, exp: 1700000300 },
  'registration.json': { invoiceNumber: 42, tires: 'four', iat: 1700000000 },
  'march.registration.json': { invoiceNumber: 42, tires: 'four' },
  'a.shop.json': { uniqueId: 7 },
  'b.part.json': { quantity: 'many' },
  'c.transaction.json': {},
  'd.cancellation.json': {},
};
const OWN_STATUS = (t: string) => t.includes('TPP:');

describe('Unrelated JSON files (another project in the workspace)', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  const dir = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'unrelated-project');
  const uris = () => Object.keys(FILES).map((name) => vscode.Uri.joinPath(dir(), name));

  before(async () => {
    api = await activateExtension();
    for (const [name, body] of Object.entries(FILES)) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir(), name), Buffer.from(JSON.stringify(body, null, 2) + '\n'));
  });
  after(async () => {
    await vscode.workspace.getConfiguration('tpp').update('statusBar.show', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(dir(), { recursive: true });
  });

  it('no activation event and no JSON schema association of ours matches them', () => {
    const { activationEvents, contributes } = manifest();
    for (const name of Object.keys(FILES)) {
      for (const e of activationEvents.filter((x) => x.startsWith('workspaceContains:'))) assert.ok(!globMatches(e.slice('workspaceContains:'.length), name), `${e} matches ${name}`);
      for (const { fileMatch } of contributes.jsonValidation) assert.ok(!globMatches(fileMatch, name), `${fileMatch} validates ${name}`);
    }
    assert.ok(contributes.jsonValidation.every((j) => globMatches(j.fileMatch, `x.${j.fileMatch.slice(2)}`) && j.fileMatch.endsWith('.tpp.json')));
  });

  it('opened in editors: no diagnostics of ours and no iat/exp hover', async () => {
    for (const uri of uris()) {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      api.diagnostics.validate(doc);
    }
    await sleep(500);
    for (const uri of uris()) {
      assert.deepEqual(api.diagnostics.problemsOf(uri), [], uri.path);
      assert.deepEqual(vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tpp'), [], uri.path);
    }
    const pkg = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(dir(), 'package.json'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', pkg.uri, pkg.positionAt(pkg.getText().indexOf('1700000300') + 2));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.doesNotMatch(text, /expires|expired|ago|ISO|\d{4}-\d\d-\d\dT/, text);
  });

  it('every editor and explorer menu item of ours needs a payload file, a flow, a program Write Program… wrote or a document of ours in its when', () => {
    const { menus } = manifest().contributes;
    // (VS Code hands back the when clauses normalised: `resourceScheme == 'tpp-record'`.)
    const own = /tpp\.isPayloadFile|resourcePath in '?tpp\.(payloadFiles|programFiles)|editorLangId == '?http|resourceScheme == '?tpp-record/;
    for (const menu of ['editor/title', 'editor/title/context', 'editor/context', 'explorer/context']) {
      for (const item of menus[menu] ?? []) assert.match(item.when ?? '', own, `${menu} ${item.command}: ${item.when}`);
    }
  });

  it('rendered: no status item and no editor menu item of ours on them; both there on a payload file; the setting hides the item', async function () {
    if (!hasDriver()) this.skip();
    await vscode.commands.executeCommand('workbench.view.explorer');
    const statusItems = () => texts('.part.statusbar .statusbar-item');
    for (const name of ['package.json', 'registration.json', 'march.registration.json']) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(dir(), name)));
      await sleep(300);
      assert.ok(await until(async () => ((await statusItems()).some(OWN_STATUS) ? undefined : true), 5000), `${name}: ${JSON.stringify(await statusItems())}`);
      const menu = await editorContextMenu();
      assert.ok(!menu.some((m) => /Copy as Code|Tire Protection|Send Payload/.test(m)), `${name}: ${JSON.stringify(menu)}`);
      const explorer = await explorerContextMenu(vscode.Uri.joinPath(dir(), name));
      assert.ok(explorer.length > 0 && !explorer.some((m) => /Copy as Code|Tire Protection/.test(m)), `${name} in the Explorer: ${JSON.stringify(explorer)}`);
    }
    // The same checks see our items where they belong: on a payload file.
    const payload = vscode.Uri.joinPath(dir(), 'own.registration.tpp.json');
    await vscode.workspace.fs.writeFile(payload, Buffer.from('{\n  "invoiceNumber": "INV-1"\n}\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(payload));
    assert.ok(await until(async () => ((await statusItems()).some(OWN_STATUS) ? true : undefined)), JSON.stringify(await statusItems()));
    const menu = await until(async () => {
      const m = await editorContextMenu();
      return m.some((x) => x.includes('Copy as Code')) ? m : undefined;
    });
    assert.ok(menu, 'Copy as Code… on a payload file');
    assert.ok((await explorerContextMenu(payload)).some((x) => x.includes('Copy as Code')), 'Copy as Code… on a payload file in the Explorer');
    await vscode.workspace.getConfiguration('tpp').update('statusBar.show', false, vscode.ConfigurationTarget.Global);
    assert.ok(await until(async () => ((await statusItems()).some(OWN_STATUS) ? undefined : true)), `tpp.statusBar.show false hides it: ${JSON.stringify(await statusItems())}`);
  });
});

/** The entries of the active editor's context menu (opened with a right click, closed again). */
async function editorContextMenu(): Promise<string[]> {
  return contextMenuOf('.editor-instance .monaco-editor .view-lines');
}

/** The entries of a file's context menu in the Explorer (revealed and selected first). */
async function explorerContextMenu(uri: vscode.Uri): Promise<string[]> {
  await vscode.commands.executeCommand('revealInExplorer', uri);
  await sleep(400);
  return contextMenuOf('.explorer-folders-view .monaco-list-row.selected');
}

async function contextMenuOf(selector: string): Promise<string[]> {
  await driver('click', { selector, button: 'right' });
  const items = (await until(async () => {
    const t = await texts('.context-view .monaco-menu .action-menu-item');
    return t.length ? t : undefined;
  })) ?? [];
  await driver('press', 'Escape');
  return items;
}
