// Steps a person takes in the rendered workbench, shared by the UI suites: the Command Palette, quick picks, tree rows
// (by the start of their label), context menus, notifications, the window's size and what lies inside it. Each is read
// from or driven through the DOM by the harness (./driver.ts) and waits for its condition (no fixed sleeps beyond an
// animation), so the suites hold on a loaded machine.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolvePayloadVariables } from '../../src/core/variables';
import type { ExtensionApi } from '../../src/extension/extension';
import { driver, frameTexts, screenshot, sleep, texts, until } from './driver';
import { activateExtension } from './extension';

/** A box in page pixels, as getBoundingClientRect gives it. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The side bar's tree rows whose label starts with `labelStart` (aria-label is the label and description). */
export const rowSelector = (labelStart: string) => `.part.sidebar .monaco-list-row[aria-label^="${labelStart}"]`;

/**
 * Lets VS Code show modal dialogs (`true`) as it does outside tests, or refuses them again (`false`, its default while
 * extension tests run: a modal answers at once, unseen).
 */
export const showDialogs = (on: boolean) => driver('dialogs', on);

/** Bounding boxes of the elements matching `selector`. */
export const boxes = (selector: string) => driver<Box[]>('boxes', selector);

/** Resizes the window (the page); resolves to its size before. */
export const resizeWindow = (size: { width: number; height: number }) => driver<{ width: number; height: number }>('viewport', size);

/** True when `b` lies wholly inside a window of `size`. */
export const insideWindow = (b: Box, size: { width: number; height: number }) => b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width && b.y + b.height <= size.height;

export const sidebarRows = () => texts('.part.sidebar .monaco-list-row');
/** The Integration Log view's rows and its list (rows are drawn only where the list is scrolled to). */
export const LOG_ROWS = '.part.sidebar .pane:has(.pane-header:has-text("Integration Log")) .monaco-list-row';
export const LOG_LIST = '.part.sidebar .pane:has(.pane-header:has-text("Integration Log")) .monaco-list';
/**
 * Scrolls the Integration Log to its newest rows, as a person does to see what just arrived: a list scrolled down
 * keeps its place when rows arrive above it, so they land out of view (and out of the DOM).
 */
export async function scrollLogToTop(): Promise<void> {
  if ((await texts(LOG_ROWS)).length) await driver('wheel', { selector: LOG_LIST, dy: -100_000 });
}
export const toasts = () => texts('.notifications-toasts .notification-list-item-message');
/** The text of the quick input (palette, quick pick, input box, the editor's file dialog) and its placeholder; '' while it is hidden. */
export async function quickInput(): Promise<string> {
  const style = await driver<(string | null)[]>('attrs', { selector: '.quick-input-widget', name: 'style' });
  if (!style.length || style.every((s) => /display:\s*none/.test(s ?? ''))) return '';
  const placeholders = await driver<(string | null)[]>('attrs', { selector: '.quick-input-widget input', name: 'placeholder' });
  return [...(await texts('.quick-input-widget')), ...placeholders.filter((p): p is string => !!p)].join('\n');
}
const focusedPick = async () => (await texts('.quick-input-widget .monaco-list-row.focused')).join('\n');

export async function clickRow(labelStart: string): Promise<void> {
  await driver('click', rowSelector(labelStart));
}

/** Expands a collapsed side-bar row (no-op when it is expanded already). */
export async function expandRow(labelStart: string): Promise<void> {
  const attrs = () => driver<(string | null)[]>('attrs', { selector: rowSelector(labelStart), name: 'aria-expanded' });
  const expanded = await until(async () => ((await attrs()).length ? attrs() : undefined));
  if (!expanded) throw new Error(`No tree row "${labelStart}…"; rows: ${JSON.stringify(await driver('attrs', { selector: '.part.sidebar .monaco-list-row', name: 'aria-label' }))}`);
  if (expanded[0] !== 'true') await clickRow(labelStart);
}

/** Waits for a notification: as a toast, or (when the toast was already hidden) in the notification center. */
export async function waitToast(re: RegExp, shot?: string, ms = 10_000): Promise<string> {
  let t = await until(async () => (await toasts()).find((x) => re.test(x)), ms);
  if (t) {
    await sleep(400); // the toast's fade-in
    if (shot) await screenshot(shot);
  } else {
    await vscode.commands.executeCommand('notifications.showList');
    t = await until(async () => (await texts('.notifications-center .notification-list-item-message')).find((x) => re.test(x)), 10_000);
    await sleep(400);
    if (shot) await screenshot(shot);
    await vscode.commands.executeCommand('notifications.hideList');
  }
  assert.ok(t, `notification ${re} shown; have ${JSON.stringify(await toasts())}`);
  return t;
}

/**
 * Waits until the response view (a webview) shows text matching `re` and no toast says the same (the view explains a
 * refusal: docs/sending.md), takes screenshot `shot` if given, and returns the view's text.
 */
export async function waitResponse(re: RegExp, shot?: string, ms = 20_000): Promise<string> {
  const t = await until(async () => (await frameTexts('body')).find((x) => re.test(x)), ms);
  assert.ok(t, `the response view shows ${re}; have ${JSON.stringify(await frameTexts('body'))}`);
  await sleep(600); // a toast would have appeared by now
  const over = (await toasts()).filter((x) => re.test(x));
  assert.deepEqual(over, [], 'no toast over the response view says it again');
  if (shot) await screenshot(shot);
  return t;
}

/** Clicks the button `button` of the toast whose message contains `message`. */
export async function clickToastButton(message: string, button: string): Promise<void> {
  await driver('click', `.notifications-toasts .notification-list-item:has-text(${JSON.stringify(message)}) a.monaco-button:has-text(${JSON.stringify(button)})`);
}

/**
 * Runs a command as a user does: opens the Command Palette, types `title` (e.g. "Tire Protection: Generate Key Pair"),
 * waits until the highlighted entry is that command, and presses Enter.
 */
export async function runFromPalette(title: string): Promise<void> {
  const opened = async () => ((await quickInput()) && (await texts('.quick-input-widget .monaco-list-row')).length ? true : undefined);
  // F1 again when the first press did not show it (a webview or an input box closing just then can take it), as a
  // person would; at most three presses.
  let shown: true | undefined;
  for (let press = 0; press < 3 && !shown; press++) {
    void vscode.commands.executeCommand('workbench.action.showCommands');
    shown = await until(opened, 10_000);
  }
  assert.ok(shown, `the Command Palette opened; the quick input shows ${JSON.stringify(await quickInput())}`);
  await sleep(200); // the input takes focus after it is drawn
  // Each key redraws the palette's list: on a loaded machine typing a long title takes longer than one op's default.
  await driver('type', title, 60_000);
  const row = await until(async () => {
    const r = await focusedPick();
    return r.startsWith(title) ? r : undefined;
  });
  assert.ok(row, `the palette highlights "${title}"; it shows ${JSON.stringify(await texts('.quick-input-widget .monaco-list-row'))}`);
  await driver('press', 'Enter');
}

/**
 * Picks an entry of the open quick pick as a user does: waits until it shows `title`, types `filter` (when given),
 * waits until it lists an entry matching `entry`, moves the highlight there with the arrow keys, and presses Enter.
 */
export async function pick(title: RegExp, entry: RegExp, filter?: string): Promise<void> {
  assert.ok(await until(async () => title.test(await quickInput())), `quick pick ${title}; shown: ${await quickInput()}`);
  if (filter) await driver('type', filter);
  const rows = () => texts('.quick-input-widget .monaco-list-row');
  assert.ok(await until(async () => (await rows()).some((r) => entry.test(r))), `the quick pick lists ${entry}; it shows ${JSON.stringify(await rows())}`);
  // Another entry may come first (a recently opened file): the arrow keys move to it, as a user would.
  for (let i = 0; i < 20 && !entry.test(await focusedPick()); i++) await driver('press', 'ArrowDown');
  assert.ok(entry.test(await focusedPick()), `the quick pick highlights ${entry}; it shows ${JSON.stringify(await rows())}`);
  await driver('press', 'Enter');
}

/** Answers an input box (or the editor's own file dialog, an input box with the path) that shows `title`. */
export async function answerInput(title: RegExp, text?: string): Promise<void> {
  assert.ok(await until(async () => title.test(await quickInput())), `input ${title}; shown: ${await quickInput()}`);
  if (text !== undefined) await driver('type', text);
  await driver('press', 'Enter');
}

/** Right-clicks the first tree row starting with `labelStart` and picks `item` from its context menu. */
export async function contextMenu(labelStart: string, item: string): Promise<void> {
  assert.ok(await until(async () => (await texts(rowSelector(labelStart))).length > 0), `a tree row "${labelStart}…"`);
  await driver('click', { selector: rowSelector(labelStart), button: 'right' });
  const entry = `.context-view .monaco-menu .action-menu-item:has-text("${item}")`;
  const items = await until(async () => {
    const t = await texts('.context-view .monaco-menu .action-menu-item');
    return t.some((x) => x.includes(item)) ? t : undefined;
  });
  assert.ok(items, `the context menu of "${labelStart}…" offers ${item}; it has ${JSON.stringify(await texts('.context-view .monaco-menu .action-menu-item'))}`);
  await driver('click', entry);
}

/** The rows of the open quick pick, once its title shows `title` and it lists rows. */
export async function quickPickRows(title: RegExp): Promise<string[]> {
  const rows = await until(async () => {
    const t = (await texts('.quick-input-widget .quick-input-title')).join(' ');
    if (!title.test(t)) return undefined;
    const r = await texts('.quick-input-widget .monaco-list-row');
    return r.length ? r : undefined;
  }, 20_000);
  assert.ok(rows, `a quick pick titled ${title}: ${(await texts('.quick-input-widget')).join(' | ')}`);
  return rows;
}

/** Resolves true once the quick input is hidden (its rows stay in the DOM, the widget is hidden). */
export async function quickInputClosed(): Promise<boolean> {
  const hidden = async () => (await driver<(string | null)[]>('attrs', { selector: '.quick-input-widget', name: 'style' })).every((s) => /display:\s*none/.test(s ?? ''));
  return until(hidden);
}

/** Activates the extension with Local active and given a key pair, and shows the Tire Protection side bar. */
export async function startWithLocalKey(): Promise<ExtensionApi> {
  const api = await activateExtension();
  await vscode.commands.executeCommand('tpp.selectEnvironment', 'local');
  await vscode.commands.executeCommand('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
  await vscode.commands.executeCommand('workbench.view.extension.tpp');
  return api;
}

/** The workspace's example registration (examples/tire-protection-registration.json), its variables resolved as a send does. */
export async function exampleRegistration(): Promise<Record<string, unknown>> {
  const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'tire-protection-registration.json');
  return resolvePayloadVariables(JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(file)).toString()), 'tire-protection-registration') as Record<string, unknown>;
}
