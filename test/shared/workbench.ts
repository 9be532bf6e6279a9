// Steps a user takes in the rendered workbench, shared by the UI suites: the Command Palette, quick picks, tree rows
// and notifications, each read from or driven through the DOM by the harness (./driver.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { driver, screenshot, sleep, texts, until } from './driver';

export const sidebarRows = () => texts('.part.sidebar .monaco-list-row');
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
  await driver('click', `.part.sidebar .monaco-list-row[aria-label^="${labelStart}"]`);
}

/** Expands a collapsed side-bar row (no-op when it is expanded already). */
export async function expandRow(labelStart: string): Promise<void> {
  const attrs = () => driver<(string | null)[]>('attrs', { selector: `.part.sidebar .monaco-list-row[aria-label^="${labelStart}"]`, name: 'aria-expanded' });
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

/** Clicks the button `button` of the toast whose message contains `message`. */
export async function clickToastButton(message: string, button: string): Promise<void> {
  await driver('click', `.notifications-toasts .notification-list-item:has-text(${JSON.stringify(message)}) a.monaco-button:has-text(${JSON.stringify(button)})`);
}

/**
 * Runs a command as a user does: opens the Command Palette, types `title` (e.g. "Tire Protection: Generate Key Pair"),
 * waits until the highlighted entry is that command, and presses Enter.
 */
export async function runFromPalette(title: string): Promise<void> {
  void vscode.commands.executeCommand('workbench.action.showCommands');
  assert.ok(await until(async () => ((await quickInput()) && (await texts('.quick-input-widget .monaco-list-row')).length ? true : undefined)), 'the Command Palette opened');
  await driver('type', title);
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
