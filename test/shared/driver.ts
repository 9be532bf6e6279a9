// Talks to the harness driving the browser (test/harness/run-vscode-it.cjs): the test logs a
// request line and polls for the driver's answer file. Only available in the code-server harness.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

let n = 0;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** True when the workbench is driven by our harness (so DOM reads and screenshots work). */
export const hasDriver = () => Boolean(process.env.VSCODE_IT_RESULT_FILE);

/** Sends one op to the driver: 'texts' (CSS selector -> innerTexts), 'screenshot' (path), 'press', 'type', 'click', 'attrs'. */
export async function driver<T = unknown>(op: string, arg: unknown, timeoutMs = 15000): Promise<T> {
  const out = path.join(os.tmpdir(), `tpp-it-rpc-${process.pid}-${++n}.json`);
  console.log('__VSCODE_IT_RPC__' + JSON.stringify({ op, arg, out }));
  const end = Date.now() + timeoutMs;
  while (!fs.existsSync(out)) {
    if (Date.now() > end) throw new Error('driver rpc timeout: ' + op);
    await sleep(50);
  }
  const res = JSON.parse(fs.readFileSync(out, 'utf8')) as { ok: boolean; value?: T; error?: string };
  fs.unlinkSync(out);
  if (!res.ok) throw new Error(res.error);
  return res.value as T;
}

/** Polls `fn` until it returns a truthy value or `ms` pass; returns the last value. */
export async function until<T>(fn: () => T | Promise<T>, ms = 15000): Promise<T> {
  const end = Date.now() + ms;
  let v = await fn();
  while (!v && Date.now() < end) {
    await sleep(100);
    v = await fn();
  }
  return v;
}

/** innerTexts of the elements matching `selector`. */
export const texts = (selector: string) => driver<string[]>('texts', selector);
/** innerText of the elements matching `selector` inside any frame of the page (a webview's content). */
export const frameTexts = (selector: string) => driver<string[]>('frameTexts', selector);

/** Saves a PNG of the workbench to test-results/<tier>/<name>.png. */
export async function screenshot(name: string): Promise<string | undefined> {
  const dir = process.env.VSCODE_IT_SHOTS;
  if (!dir || !hasDriver()) return undefined;
  return driver<string>('screenshot', path.join(dir, `${name}.png`));
}

/** Labels (without descriptions) of the tree rows rendered in the side bar. */
export const sidebarLabels = () => texts('.part.sidebar .monaco-list-row .monaco-icon-name-container');
/** Descriptions of the tree rows rendered in the side bar (same order as {@link sidebarLabels}). */
export const sidebarDescriptions = () => texts('.part.sidebar .monaco-list-row .monaco-icon-label-container .label-description');
