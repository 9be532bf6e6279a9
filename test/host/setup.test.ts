// Environments set up from the UI: Configure Environment against a fake remote — a
// `tpp sandbox` started on another port standing in for the administrator's Sandbox — lists every missing item at
// once, fills them and verifies; requests check every prerequisite before Production's typed confirmation; the
// Partner ID row shows the real ID for every environment, Local included; one state decides "needs setup" and the
// green check. Spec: Base addresses; Authentication, items 2–3; Token verification.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolvePayloadVariables } from '../../src/core/variables';
import type { ConfigureResult } from '../../src/extension/commands/configureEnvironment';
import type { ExtensionApi } from '../../src/extension/extension';
import type { PrerequisiteCheck } from '../../src/extension/send/productionGuard';
import type { TreeNode } from '../../src/extension/tree/node';
import { activateExtension, EXTENSION_ID } from '../shared/extension';
import { sleep, until } from '../shared/driver';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const config = (s: string) => vscode.workspace.getConfiguration(s);

/** Starts `tpp sandbox` (the built CLI) on a free port with one partner; resolves to its v3 base address. */
function startFakeRemote(partner: string, pem: string): Promise<{ child: ChildProcess; v3: string }> {
  const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
  const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--partner', `${partner}=${pem}`], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`tpp sandbox did not start in 90 s: ${out}`)), 90_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((l) => /^https?:\/\/.*\/api\/v3$/.test(l.trim()));
      if (line) {
        clearTimeout(timer);
        resolve({ child, v3: line.trim() });
      }
    });
    child.on('exit', (code) => reject(new Error(`tpp sandbox exited (${code}): ${out}`)));
  });
}

/** The rows under an environment, through the extension's own provider. */
async function environmentRows(api: ExtensionApi, env: string): Promise<{ row: vscode.TreeItem; children: vscode.TreeItem[] }> {
  const node = (await api.view.getChildren()).find((n) => n.toTreeItem().id === `environment:${env}`) as TreeNode;
  return { row: node.toTreeItem(), children: (await api.view.getChildren(node)).map((n) => n.toTreeItem()) };
}

const iconId = (item: vscode.TreeItem) => (item.iconPath as vscode.ThemeIcon | undefined)?.id;

describe('Configure Environment against a fake remote (tpp sandbox on another port)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let remote: { child: ChildProcess; v3: string } | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpp-setup-'));
  const pem = vscode.Uri.file(path.join(dir, 'sandbox-public.pem'));

  before(async () => {
    api = await activateExtension();
    await api.keys.delete('sandbox');
    await api.keys.delete('production');
    for (const env of ['sandbox', 'production']) for (const k of ['baseUrl', 'partnerId']) await config(`tpp.${env}`).update(k, undefined, vscode.ConfigurationTarget.Global);
    await sleep(200);
  });

  after(async () => {
    remote?.child.kill();
    await cmd('workbench.action.closeAllEditors');
    await api.keys.delete('sandbox');
    await api.keys.delete('production');
    for (const env of ['sandbox', 'production']) for (const k of ['baseUrl', 'partnerId']) await config(`tpp.${env}`).update(k, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists every missing item of Sandbox at once; the row says "needs setup" with a warning icon, never green', async () => {
    const r = await cmd<ConfigureResult>('tpp.configureEnvironment', 'sandbox', { listOnly: true });
    assert.deepEqual(
      r.items.map((it) => `${it.title}: ${it.state}`),
      ['Base address: missing', 'Partner ID: missing', 'Key pair: missing', 'Public key sent to the administrator: missing', 'Connection verified: missing'],
    );
    assert.equal(r.state, 'needsSetup');
    assert.equal(r.done, false);
    await cmd('tpp.selectEnvironment', 'sandbox');
    try {
      const { row, children } = await environmentRows(api, 'sandbox');
      assert.match(String(row.description), /active · needs setup/);
      assert.equal(iconId(row), 'warning', 'an environment that needs setup is never shown with the green check');
      assert.match(String(row.contextValue), /^environment\.remote\.active\.needsSetup\.noKey$/, "the key actions of its menu follow the key's state");
      assert.match(String(children.find((c) => c.id === 'sandbox:setup')?.description), /^0 of 5 done — base address, partner ID, key pair/);
      assert.equal(children.find((c) => c.id === 'sandbox:setup')?.command?.command, 'tpp.configureEnvironment');
    } finally {
      await cmd('tpp.selectEnvironment', 'local');
    }
  });

  it('fills the key and exports the public key, then the address and Partner ID of the fake remote, and verifies', async () => {
    let r = await cmd<ConfigureResult>('tpp.configureEnvironment', 'sandbox', { curve: 'P-256', exportTo: pem });
    assert.deepEqual(r.items.filter((it) => it.state === 'done').map((it) => it.id), ['key', 'publicKeyExported']);
    assert.match(fs.readFileSync(pem.fsPath, 'utf8'), /^-----BEGIN PUBLIC KEY-----/);
    // The administrator registers the public key and returns a Partner ID: here, the fake remote starts with it.
    remote = await startFakeRemote('P-FAKE-REMOTE', pem.fsPath);
    r = await cmd<ConfigureResult>('tpp.configureEnvironment', 'sandbox', { baseUrl: remote.v3, partnerId: 'P-FAKE-REMOTE', verify: true });
    assert.deepEqual(r.items.map((it) => it.state), ['done', 'done', 'done', 'done', 'done'], JSON.stringify(r.items));
    assert.equal(r.state, 'ready');
    assert.equal(r.done, true);
    assert.equal(config('tpp.sandbox').inspect('baseUrl')?.globalValue, remote.v3, 'kept in the user (application-scoped) setting');
    const verify = api.history.list('sandbox')[0]!;
    assert.equal(`${verify.method} ${verify.status}`, 'GET 200');
    assert.match(verify.url, /\/api\/v3\/verify-token$/);
    const { row, children } = await environmentRows(api, 'sandbox');
    assert.doesNotMatch(String(row.description), /needs setup/);
    assert.equal(children.find((c) => c.id === 'sandbox:partner')?.description, 'P-FAKE-REMOTE');
    assert.equal(children.find((c) => c.id === 'sandbox:setup')?.description, 'complete');
  });

  it('a wrong base address is refused with the reason, and a new address makes "connection verified" missing again', async () => {
    await assert.rejects(api.environments.settings.setBaseUrl('sandbox', 'https://sandbox.example.com/v3'), /ends in \/api\/v3/);
    await api.environments.settings.setBaseUrl('sandbox', 'https://sandbox.invalid/api/v3');
    const r = await cmd<ConfigureResult>('tpp.configureEnvironment', 'sandbox', { listOnly: true });
    assert.equal(r.items.find((it) => it.id === 'connection')?.state, 'missing');
    assert.equal(r.state, 'ready', 'the prerequisites still pass');
    await api.environments.settings.setBaseUrl('sandbox', remote!.v3);
    assert.equal((await cmd<ConfigureResult>('tpp.configureEnvironment', 'sandbox', { listOnly: true })).done, true, 'verified for this address');
  });

  it('the Partner ID row shows the real ID for every environment, Local included', async () => {
    const local = await environmentRows(api, 'local');
    assert.equal(local.children.find((c) => c.id === 'local:partner')?.description, `${api.localSandbox.partnerId} (generated for the embedded sandbox)`);
    assert.match(api.localSandbox.partnerId, /^local-[0-9a-f]{8}$/);
    assert.equal((await environmentRows(api, 'sandbox')).children.find((c) => c.id === 'sandbox:partner')?.description, 'P-FAKE-REMOTE');
  });

  it('Local without a key needs setup (warning icon), with a key it is ready (green check when active): never both', async () => {
    await cmd('tpp.selectEnvironment', 'local');
    const had = await api.keys.has('local');
    await api.keys.delete('local');
    try {
      let { row } = await environmentRows(api, 'local');
      assert.match(String(row.description), /needs setup/);
      assert.equal(iconId(row), 'warning');
      await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
      ({ row } = await environmentRows(api, 'local'));
      assert.doesNotMatch(String(row.description), /needs setup/);
      assert.equal(iconId(row), 'pass-filled');
    } finally {
      if (!had) await api.keys.delete('local');
    }
  });

  it('Production: every missing prerequisite is named at once and nothing is asked or sent; once set up, the typed confirmation comes', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const example = resolvePayloadVariables(JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'tire-protection-registration.json'))).toString()), 'tire-protection-registration') as Record<string, unknown>;
    const file = vscode.Uri.joinPath(folder, 'guard.tire-protection-registration.json');
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify({ ...example, invoiceNumber: `INV-GUARD-${Date.now()}` }, null, 2)));
    const check = await cmd<PrerequisiteCheck>('tpp.checkPrerequisites', 'production');
    assert.deepEqual(check.missing, ['Base address', 'Partner ID', 'Key pair']);
    // Not set up: the command ends by itself, so no input box waited for "Production" (nothing here would answer one);
    // nothing is sent.
    assert.equal(await cmd('tpp.sendPayload', file, 'production'), undefined);
    assert.equal(api.history.list('production').length, 0);
    // Set up (pointed at the fake remote): now the typed confirmation is asked before anything is sent.
    await cmd('tpp.configureEnvironment', 'production', { baseUrl: remote!.v3, partnerId: 'P-FAKE-REMOTE', curve: 'P-256' });
    assert.equal((await cmd<PrerequisiteCheck>('tpp.checkPrerequisites', 'production')).ok, true);
    let settled = false;
    const pending = Promise.resolve(cmd('tpp.sendPayload', file, 'production')).finally(() => (settled = true));
    await sleep(1500);
    assert.equal(settled, false, 'waiting for the environment’s name to be typed');
    await cmd('workbench.action.closeQuickOpen');
    assert.equal(await pending, undefined, 'dismissed: nothing sent');
    assert.equal(api.history.list('production').length, 0);
  });

  it('the walkthrough steps follow real events and are kept in global state', async () => {
    const w = api.walkthrough.current();
    assert.equal(w.keyGenerated, true);
    assert.equal(w.remoteConfigured, true, 'Sandbox has its Partner ID and its public key saved');
    assert.equal(w.verified, true, 'Sandbox verified');
    const example = resolvePayloadVariables(JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'tire-protection-registration.json'))).toString()), 'tire-protection-registration') as Record<string, unknown>;
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    await api.api.send('local', 'createTireProtectionRegistration', {}, { ...example, invoiceNumber: `INV-WALK-${Date.now()}` } as never);
    assert.ok(await until(() => api.walkthrough.current().registrationCreated === true), 'a registration created completes its step');
    assert.equal(api.walkthrough.stored().registrationCreated, true, 'kept in global state (survives a restart)');
  });
});
