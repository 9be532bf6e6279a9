import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension } from '../shared/extension';
import { driver, frameTexts, screenshot, sidebarDescriptions, sidebarLabels, sleep, texts, until } from '../shared/driver';
import { openWalkthroughAtFirstStart, WALKTHROUGH_ID } from '../../src/extension/walkthrough';
import { boxes, resizeWindow, type Box } from '../shared/workbench';

const sidebarRows = () => texts('.part.sidebar .monaco-list-row');
const statusItems = () => texts('.part.statusbar .statusbar-item');
const toasts = () => texts('.notifications-toasts .notification-list-item-message');

describe('workbench (rendered DOM)', () => {
  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workbench.view.extension.tpp');
  });

  it('shows the three environments as tree rows, Local first and marked default and active', async () => {
    const labels = await until(async () => ((await sidebarLabels()).length >= 3 ? sidebarLabels() : undefined));
    assert.deepEqual(labels?.slice(0, 3), ['Local', 'Sandbox', 'Production']);
    assert.match((await sidebarDescriptions())[0]!, /default · active/);
    await screenshot('01-environments-view');
  });

  it('shows the Get Started welcome with a Generate Key Pair button while Local has no key', async () => {
    const welcome = await until(async () => {
      const t = await texts('.part.sidebar .welcome-view-content');
      return t.find((x) => x.includes('Generate Key Pair'));
    });
    assert.ok(welcome, 'welcome content rendered');
    assert.match(welcome, /Local environment has no key pair/);
  });

  it('expanding an environment shows its key and Partner ID rows', async () => {
    await driver('click', '.part.sidebar .monaco-list-row[aria-label^="Sandbox"]');
    const rows = await until(async () => {
      const r = await sidebarRows();
      return r.some((x) => x.startsWith('Partner ID')) ? r : undefined;
    });
    assert.ok(rows, 'children rendered');
    assert.ok(rows.some((r) => /^Key pair\s*none/.test(r)), JSON.stringify(rows));
    assert.ok(rows.some((r) => /^Partner ID\s*not set/.test(r)), JSON.stringify(rows));
    await screenshot('02-sandbox-expanded');
  });

  it('switches environment with the status-bar quick pick and shows it in the status bar', async () => {
    assert.ok(await until(async () => (await statusItems()).some((t) => t.includes('TPP: Local'))), 'status bar shows Local');
    await driver('click', '.part.statusbar .statusbar-item:has-text("TPP: Local") a, .part.statusbar .statusbar-item:has-text("TPP: Local")');
    const picks = await until(async () => {
      const r = await texts('.quick-input-widget .monaco-list-row');
      return r.length >= 3 ? r : undefined;
    });
    assert.ok(picks, 'quick pick opened');
    assert.deepEqual((await texts('.quick-input-widget .monaco-list-row .monaco-icon-name-container')).map((t) => t.trim()).filter((t) => /^(Local|Sandbox|Production)$/.test(t)), ['Local', 'Sandbox', 'Production']);
    await screenshot('03-environment-quick-pick');
    await driver('type', 'Production');
    await driver('press', 'Enter');
    assert.ok(await until(async () => (await statusItems()).some((t) => t.includes('TPP: Production'))), 'status bar shows Production');
    await screenshot('04-production-active');
    await vscode.commands.executeCommand('tpp.selectEnvironment', 'local');
  });

  it('Generate Key Pair shows its notification and the key row shows curve and fingerprint', async () => {
    void vscode.commands.executeCommand('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    const msg = await until(async () => (await toasts()).find((t) => t.includes('Generated a P-256 key pair for Local')));
    assert.ok(msg, 'notification rendered');
    await screenshot('05-notification');
    await driver('click', '.part.sidebar .monaco-list-row[aria-label^="Local"]');
    const row = await until(async () => (await sidebarRows()).find((r) => /^Key pair\s*P-256 · SHA256 [0-9a-f]{8}…[0-9a-f]{4} · created \d{4}-\d\d-\d\d/.test(r)));
    assert.ok(row, JSON.stringify(await sidebarRows()));
    await screenshot('06-local-key-row');
  });

  it('Inspect JWT opens the read-only preview with the checklist beside the editor', async () => {
    const r = await vscode.commands.executeCommand<{ uri: string; ok: boolean } | undefined>('tpp.inspectJwt', 'local', { source: 'mint' });
    assert.ok(r?.ok, JSON.stringify(r));
    // Rendered by VS Code's Markdown preview, a webview: its tab says which it is, its frame holds the checklist.
    const tab = await until(async () => (await texts('.part.editor .tabs-container .tab')).find((t) => /Preview JWT Checklist \(Local\)/.test(t)));
    assert.ok(tab, `the rendered preview's tab: ${JSON.stringify(await texts('.part.editor .tabs-container .tab'))}`);
    assert.ok(!(await texts('.part.editor .view-lines')).some((t) => t.includes('All 13 checks pass')), 'no Markdown source open');
    const rendered = await until(async () => (await frameTexts('body')).find((t) => /All \d+ checks pass/.test(t)), 20_000);
    assert.ok(rendered, 'the preview shows its checklist');
    await vscode.commands.executeCommand('notifications.clearAll');
    await sleep(300); // the toasts' fade-out
    await screenshot('07-jwt-preview');
  });

  // A window of 1280×765 stacks the walkthrough (its steps above, the step's media below), so a step's button can lie
  // below the visible part of the steps column: a person scrolls to it, and so does this test.
  for (const [step, label, shot] of [
    ['Run your own program', 'Write Program…', 'walkthrough-own-program'],
    ['Connect your own application', 'Connect Your Application', 'walkthrough-connect-app'],
  ] as const) {
    it(`the walkthrough's ${label} button shows whole inside its step, scrolled to as a person would (screenshot ${shot})`, async () => {
      const size = await resizeWindow({ width: 1280, height: 765 });
      try {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
        const title = `.getting-started-step:has-text(${JSON.stringify(step)})`;
        assert.ok(await until(async () => ((await texts(title)) ?? []).length > 0, 20_000), 'the walkthrough lists the step');
        await driver('click', `${title} h3`);
        const button = '.getting-started-step.expanded .button-container .monaco-button';
        const found = await until(async () => ((await texts(button)) ?? []).find((t) => t.includes(label)), 20_000);
        assert.ok(found, `the step's button: ${JSON.stringify(await texts('.getting-started-step.expanded'))}`);
        await sleep(1000); // the step's expand animation and scroll
        const STEPS = '.gettingStartedDetailsContent > .steps-container';
        const within = (inner: Box, outer: Box) => inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1 && inner.y >= outer.y - 1 && inner.y + inner.height <= outer.y + outer.height + 1;
        const where = async () => {
          const [[b], [steps], [editor]] = await Promise.all([boxes(button), boxes(STEPS), boxes('.part.editor')]);
          assert.ok(b && steps && editor, 'boxes of the button, the steps column and the editor');
          return { b, steps, editor, shown: within(b, steps) && within(b, editor) };
        };
        for (let i = 0; i < 12; i++) {
          const w = await where();
          if (w.shown) break;
          // The mouse wheel over the steps column, towards the button.
          await driver('wheel', { selector: STEPS, dy: w.b.y + w.b.height > Math.min(w.steps.y + w.steps.height, w.editor.y + w.editor.height) ? 120 : -120 });
          await sleep(300);
        }
        await screenshot(shot);
        const w = await where();
        assert.ok(w.shown, `the button ${JSON.stringify(w.b)} lies inside the steps column ${JSON.stringify(w.steps)} and the editor ${JSON.stringify(w.editor)}`);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      } finally {
        await resizeWindow(size);
      }
    });
  }

  // README First steps 3 opens the example from the Explorer; the walkthrough's button is VS Code's Quick Open with its
  // name filled in, so a person presses Enter on the one match.
  it("the walkthrough's Open tire-protection-registration.json button opens the example in Quick Open, Enter opens it", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
    const title = '.getting-started-step:has-text("Create a first registration")';
    assert.ok(await until(async () => ((await texts(title)) ?? []).length > 0, 20_000), 'the walkthrough lists the step');
    await driver('click', `${title} h3`);
    const button = '.getting-started-step.expanded .button-container .monaco-button:has-text("Open tire-protection-registration.json")';
    assert.ok(await until(async () => ((await texts(button)) ?? []).length > 0, 20_000), `the step's button: ${JSON.stringify(await texts('.getting-started-step.expanded'))}`);
    await sleep(1000); // the step's expand animation
    await driver('click', button);
    const match = '.quick-input-widget .monaco-list-row[aria-label*="tire-protection-registration.json"]';
    assert.ok(await until(async () => ((await texts(match)) ?? []).length > 0, 20_000), `Quick Open lists the example: ${JSON.stringify(await texts('.quick-input-widget'))}`);
    await screenshot('walkthrough-first-registration');
    await driver('press', 'Enter');
    const opened = await until(() => (vscode.window.activeTextEditor?.document.uri.path.endsWith('/tire-protection-registration.json') ? true : undefined), 20_000);
    assert.ok(opened, `the example is open: ${vscode.window.activeTextEditor?.document.uri.path}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens the walkthrough on the first start from the sources (npm start, F5) only, once per profile', async () => {
    const stored = new Map<string, unknown>();
    const state = { get: (k: string) => stored.get(k), update: async (k: string, v: unknown) => void stored.set(k, v), keys: () => [...stored.keys()] } as unknown as vscode.Memento;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await openWalkthroughAtFirstStart(vscode.ExtensionMode.Production, state), false, 'an installed extension leaves it to VS Code (it opens it on install)');
    assert.equal(await openWalkthroughAtFirstStart(vscode.ExtensionMode.Test, state), false, 'not under a test runner');
    assert.equal(await openWalkthroughAtFirstStart(vscode.ExtensionMode.Development, state), true);
    const tab = await until(async () => (await texts('.part.editor .tabs-container .tab')).find((t) => /Walkthrough: Tire Protection Partner Toolkit/.test(t)), 20_000);
    assert.ok(tab, `the toolkit's walkthrough is open: ${JSON.stringify(await texts('.part.editor .tabs-container .tab'))}`);
    assert.ok(await until(async () => (await texts('.gettingStartedContainer h2, .gettingStartedContainer .category-title')).some((t) => t.includes('Tire Protection Partner Toolkit')), 20_000), 'its title is shown');
    await screenshot('walkthrough-first-start');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await openWalkthroughAtFirstStart(vscode.ExtensionMode.Development, state), false, 'once per profile');
  });
});
