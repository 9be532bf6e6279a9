// Resend Request… as a person reaches it: History → right-click a POST /tire-protection/registrations entry → Resend
// Request…, in a 1400×880 window. The modal must fit in the window (its title and its Resend and Cancel buttons on the
// screen: a whole body in it once made it 1116 px tall, buttons at y = 944) and ask in a few lines (method, URL,
// invoice number, size), the body being in an editor. Screenshot: test-results/ui/resend-modal.png.
// Leaves the workbench as it found it (window size, Local key, editors, tree collapsed).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import type { RequestOutcome } from '../../src/extension/send/runRequest';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';
import { boxes, contextMenu, exampleRegistration, expandRow, insideWindow, resizeWindow, showDialogs, startWithLocalKey } from '../shared/workbench';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const WINDOW = { width: 1400, height: 880 };

describe('Resend Request… confirmation (rendered workbench)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let windowBefore: { width: number; height: number } | undefined;
  let uri: vscode.Uri | undefined;

  before(async () => {
    api = await startWithLocalKey();
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
    await showDialogs(false);
    if (windowBefore) await resizeWindow(windowBefore);
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    await cmd('workbench.actions.treeView.tpp.environments.collapseAll');
    await api.environments.keys.delete('local');
    if (uri) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    await sleep(300);
  });

  it('the modal of a registration POST fits a 1400×880 window and shows method, URL, invoice number and size, not the body', async () => {
    // The example registration as a person sends it (four tires, a customer, a vehicle): its indented body is about
    // 50 lines, more than such a window holds.
    const example = await exampleRegistration();
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const invoice = `INV-RS-${Date.now().toString(36).toUpperCase()}`;
    uri = vscode.Uri.joinPath(folder, 'ui-resend.tire-protection-registration.json');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify({ ...example, invoiceNumber: invoice }, null, 2) + '\n'));
    const sent = await cmd<RequestOutcome>('tpp.sendPayload', uri, 'local');
    assert.equal(sent.ok, true, sent.message);
    await cmd('workbench.action.closeAllEditors');
    await cmd('notifications.clearAll');
    const count = api.history.list('local').length;

    windowBefore = await resizeWindow(WINDOW);
    await showDialogs(true);
    await expandRow('Local');
    await expandRow('Request history');
    await contextMenu('POST /tire-protection/registrations', 'Resend Request…');

    const dialog = '.monaco-dialog-box';
    const detail = await until(async () => (await texts(`${dialog} .dialog-message-detail`))[0], 20_000);
    assert.ok(detail, `the confirmation opened: ${(await texts(dialog)).join(' | ')}`);
    await sleep(300); // the dialog's entrance animation
    await screenshot('resend-modal');
    const [box] = await boxes(dialog);
    const title = await boxes(`${dialog} .dialog-message-text`);
    const buttons = await boxes(`${dialog} .dialog-buttons .monaco-button`);
    const labels = await texts(`${dialog} .dialog-buttons .monaco-button`);
    assert.ok(box && insideWindow(box, WINDOW), `the modal lies inside the ${WINDOW.width}×${WINDOW.height} window: ${JSON.stringify(box)}`);
    assert.ok(title[0] && insideWindow(title[0], WINDOW), `its title is on the screen: ${JSON.stringify(title)}`);
    assert.deepEqual(labels.map((l) => l.trim()).sort(), ['Cancel', 'Resend']);
    for (const b of buttons) assert.ok(insideWindow(b, WINDOW), `its buttons are on the screen: ${JSON.stringify(buttons)}`);

    assert.match(detail, /^POST http:\/\/127\.0\.0\.1:\d+\/api\/v3\/tire-protection\/registrations$/m);
    assert.match(detail, new RegExp(`^Invoice number ${invoice}$`, 'm'));
    assert.match(detail, /^Body: [\d,]+ bytes, shown in the editor\.$/m);
    assert.ok(!/[{}"]/.test(detail), `the short summary, not the body: ${detail}`);

    await driver('click', `${dialog} .dialog-buttons .monaco-button:has-text("Cancel")`);
    assert.ok(await until(async () => (await texts(dialog)).length === 0), 'Cancel closes the modal');
    assert.equal(api.history.list('local').length, count, 'nothing was sent');
  });
});
