import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension } from '../shared/extension';
import { driver, hasDriver, screenshot, sidebarDescriptions, texts, until } from '../shared/driver';

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
    const local = (await api.view.getChildren()).find((n) => n.toTreeItem().id === 'environment:local');
    const connection = ((await local?.children?.()) ?? []).map((n) => n.toTreeItem()).find((i) => i.id === 'local:connection');
    assert.match(String(connection?.description), /^not answering: the Local sandbox stopped \(.*SIGKILL/, 'the Connection row follows the sandbox');
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

  it("refuses control calls without the token only the editor holds (docs/testing-your-application.md, Security)", async function () {
    this.timeout(60_000);
    const api = await activateExtension();
    const target = await api.api.target('local');
    const origin = new URL(target.baseUrls.v3 as string).origin;
    const control = (path: string, init: RequestInit = {}) => fetch(`${origin}/__tpp/${path}`, { ...init, signal: AbortSignal.timeout(5000) });
    const reset = await control('reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"keepPartners":false}' });
    assert.equal(reset.status, 401, 'another program on this machine cannot reset the Local sandbox');
    assert.equal((await control('requests')).status, 401, 'nor read its journal');
    assert.equal((await control('partners', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer guessed-token-guessed-token' }, body: '{}' })).status, 401, 'nor replace a key with a guessed token');
    assert.equal((await control('health')).status, 200, 'health answers without it');
    assert.equal(await statusOf(`${target.baseUrls.v3}/verify-token`), 401, 'the partner interface answers as before');
  });
});

describe('Local sandbox: a Local address that stays (tpp.local.port)', () => {
  it('the Local row shows the v3, v2 and eligibility addresses with Copy; a taken port is named with the choices, never moved', async function () {
    this.timeout(120_000);
    const api = await activateExtension();
    const sandbox = api.localSandbox;
    const { createServer } = await import('node:net');
    const listenOn = (port: number) => new Promise<import('node:net').Server>((resolve) => { const s = createServer(); s.listen(port, '127.0.0.1', () => resolve(s)); });
    const localRows = async () => {
      const local = (await api.view.getChildren()).find((n) => n.toTreeItem().id === 'environment:local');
      assert.ok(local, 'a Local row');
      return { row: local.toTreeItem(), children: ((await local.children?.()) ?? []).map((n) => ({ node: n, item: n.toTreeItem() })) };
    };
    const squatter = await listenOn(0);
    const taken = (squatter.address() as import('node:net').AddressInfo).port;
    const spare = await listenOn(0);
    const fixed = (spare.address() as import('node:net').AddressInfo).port;
    await new Promise((r) => spare.close(r));
    try {
      await vscode.commands.executeCommand('tpp.setLocalPort', fixed);
      await until(() => vscode.workspace.getConfiguration('tpp').get('local.port') === fixed);
      await api.api.target('local');
      await until(() => sandbox.info?.origin === `http://127.0.0.1:${fixed}`, 30_000);
      const target = await api.api.target('local');
      assert.equal(target.baseUrls.v3, `http://127.0.0.1:${fixed}/api/v3`, 'Local listens on the chosen port');
      const { children } = await localRows();
      const addresses = children.filter((c) => c.item.contextValue === 'address').map((c) => c.item.description);
      assert.deepEqual(addresses, [`http://127.0.0.1:${fixed}/api/v3`, `http://127.0.0.1:${fixed}`, `http://127.0.0.1:${fixed}/api/v1`], 'v3, v2 and eligibility addresses');
      const v2 = children.find((c) => c.item.id === 'local:v2url');
      assert.equal(await vscode.commands.executeCommand('tpp.copyAddress', v2?.node), `http://127.0.0.1:${fixed}`);
      assert.equal(await vscode.env.clipboard.readText(), `http://127.0.0.1:${fixed}`, 'Copy Address puts it on the clipboard');
      if (hasDriver()) {
        await vscode.commands.executeCommand('workbench.view.extension.tpp');
        const sel = '.part.sidebar .monaco-list-row[aria-label^="Local"]';
        const expanded = await until(async () => (await driver<(string | null)[]>('attrs', { selector: sel, name: 'aria-expanded' }))[0] ?? undefined);
        if (expanded !== 'true') await driver('click', sel);
        const shown = await until(async () => (await sidebarDescriptions()).some((d) => d === `http://127.0.0.1:${fixed}/api/v1`));
        assert.ok(shown, 'the rendered Local row lists its addresses');
        await screenshot('local-addresses');
      }

      // A working Local sandbox: its Connection row says it answers.
      api.history.noteQuiet('local', 200, undefined, new Date().toISOString());
      const connection = async () => (await localRows()).children.find((c) => c.item.id === 'local:connection')?.item;
      assert.match(String((await connection())?.description), /^answering — last status 200/);

      // Set Local Port… refuses a port another program holds, before anything moves, and names a free one nearby.
      assert.equal(await vscode.commands.executeCommand('tpp.setLocalPort', taken), undefined, 'refused: no port stored');
      assert.equal(vscode.workspace.getConfiguration('tpp.local').get('port'), fixed, 'the setting did not move');
      assert.equal(sandbox.status.portInUse, undefined, 'the working sandbox kept its port');
      // The setting changed elsewhere (settings.json, another window) to the held port: the sandbox says so.
      await vscode.workspace.getConfiguration('tpp.local').update('port', taken, vscode.ConfigurationTarget.Global);
      const refused = await until(() => sandbox.status.portInUse === taken, 30_000);
      assert.ok(refused, `the sandbox reports port ${taken} in use (status: ${JSON.stringify(sandbox.status)})`);
      assert.equal(sandbox.info, undefined, 'it did not move to another port');
      const after = await localRows();
      assert.match(String(after.row.description), /port taken/);
      const url = after.children.find((c) => c.item.id === 'local:url')?.item;
      assert.match(String(url?.description), new RegExp(`port ${taken} is in use by another program`));
      assert.equal(url?.command?.command, 'tpp.setLocalPort', 'a click offers another port or any free port');
      // The Connection row follows the sandbox, not the last answer in the history (docs/sandbox.md).
      const stopped = await connection();
      assert.doesNotMatch(String(stopped?.description), /^answering/, 'no longer "answering" once the sandbox stopped');
      assert.match(String(stopped?.description), new RegExp(`^not answering: port ${taken} is taken by another program — Set Local Port….*last status 200`));
      assert.equal(stopped?.command?.command, 'tpp.setLocalPort', 'its click offers another port too');
      if (hasDriver()) {
        await vscode.commands.executeCommand('tpp.selectEnvironment', 'local');
        const bar = await until(async () => (await texts('.part.statusbar .statusbar-item')).find((t) => t.includes('TPP: Local (port taken)')));
        assert.ok(bar, 'the status bar says the port is taken');
        const row = await until(async () => (await sidebarDescriptions()).find((d) => d.startsWith(`not answering: port ${taken}`)));
        assert.ok(row, `the rendered Connection row says the sandbox is not answering: ${JSON.stringify(await sidebarDescriptions())}`);
        await screenshot('local-port-taken');
      }
    } finally {
      squatter.close();
      await vscode.commands.executeCommand('tpp.setLocalPort', 0);
    }
    await until(() => sandbox.status.portInUse === undefined, 30_000);
    const back = await api.api.target('local');
    assert.match(back.baseUrls.v3 ?? '', /^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/, 'any free port again');
  });
});
