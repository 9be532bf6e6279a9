// A send the payload checker refuses is an ordinary outcome, not a failure of the toolkit: sent with the CodeLens, a
// file with errors is not sent, a warning says so, and the "Tire Protection" output channel (read as rendered in the
// Output panel) has one info line naming the file and its problems, no [error] line and no stack. Screenshot:
// test-results/ui/refused-send-log.png. Leaves the workbench as it found it (Local key deleted, panel and editors closed).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';
import { startWithLocalKey } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const lenses = () => texts('.monaco-editor .codelens-decoration a');
const toasts = () => texts('.notifications-toasts .notification-list-item-message');

/** The Output panel's rendered lines in the order shown (the editor reuses line elements, so DOM order is not it). */
async function outputLines(): Promise<string[]> {
  const sel = '.part.panel .view-lines .view-line';
  const [text, style] = await Promise.all([texts(sel), driver<(string | null)[]>('attrs', { selector: sel, name: 'style' })]);
  const top = (s: string | null) => Number(/top:\s*(-?[\d.]+)px/.exec(s ?? '')?.[1] ?? 0);
  return text.map((t, i) => ({ t, y: top(style[i] ?? null) })).sort((a, b) => a.y - b.y).map((l) => l.t.replace(/\u00a0/g, ' '));
}

describe('a send refused by the payload checker (rendered workbench)', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let uri: vscode.Uri | undefined;

  before(async () => {
    api = await startWithLocalKey();
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
  });

  after(async () => {
    await cmd('workbench.action.closePanel');
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    await api.environments.keys.delete('local');
    if (uri) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    await sleep(300);
  });

  it('logs one info line naming the file and its problems, with no [error] and no stack', async () => {
    const name = 'ui-refused.tire-protection-registration.json';
    uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, name);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify({ $schema: 'tpp://schemas/tire-protection-registration.json', invoiceNumber: 42, tires: 'four' }, null, 2) + '\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const errors = await until(() => vscode.languages.getDiagnostics(uri!).filter((d) => d.source === 'tpp' && d.severity === vscode.DiagnosticSeverity.Error).length);
    assert.ok(errors > 0, 'the payload checker reports errors');
    const sentBefore = api.history.list('local').length;
    // Where this test's lines start in the channel.
    const marker = `refused-send test ${Date.now().toString(36)}`;
    api.log.info(marker);

    assert.ok(await until(async () => (await lenses()).some((t) => t.includes('Send to Local'))), `CodeLens Send to Local: ${JSON.stringify(await lenses())}`);
    await driver('click', '.monaco-editor .codelens-decoration a:has-text("Send to Local")');
    const warning = await until(async () => (await toasts()).find((t) => t.startsWith(`Not sent: ${name}`)));
    assert.ok(warning, `a warning says it was not sent: ${JSON.stringify(await toasts())}`);
    assert.equal(api.history.list('local').length, sentBefore, 'nothing was sent');
    await cmd('notifications.clearAll'); // the warning would cover the log's last lines in the screenshot

    await cmd('tpp.showLog');
    await cmd('workbench.action.toggleMaximizedPanel');
    const lines = await until(async () => {
      const all = await outputLines();
      const at = all.findIndex((l) => l.includes(marker));
      return at >= 0 && all.slice(at).some((l) => l.includes('Not sent:')) ? all.slice(at + 1) : undefined;
    }, 20_000);
    await screenshot('refused-send-log');
    await cmd('workbench.action.toggleMaximizedPanel');
    assert.ok(lines, `the Output panel shows the channel's lines after the marker: ${JSON.stringify(await outputLines())}`);
    const text = lines.join('\n');
    const refusal = lines.find((l) => l.includes(`Not sent: ${name}`));
    assert.match(refusal ?? '', new RegExp(`\\[info\\] Not sent: ${name.replace(/\./g, '\\.')} has ${errors} errors?`), text);
    assert.match(text, /^\s+line \d+: /m, `the problems, one per line: ${text}`);
    assert.doesNotMatch(text, /\[error\]/, `no error line: ${text}`);
    assert.doesNotMatch(text, /PayloadRefused|^\s+at \S+ \(/m, `no stack: ${text}`);
  });
});
