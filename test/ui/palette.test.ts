// The Command Palette as a newcomer types in it: "Tire Protection: Cancel Registration" and Enter must run the
// tire-protection cancellation, not the motor-club one (the palette lists word matches alphabetically, and
// "Cancel Motor-Club Registration…" came first). Reads the rendered quick input.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension } from '../shared/extension';
import { driver, screenshot, sleep, texts, until } from '../shared/driver';

const rows = () => texts('.quick-input-widget .monaco-list-row');

describe('Command Palette titles (rendered DOM)', () => {
  before(async () => {
    await activateExtension();
  });

  after(async () => {
    await driver('press', 'Escape').catch(() => undefined);
  });

  it('"Tire Protection: Cancel Registration" lists Cancel Registration… first; the motor-club command has a title of its own', async () => {
    void vscode.commands.executeCommand('workbench.action.showCommands');
    await until(async () => ((await texts('.quick-input-widget')).length ? true : undefined));
    await sleep(300);
    await driver('type', 'Tire Protection: Cancel Registration');
    const listed = await until(async () => {
      const r = await rows();
      return r.some((t) => t.includes('Cancel Registration')) ? r : undefined;
    });
    assert.ok(listed, JSON.stringify(await rows()));
    await screenshot('palette-cancel-registration');
    assert.match(listed[0]!, /^Tire Protection: Cancel Registration…/, JSON.stringify(listed));
    await driver('press', 'Escape');
  });
});
