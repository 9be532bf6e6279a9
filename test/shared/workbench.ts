// Steps a person takes in the rendered workbench, shared by the UI suites: tree rows by the start of their label,
// context menus, the palette, the window's size and what lies inside it. Each waits for its condition (no fixed
// sleeps beyond an animation), so the suites hold on a loaded machine.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolvePayloadVariables } from '../../src/core/variables';
import type { ExtensionApi } from '../../src/extension/extension';
import { driver, sleep, texts, until } from './driver';
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

/** Expands a collapsed tree row of the side bar (no-op when expanded already); fails naming the rows there are. */
export async function expandRow(labelStart: string): Promise<void> {
  const attrs = () => driver<(string | null)[]>('attrs', { selector: rowSelector(labelStart), name: 'aria-expanded' });
  const expanded = await until(async () => ((await attrs()).length ? attrs() : undefined));
  assert.ok(expanded, `a tree row "${labelStart}…"; rows: ${JSON.stringify(await driver('attrs', { selector: '.part.sidebar .monaco-list-row', name: 'aria-label' }))}`);
  if (expanded[0] !== 'true') await driver('click', rowSelector(labelStart));
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

/** Runs a command from the Command Palette as a person does: types its title and presses Enter. */
export async function runFromPalette(title: string): Promise<void> {
  void vscode.commands.executeCommand('workbench.action.showCommands');
  assert.ok(await until(async () => ((await texts('.quick-input-widget .quick-input-box input')).length ? true : undefined)), 'the Command Palette opened');
  await sleep(200); // the input takes focus after it is drawn
  await driver('type', title);
  const first = await until(async () => {
    const rows = await texts('.quick-input-widget .monaco-list-row');
    return rows[0]?.includes(title) ? rows[0] : undefined;
  });
  assert.ok(first, `the palette lists "${title}" first: ${JSON.stringify(await texts('.quick-input-widget .monaco-list-row'))}`);
  await driver('press', 'Enter');
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
