// Host tier entry (extensionTestsPath). Before running the suites, this proves that the active
// environment survives a window reload: on the first load it switches to Sandbox, writes a marker
// and reloads the window; the workbench then starts the tests again and environment.test checks
// the marker against what the reloaded extension reports.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension } from '../shared/extension';
import { runSuites } from '../shared/runner';

export const RELOAD_MARKER = () => (process.env.TPP_IT_STATE_DIR ? path.join(process.env.TPP_IT_STATE_DIR, 'reload.json') : undefined);
/** Written before the reload with the id of an Integration Log entry recorded then (integrationLog.test checks it). */
export const INTEGRATION_LOG_RELOAD_MARKER = () => (process.env.TPP_IT_STATE_DIR ? path.join(process.env.TPP_IT_STATE_DIR, 'integration-log-reload.json') : undefined);

/** Records one Integration Log entry and waits until it is on disk; returns its id. */
async function recordIntegrationLogEntry(): Promise<string> {
  const api = await activateExtension();
  const id = `reload-${process.pid}-${Date.now()}`;
  api.integrationLog.add([{ id, env: 'local', source: 'sandbox-log', time: new Date().toISOString(), request: { method: 'GET', url: 'http://127.0.0.1:1/api/v3/verify-token' }, response: { status: 200 }, durationMs: 1, attempts: 1 }]);
  await api.integrationLog.flushed();
  return id;
}

export async function run(): Promise<void> {
  const marker = RELOAD_MARKER();
  if (marker && !fs.existsSync(marker)) {
    let error: string | undefined;
    try {
      await vscode.commands.executeCommand('tpp.selectEnvironment', 'sandbox');
    } catch (e) {
      error = String(e);
    }
    const logMarker = INTEGRATION_LOG_RELOAD_MARKER() as string;
    try {
      fs.writeFileSync(logMarker, JSON.stringify({ id: await recordIntegrationLogEntry() }));
    } catch (e) {
      fs.writeFileSync(logMarker, JSON.stringify({ error: String(e) }));
    }
    fs.writeFileSync(marker, JSON.stringify({ expected: 'sandbox', pid: process.pid, error }));
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
    return new Promise<void>(() => undefined); // this host ends with the reload
  }
  if (marker) {
    // What the reloaded extension reports before any suite runs (a suite may select another environment later).
    const before = JSON.parse(fs.readFileSync(marker, 'utf8')) as Record<string, unknown>;
    if (before.afterReload === undefined) fs.writeFileSync(marker, JSON.stringify({ ...before, afterReload: (await activateExtension()).environments.active.get() }));
  }
  return runSuites(__dirname);
}
