import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import type { Exchange } from '../../src/core/exchange/types';
import type { WatchInfo } from '../../src/extension/services/applicationWatch';
import { EXTENSION_ID, activateExtension } from '../shared/extension';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * Watch My Application on Sandbox (docs/proxy.md): the "administrator's Sandbox" is a second `tpp sandbox` (bare
 * 401s); the editor runs `tpp proxy` in its own process in front of it, and the application's broken request appears
 * in the Integration Log, explained, with its environment.
 */
describe('Watch My Application', () => {
  let upstream: ChildProcess | undefined;
  let dir: string;
  const config = () => vscode.workspace.getConfiguration('tpp.sandbox');
  let before: { baseUrl?: string; partnerId?: string } = {};

  after(async () => {
    await vscode.commands.executeCommand('tpp.stopWatchingApplication', 'sandbox');
    await (await activateExtension()).environments.keys.delete('sandbox');
    upstream?.kill('SIGTERM');
    await config().update('baseUrl', before.baseUrl, vscode.ConfigurationTarget.Global);
    await config().update('partnerId', before.partnerId, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('explains the bare 401 of a Sandbox to an application calling through the proxy', async function () {
    this.timeout(120_000);
    const api = await activateExtension();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpp-watch-'));
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = path.join(dir, 'p.pub.pem');
    fs.writeFileSync(pem, publicKey.export({ type: 'spki', format: 'pem' }));
    const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath as string, 'dist', 'cli.js');
    upstream = spawn(process.execPath, [cli, 'sandbox', '--partner', `P-WATCH=${pem}`], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
    const target = await new Promise<string>((resolve) => createInterface({ input: upstream?.stdout as NodeJS.ReadableStream }).once('line', resolve));
    before = { baseUrl: config().inspect<string>('baseUrl')?.globalValue, partnerId: config().inspect<string>('partnerId')?.globalValue };
    await config().update('baseUrl', target, vscode.ConfigurationTarget.Global);
    await config().update('partnerId', 'P-WATCH', vscode.ConfigurationTarget.Global);

    const info = (await vscode.commands.executeCommand('tpp.watchApplication', 'sandbox', { quiet: true })) as WatchInfo;
    assert.ok(info, 'the command answers with the proxy addresses');
    assert.equal(info.target, target);
    assert.match(info.v3BaseUrl, /^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);

    const arrived = new Promise<Exchange>((resolve) => {
      const sub = api.integrationLog.onDidChange((added) => {
        const x = added?.find((e) => e.source === 'proxy-log');
        if (!x) return;
        sub.dispose();
        resolve(x);
      });
    });
    // The application: iat in milliseconds, aud the real address (TPP_AUDIENCE), called through the proxy.
    const now = Math.floor(Date.now() / 1000);
    const input = `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64({ iss: 'P-WATCH', aud: target, iat: now * 1000, exp: now + 300 })}`;
    const token = `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    const res = await fetch(`${info.v3BaseUrl}/verify-token`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: 'unauthorized', statusCode: 401 });
    const x = await arrived;
    assert.equal(x.env, 'sandbox');
    // The editor has no Sandbox key pair here: the checklist runs without the signature, and says how to add it.
    assert.deepEqual(x.diagnosis?.map((d) => d.rule), ['iss', 'iat']);
    assert.match(x.diagnosis?.[0]?.message ?? '', /signature was not checked: generate or import the Sandbox key pair/);
    assert.match(x.diagnosis?.[1]?.message ?? '', /milliseconds/);
    const item = api.integrationLogView.getTreeItem(x);
    // What a person scans first leads the row: status, environment, method and resource; the path follows.
    assert.match(String(item.label), /^401 · Sandbox · GET verify-token$/);
    assert.match(String(item.description), /^\/api\/v3\/verify-token · /);

    // A 409 through the proxy: the proxy holds no private key, so the entry comes without the conflicting record;
    // opening the row looks it up with the Sandbox key (imported here) and links the registration the first create made.
    const keyFile = path.join(dir, 'p.key.pem');
    fs.writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    await vscode.commands.executeCommand('tpp.importPrivateKey', 'sandbox', { source: 'file', uri: vscode.Uri.file(keyFile), existing: 'replace' });
    const conflict = new Promise<Exchange>((resolve) => {
      const sub = api.integrationLog.onDidChange((added) => {
        const found = added?.find((e) => e.source === 'proxy-log' && e.response?.status === 409);
        if (!found) return;
        sub.dispose();
        resolve(found);
      });
    });
    const goodInput = `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64({ iss: 'P-WATCH', aud: target, iat: now, exp: now + 300 })}`;
    const good = `${goodInput}.${sign('sha256', Buffer.from(goodInput), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    const invoice = `WATCH-${Date.now()}`;
    const tire = { make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99, dot: 'DOT U2LL LMLR 1124' };
    const registration = { product_id: 'tp-road-hazard-36', invoiceNumber: invoice, enrollDate: '2025-06-01', customer: { name: 'Pat Doe', email: 'pat@example.com' }, vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' }, tires: [tire] };
    const create = () => fetch(`${info.v3BaseUrl}/tire-protection/registrations`, { method: 'POST', headers: { authorization: `Bearer ${good}`, 'content-type': 'application/json' }, body: JSON.stringify(registration) });
    const first = await create();
    assert.equal(first.status, 201, await first.clone().text());
    const firstId = String(((await first.json()) as { id?: string; _id?: string }).id ?? '');
    assert.equal((await create()).status, 409);
    const logged = await conflict;
    assert.ok(!logged.diagnosis?.some((d) => d.record), 'the proxy logs no record');
    const shown = (await vscode.commands.executeCommand('tpp.showExchange', logged)) as { exchange: Exchange };
    const conflicts = shown.exchange.diagnosis?.filter((d) => d.rule === 'conflict') ?? [];
    assert.equal(conflicts.length, 1, `one conflict, the looked-up one: ${JSON.stringify(shown.exchange.diagnosis)}`);
    const linked = conflicts[0];
    assert.equal(linked?.record?.id, firstId, `the conflicting registration is linked: ${JSON.stringify(shown.exchange.diagnosis)}`);
    assert.match(linked?.message ?? '', new RegExp(`invoice ${invoice} .*already exists`));

    // Stop Application Watch… without an argument: the only watch stops without a question; then nothing is watched.
    assert.deepEqual(await vscode.commands.executeCommand('tpp.stopWatchingApplication'), ['sandbox']);
    assert.deepEqual(api.applicationWatch.watching(), []);
    assert.equal(await fetch(`${info.v3BaseUrl}/verify-token`).then(() => 'answered', () => 'refused'), 'refused', 'the proxy is gone');
    assert.deepEqual(await vscode.commands.executeCommand('tpp.stopWatchingApplication'), [], 'nothing to stop, and no environment asked for');
  });
});
