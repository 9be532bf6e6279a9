import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOUR_TERMINAL_NAME } from '../../src/extension/services/integrationLogTour';
import { activateExtension } from '../shared/extension';
import { LOG_LIST, LOG_ROWS, boxes, runFromPalette, scrollLogToTop } from '../shared/workbench';
import { driver, screenshot, texts, until } from '../shared/driver';

const sidebarRows = () => texts('.part.sidebar .monaco-list-row');
/** The Integration Log's tree rows (the second view of the side bar, after Environments). */

/**
 * The mistakes tour in the rendered workbench: the script runs in a terminal as an
 * integrator's application would, and the Integration Log explains each of its three broken requests
 * (README screenshot: media/screenshots/integration-log.png is this test's `integration-log.png`).
 */
describe('Integration Log and the mistakes tour (rendered DOM)', () => {
  it('run from the palette with the log scrolled down: the terminal shows, a notification says what was sent, the new rows are scrolled into view', async function () {
    this.timeout(120_000);
    const api = await activateExtension();
    await vscode.commands.executeCommand('tpp.selectEnvironment', 'local');
    await vscode.commands.executeCommand('tpp.clearIntegrationLog');
    await vscode.commands.executeCommand('tpp.filterIntegrationLog', 'all');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('notifications.clearAll');
    // A log longer than its view, as after an afternoon of an application's requests: unsigned calls, each a 401 row
    // opened onto its diagnosis. The view is then scrolled to its oldest rows, away from where new rows land.
    await api.api.target('local');
    const base = await until(() => api.localSandbox.info?.v3BaseUrl, 60_000);
    assert.ok(base, 'the Local sandbox started');
    for (let i = 0; i < 12; i++) await fetch(`${base}/tire-protection/registrations?page=${i + 1}`);
    assert.ok(await until(() => api.integrationLog.list().length >= 12), 'the calls reached the log');
    await vscode.commands.executeCommand('tpp.integrationLog.focus');
    assert.ok(await until(async () => (await texts(LOG_ROWS)).length > 0), 'the log shows rows');
    // Wheeled until the newest row is out of view: a redraw of rows still arriving may land after one wheel.
    const scrolled = await until(async () => {
      await driver('wheel', { selector: LOG_LIST, dy: 20_000 });
      return (await texts(LOG_ROWS)).some((t) => t.includes('page=12')) ? undefined : true;
    }, 15_000);
    assert.ok(scrolled, `the view is scrolled away from its newest row: ${JSON.stringify(await texts(LOG_ROWS))}`);

    await runFromPalette('Tire Protection: Run the Mistakes Tour');
    const notice = await until(async () => {
      const t = (await texts('.notifications-toasts')).join('\n');
      return /The tour sent 3 broken requests/.test(t) ? t : undefined;
    }, 60_000);
    assert.ok(notice, `a notification says what was sent: ${(await texts('.notifications-toasts')).join(' | ')}`);
    const partner = /as (tour-\w+)/.exec(notice)?.[1];
    assert.ok(partner, notice);
    // The terminal's text is drawn on a canvas (see the screenshot); the panel shows with the tour's terminal in it.
    const panel = await until(async () => {
      const t = (await texts('.part.panel')).join('\n');
      return t.includes(TOUR_TERMINAL_NAME) ? t : undefined;
    }, 10_000);
    assert.ok(panel, `the panel shows the tour's terminal: ${(await texts('.part.panel')).join(' | ').slice(0, 500)}`);
    const terminal = vscode.window.terminals.find((t) => t.name === TOUR_TERMINAL_NAME);
    assert.ok(terminal && terminal.exitStatus === undefined, 'the tour terminal is still open after the script ended');
    // The newest tour row is selected and lies inside the view's visible list (rows are drawn only where the list is
    // scrolled to, so one drawn at all is near; its box says it is on screen).
    const shown = await until(async () => {
      const [list] = await boxes(LOG_LIST);
      const rows = await boxes(`${LOG_ROWS}.selected:has-text("${partner}")`);
      return list && rows.some((r) => r.height > 0 && r.y >= list.y && r.y + r.height <= list.y + list.height) ? rows : undefined;
    }, 10_000);
    assert.ok(shown, `the newest tour row is selected and in view: ${JSON.stringify(await texts(`${LOG_ROWS}.selected`))} ${JSON.stringify(await boxes(LOG_LIST))}`);
    await screenshot('integration-log-tour-run');
    await scrollLogToTop(); // leave the view as later suites expect it: at its newest rows
    terminal.dispose();
    await vscode.commands.executeCommand('notifications.clearAll');
  });

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

    // The tour's notification comes once its rows are logged; it is cleared with the terminal for a clean frame.
    await until(async () => ((await texts('.notifications-toasts')).join('\n').includes(`The tour sent 3 broken requests as ${partner}`) ? true : undefined), 20_000);
    vscode.window.terminals.find((t) => t.name === TOUR_TERMINAL_NAME)?.dispose();
    await vscode.commands.executeCommand('notifications.clearAll');

    // A clean frame for the README screenshot: no editors or panel, a wider side bar.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('tpp.integrationLog.focus');
    // At the side bar's default width, each row starts with what a person scans for: the status, the environment,
    // the method and the resource's short name fit whole, and the diagnosis row below starts with the rule and fix.
    const sidebar = (await boxes('.part.sidebar'))[0]!;
    const fits = await until(async () => {
      const [names, shown] = [await boxes(`${LOG_ROWS} .label-name`), await texts(`${LOG_ROWS} .label-name`)];
      const requests = names.filter((_, i) => /^\d{3} · /.test(shown[i] ?? ''));
      return requests.length >= 3 && requests.every((b) => b.width > 0 && b.x + b.width <= sidebar.x + sidebar.width) ? requests : undefined;
    }, 20_000);
    assert.ok(fits, `the tour's rows show status, environment, method and resource whole: ${JSON.stringify(await texts(`${LOG_ROWS} .label-name`))} ${JSON.stringify(await boxes(`${LOG_ROWS} .label-name`))}`);
    const labels = await texts(`${LOG_ROWS} .label-name`);
    assert.ok(labels.some((t) => /^401 · Local · GET verify-token$/.test(t)) && labels.some((t) => /^400 · Local · POST partners\/…$/.test(t)), JSON.stringify(labels));
    assert.ok(labels.some((t) => /^iat is in milliseconds, not seconds/.test(t)), `the first diagnosis starts its row: ${JSON.stringify(labels)}`);
    assert.ok(labels.some((t) => /^aud: Remove the trailing slash/.test(t)), `the first diagnosis starts its row: ${JSON.stringify(labels)}`);
    await screenshot('integration-log-default-width');
    // Without window focus (headless browser) the resize commands act on the editor part: narrowing it widens the side bar.
    for (let i = 0; i < 6; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
    const rows = await until(async () => {
      const r = await sidebarRows();
      return r.some((t) => t.includes('TirePrice')) && r.some((t) => t.includes('trailing slash')) && r.some((t) => t.includes('milliseconds')) ? r : undefined;
    }, 20_000);
    assert.ok(rows, `the three diagnoses are rendered: ${JSON.stringify(await sidebarRows())}`);
    assert.ok(rows.some((t) => /^400 · Local · POST partners\/…/.test(t)), JSON.stringify(rows));
    await screenshot('integration-log');
    for (let i = 0; i < 6; i++) await vscode.commands.executeCommand('workbench.action.increaseViewWidth');
  });
});
