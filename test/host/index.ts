// Host tier entry (extensionTestsPath). Before running the suites, this proves that the active
// environment survives a window reload: on the first load it switches to Sandbox, writes a marker
// and reloads the window; the workbench then starts the tests again and environment.test checks
// the marker against what the reloaded extension reports.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runSuites } from '../shared/runner';

export const RELOAD_MARKER = () => (process.env.TPP_IT_STATE_DIR ? path.join(process.env.TPP_IT_STATE_DIR, 'reload.json') : undefined);

export async function run(): Promise<void> {
  const marker = RELOAD_MARKER();
  if (marker && !fs.existsSync(marker)) {
    let error: string | undefined;
    try {
      await vscode.commands.executeCommand('tpp.selectEnvironment', 'sandbox');
    } catch (e) {
      error = String(e);
    }
    fs.writeFileSync(marker, JSON.stringify({ expected: 'sandbox', pid: process.pid, error }));
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
    return new Promise<void>(() => undefined); // this host ends with the reload
  }
  return runSuites(__dirname);
}
