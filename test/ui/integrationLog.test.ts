import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOUR_TERMINAL_NAME } from '../../src/extension/services/integrationLogTour';
import { activateExtension } from '../shared/extension';
import { screenshot, texts, until } from '../shared/driver';

const sidebarRows = () => texts('.part.sidebar .monaco-list-row');

/**
 * The deliberate-mistakes tour in the rendered workbench: the script runs in a terminal as an
 * integrator's application would, and the Integration Log explains each of its three broken requests
 * (README screenshot: media/screenshots/integration-log.png is this test's `integration-log.png`).
 */
describe('Integration Log and the deliberate-mistakes tour (rendered DOM)', () => {
  it('runs the tour script in a terminal; the view explains the millisecond iat, the trailing-slash aud and the 3-decimal money value', async function () {
    this.timeout(120_000);
    const api = await activateExtension();
    await vscode.commands.executeCommand('tpp.selectEnvironment', 'local');
    // No Local key is made here: the tour signs with its own, and workbench.test expects Local without one.
    await vscode.commands.executeCommand('tpp.clearIntegrationLog');
    await vscode.commands.executeCommand('tpp.filterIntegrationLog', 'all');
    const partner = (await vscode.commands.executeCommand('tpp.runMistakesTour')) as string;
    assert.match(partner, /^tour-/);
    const logged = await until(() => (api.integrationLog.list().filter((x) => x.partner === partner).length >= 3 ? true : undefined), 60_000);
    assert.ok(logged, 'three requests of the tour reached the log');
    const tour = api.integrationLog.list().filter((x) => x.partner === partner).reverse();
    assert.deepEqual(tour.map((x) => x.response?.status), [401, 401, 400]);
    assert.deepEqual(tour.map((x) => x.diagnosis?.map((d) => d.rule)), [['iat'], ['aud'], ['Registrations[0].TirePrice']]);

    // Run from the palette, it shows that something happens: the terminal stays open with the script's output and a
    // last line, a notification says what happened, and the Integration Log is scrolled to the tour's newest row.
    const notice = await until(async () => {
      const t = (await texts('.notifications-toasts')).join('\n');
      return /The tour sent 3 broken requests/.test(t) ? t : undefined;
    }, 20_000);
    assert.ok(notice, `notification: ${(await texts('.notifications-toasts')).join(' | ')}`);
    const terminal = vscode.window.terminals.find((t) => t.name === TOUR_TERMINAL_NAME);
    assert.ok(terminal && terminal.exitStatus === undefined, 'the tour terminal is still open after the script ended');
    // The terminal's text is drawn on a canvas (see the screenshot); the panel shows with the tour's terminal in it.
    const panel = await until(async () => {
      const t = (await texts('.part.panel')).join('\n');
      return t.includes(TOUR_TERMINAL_NAME) ? t : undefined;
    }, 10_000);
    assert.ok(panel, `the panel shows the tour's terminal: ${(await texts('.part.panel')).join(' | ').slice(0, 500)}`);
    const selected = await until(async () => {
      const r = await texts('.part.sidebar .monaco-list-row.selected');
      return r.some((t) => t.includes(`/v2/partners/${partner}`)) ? r : undefined;
    }, 10_000);
    assert.ok(selected, `the newest tour row is revealed and selected: ${JSON.stringify(await texts('.part.sidebar .monaco-list-row.selected'))}`);
    await screenshot('integration-log-tour-run');
    terminal.dispose();

    // A clean frame for the README screenshot: no editors or panel, a wider side bar.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('tpp.integrationLog.focus');
    // Without window focus (headless browser) the resize commands act on the editor part: narrowing it widens the side bar.
    for (let i = 0; i < 6; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
    const rows = await until(async () => {
      const r = await sidebarRows();
      return r.some((t) => t.includes('TirePrice')) && r.some((t) => t.includes('trailing slash')) && r.some((t) => t.includes('milliseconds')) ? r : undefined;
    }, 20_000);
    assert.ok(rows, `the three diagnoses are rendered: ${JSON.stringify(await sidebarRows())}`);
    assert.ok(rows.some((t) => /POST \/v2\/partners\/tour-\w+\s*400/.test(t)), JSON.stringify(rows));
    await screenshot('integration-log');
    for (let i = 0; i < 6; i++) await vscode.commands.executeCommand('workbench.action.increaseViewWidth');
  });
});
