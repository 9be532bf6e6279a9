import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension } from '../shared/extension';
import { hasDriver, screenshot, sidebarDescriptions, texts, until } from '../shared/driver';

/** A fetch that never hangs the suite: the answer's status, or the error's name. */
async function statusOf(url: string): Promise<number | string> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5000) })).status;
  } catch (err) {
    return (err as Error).name;
  }
}

describe('Local sandbox: its own process', () => {
  it('runs outside the extension host; after SIGKILL shows as crashed with the reason, and the next use of Local restarts it', async function () {
    this.timeout(90_000);
    const api = await activateExtension();
    const sandbox = api.localSandbox;
    await vscode.commands.executeCommand('tpp.selectEnvironment', 'local');
    const target = await api.api.target('local'); // what every Local request does first
    assert.equal(sandbox.status.state, 'running');
    const pid = sandbox.status.pid as number;
    assert.ok(pid > 0 && pid !== process.pid, `the sandbox runs in process ${pid}, not in the extension host (${process.pid})`);
    assert.equal(await statusOf(`${target.baseUrls.v3}/verify-token`), 401, 'it answers (401 without a token)');

    const crashed = new Promise<void>((resolve) => {
      const sub = sandbox.onDidChangeState((s) => {
        if (s.state !== 'crashed') return;
        sub.dispose();
        resolve();
      });
    });
    process.kill(pid, 'SIGKILL');
    await crashed;
    assert.match(sandbox.status.reason ?? '', /killed by SIGKILL/);
    assert.notEqual(await statusOf(`${target.baseUrls.v3}/verify-token`), 401, 'nothing answers any more');
    if (hasDriver()) {
      await vscode.commands.executeCommand('workbench.view.extension.tpp');
      const row = await until(async () => (await sidebarDescriptions()).find((d) => /sandbox crashed/.test(d)));
      assert.ok(row, 'the Local row says the sandbox crashed');
      const bar = await until(async () => (await texts('.part.statusbar .statusbar-item')).find((t) => t.includes('TPP: Local (sandbox crashed)')));
      assert.ok(bar, 'the status bar says the sandbox crashed');
      await screenshot('local-sandbox-crashed');
    }

    const again = await api.api.target('local');
    assert.equal(sandbox.status.state, 'running');
    assert.notEqual(sandbox.status.pid, pid, 'a new process');
    assert.equal(await statusOf(`${again.baseUrls.v3}/verify-token`), 401, 'the restarted sandbox answers');
    if (hasDriver()) {
      const cleared = await until(async () => !(await texts('.part.statusbar .statusbar-item')).some((t) => t.includes('sandbox crashed')));
      assert.ok(cleared, 'the status bar is back to normal');
    }
  });
});
