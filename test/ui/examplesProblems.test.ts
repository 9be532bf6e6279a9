// The examples workspace (what `npm start` opens) with every flow discovered and every `.http` file opened shows no
// problem (docs/flows-editor.md, What the editor checks as `tpp run` does): the data-driven flows' `{{row.<column>}}`,
// the `# @var company` of sales-v2.http, values without quotes, bodies checked as their request line's endpoint. The
// count is read where a person reads it, the status bar's Problems item and the Problems view. So that a count of 0
// cannot come from files not checked yet, each file first gets one control error (a column its data file lacks, or
// an unknown name): the count must reach exactly one error per file, then 0 once they are undone. Screenshot:
// test-results/ui/examples-problems.png.
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
/** The repository's examples/ (this file runs from out/test/ui), of which the workspace is a copy. */
const EXAMPLES = resolve(__dirname, '..', '..', '..', 'examples');

function httpFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? httpFiles(join(dir, e.name)) : e.name.endsWith('.http') ? [join(dir, e.name)] : []));
}

/** The status bar's Problems item: its numbers (errors, warnings, then infos when any) and what it says. */
async function statusProblems(): Promise<{ counts: number[]; said: string }> {
  const shown = (await texts('[id="status.problems"]')).join(' ');
  const labels = (await driver<(string | null)[]>('attrs', { selector: '[id="status.problems"], [id="status.problems"] a', name: 'aria-label' })).filter(Boolean).join(' | ');
  return { counts: (shown.match(/\d+/g) ?? []).map(Number), said: `${shown.trim()} (${labels})` };
}

describe('the examples workspace opens with no problem (rendered workbench)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;

  before(async () => {
    api = await activateExtension();
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
  });

  after(async () => {
    await cmd('workbench.action.closeAllEditors');
    await cmd('workbench.action.closePanel');
    await cmd('workbench.view.extension.tpp'); // the side bar the suites after this one start from
  });

  it('after discovery in the Testing view and opening every .http file: 0 problems in the status bar and the Problems view', async () => {
    const files = httpFiles(EXAMPLES).map((f) => relative(EXAMPLES, f).split('\\').join('/'));
    assert.ok(files.length >= 6, files.join(', '));
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const uris = files.map((f) => vscode.Uri.joinPath(folder, f));

    // The flow features load once the workspace is found to hold flow files; then the Testing view lists them.
    assert.ok(await until(() => api.flowTests, 30_000), 'the flow features loaded');
    await cmd('workbench.view.testing.focus');
    const discovered = await until(() => uris.every((u) => api.flows.get(u)), 30_000);
    if (!discovered) await screenshot('examples-problems-discovery');
    assert.ok(discovered, `the Test Explorer discovered every example flow: ${api.flows.uris().map(String).join(', ')}`);

    const docs: vscode.TextDocument[] = [];
    for (const uri of uris) docs.push((await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false })).document);
    const edit = new vscode.WorkspaceEdit();
    const ends = docs.map((doc) => doc.lineAt(doc.lineCount - 1).range.end);
    docs.forEach((doc, i) => {
      const control = /^# @data /m.test(doc.getText()) ? '{{row.noSuchColumn}}' : '{{noSuchName}}';
      edit.insert(doc.uri, ends[i]!, `\n### control\nGET {{baseUrl}}/verify-token?x=${control}\n`);
    });
    assert.ok(await vscode.workspace.applyEdit(edit));
    const controlled = await until(async () => {
      const s = await statusProblems();
      return s.counts[0] === files.length && s.counts[1] === 0 ? s : undefined;
    }, 30_000);
    assert.ok(controlled, `one control error per file (${files.length}), nothing else: ${(await statusProblems()).said}`);

    // Undone, and saved as they were.
    const undo = new vscode.WorkspaceEdit();
    docs.forEach((doc, i) => undo.delete(doc.uri, new vscode.Range(ends[i]!, doc.lineAt(doc.lineCount - 1).range.end)));
    assert.ok(await vscode.workspace.applyEdit(undo));
    for (const doc of docs) await doc.save();
    const clean = await until(async () => {
      const s = await statusProblems();
      return s.counts.length > 0 && s.counts.every((n) => n === 0) ? s : undefined;
    }, 30_000);
    assert.ok(clean, `the status bar counts no problem: ${(await statusProblems()).said}`);

    await cmd('workbench.actions.view.problems');
    const view = await until(async () => {
      const t = (await texts('.markers-panel')).join('\n');
      return /No problems have been detected in the workspace/.test(t) ? t : undefined;
    }, 10_000);
    assert.ok(view, `the Problems view is empty: ${(await texts('.markers-panel')).join('\n')}`);
    await sleep(300);
    await screenshot('examples-problems');
  });
});
