// The diagnostics of flow files agree with `tpp run` (docs/flows-editor.md, What the editor checks as `tpp run`
// does), in a real extension host over the examples workspace: every `.http` file of examples/ opened has no problem
// (each first shows one control error, proving it was checked with its data file's columns, then none once the
// control is undone); `{{row.<column>}}` and `# @var` names are completed; a run of a flow whose `# @var` name
// tpp.variables does not give is refused before anything is sent, as `tpp run` exits 2.
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { until } from '../shared/driver';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
/** The repository's examples/ (this file runs from out/test/host), of which the workspace is a copy. */
const EXAMPLES = resolve(__dirname, '..', '..', '..', 'examples');
const tppDiagnostics = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tpp');
const show = (ds: readonly vscode.Diagnostic[]) => ds.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)} ${d.message}`).join('\n');
const labels = (list: vscode.CompletionList) => list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));

function httpFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? httpFiles(join(dir, e.name)) : e.name.endsWith('.http') ? [join(dir, e.name)] : []));
}

describe('flow diagnostics of the examples workspace agree with tpp run', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async () => {
    api = await activateExtension();
    await api.flows.discover();
  });

  after(async () => {
    await cmd('workbench.action.closeAllEditors');
  });

  it('every .http file of examples/ opened has no problem; a control error in each shows it was checked', async () => {
    const files = httpFiles(EXAMPLES).map((f) => relative(EXAMPLES, f).split('\\').join('/'));
    assert.ok(files.length >= 6, files.join(', '));
    for (const rel of files) {
      const uri = vscode.Uri.joinPath(folder(), rel);
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc, { preview: false });
      const data = /^# @data /m.test(doc.getText());
      // The control: a reference that is wrong for this file (a column its data file lacks, or an unknown name).
      const control = data ? '{{row.noSuchColumn}}' : '{{noSuchName}}';
      assert.ok(await editor.edit((e) => e.insert(new vscode.Position(doc.lineCount, 0), `\n### control\nGET {{baseUrl}}/verify-token?x=${control}\n`)));
      const controlled = await until(() => {
        const ds = tppDiagnostics(uri);
        return ds.length > 0 && ds.every((d) => d.message.startsWith(control)) ? ds : undefined;
      });
      assert.ok(controlled?.length === 1, `${rel}: only the control error shows: ${show(tppDiagnostics(uri))}`);
      if (data) assert.match(controlled[0]!.message, /has no column noSuchColumn \(its columns: invoice, shop, enrollDate, /, `${rel}: the columns come from the data file`);
      await cmd('workbench.action.files.revert');
      const clean = await until(() => tppDiagnostics(uri).length === 0 && doc.getText().indexOf('### control') < 0);
      assert.ok(clean, `${rel}: no problem once the control is undone:\n${show(tppDiagnostics(uri))}`);
    }
  });

  it('completes row.<column> from the data file and the # @var names', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'backfill', 'sales-v2.http');
    const doc = await vscode.workspace.openTextDocument(uri);
    const line = doc.getText().split('\n').findIndex((l) => l.includes('"ShopID": "{{row.shop}}"'));
    const inRow = new vscode.Position(line, doc.lineAt(line).text.indexOf('{{row.') + '{{row.'.length);
    const rows = labels(await cmd<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, inRow, '.'));
    for (const want of ['row.invoice', 'row.vehicleYear', 'row.dot4']) assert.ok(rows.includes(want), `${want} in ${rows.join(', ')}`);
    const inName = new vscode.Position(line, doc.lineAt(line).text.indexOf('{{row.') + 2);
    const names = await cmd<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, inName, '{');
    const company = names.items.find((i) => i.label === 'company');
    assert.ok(company, `company in ${labels(names).join(', ')}`);
    assert.match(String(company.detail), /# @var: given with --var company=… or tpp\.variables/);
    assert.ok(labels(names).includes('row.invoice'), 'row columns are offered at {{ too');
  });

  it('a run whose # @var name tpp.variables does not give is refused before anything is sent, naming the line and --var', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'flows', 'declared.http');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(['# @var region   the partner region', '', '### verify', 'GET {{baseUrl}}/verify-token?region={{region}}', '', '?? status == 200', ''].join('\n')));
    await api.flows.load(uri);
    const results = await cmd<unknown[]>('tpp.runFlow', uri, 'local');
    assert.deepEqual(results, [], 'nothing ran');
    const [report] = api.flowTests.lastRun;
    assert.equal(report?.outcome, 'errored');
    assert.match(report?.messages[0]?.message ?? '', /^line 1: region is declared with # @var but not given: pass --var region=… \(in the editor, set region in tpp\.variables/);
    await cmd('notifications.clearAll');
    await vscode.workspace.fs.delete(uri);
  });
});
