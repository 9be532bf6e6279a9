// A flow run from the Test Explorer is a Send (docs/sending.md; docs/flows-editor.md): on a second sandbox configured
// as Sandbox (a `tpp sandbox` of the test's own, in its own process), a flow's create and cancel land in Request
// History, and the Sandbox registrations redraw as they do after an editor send; the user's tpp.retry.maxAttempts
// holds for flows too (a 503 is not retried with 1). Spec: Tire-protection registrations; Errors (retries).
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import type { RequestResult } from '../../src/core/flows/types';
import { EXTENSION_ID, activateExtension } from '../shared/extension';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const PARTNER = 'P-FLOWSB';

describe('flows on Sandbox: a flow is a Send', function () {
  this.timeout(120_000);
  let upstream: ChildProcess | undefined;
  let dir: string;
  let target: string;
  const sandbox = () => vscode.workspace.getConfiguration('tpp.sandbox');
  const retry = () => vscode.workspace.getConfiguration('tpp.retry');
  let saved: { baseUrl?: string; partnerId?: string; maxAttempts?: number } = {};
  const flow = async (name: string, text: string) => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'flows', name);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
    return uri;
  };

  before(async () => {
    const api = await activateExtension();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpp-flows-sandbox-'));
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pub = path.join(dir, 'p.pub.pem');
    const key = path.join(dir, 'p.key.pem');
    fs.writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
    fs.writeFileSync(key, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath as string, 'dist', 'cli.js');
    upstream = spawn(process.execPath, [cli, 'sandbox', '--partner', `${PARTNER}=${pub}`], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
    target = await new Promise<string>((resolve) => createInterface({ input: upstream?.stdout as NodeJS.ReadableStream }).once('line', resolve));
    saved = { baseUrl: sandbox().inspect<string>('baseUrl')?.globalValue, partnerId: sandbox().inspect<string>('partnerId')?.globalValue, maxAttempts: retry().inspect<number>('maxAttempts')?.globalValue };
    await sandbox().update('baseUrl', target, vscode.ConfigurationTarget.Global);
    await sandbox().update('partnerId', PARTNER, vscode.ConfigurationTarget.Global);
    await cmd('tpp.importPrivateKey', 'sandbox', { source: 'file', uri: vscode.Uri.file(key), existing: 'replace' });
    assert.equal((await api.environments.status('sandbox')).state, 'ready', 'Sandbox is set up: address, Partner ID, key');
  });

  after(async () => {
    await (await activateExtension()).environments.keys.delete('sandbox');
    upstream?.kill('SIGTERM');
    await sandbox().update('baseUrl', saved.baseUrl, vscode.ConfigurationTarget.Global);
    await sandbox().update('partnerId', saved.partnerId, vscode.ConfigurationTarget.Global);
    await retry().update('maxAttempts', saved.maxAttempts, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a create and a cancel run from the Test Explorer are in Request History, and the Sandbox registrations redraw', async () => {
    const api = await activateExtension();
    const uri = await flow(
      'sandbox-story.http',
      [
        '@invoice = SB-{{$timestamp}}-{{$randomInt 1000 10000}}',
        '### create',
        '# @name reg',
        'POST {{baseUrl}}/tire-protection/registrations',
        'Content-Type: application/json',
        '',
        '{ "product_id": "tp-road-hazard-36", "invoiceNumber": "{{invoice}}", "enrollDate": "{{$date}}", "customer": { "name": "Pat Doe", "email": "pat@example.com" }, "vehicle": { "year": 2021, "make": "Toyota", "model": "RAV4" }, "tires": [{ "make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99 }] }',
        '',
        '?? status == 201',
        '',
        '### cancel',
        'PATCH {{baseUrl}}/tire-protection/registrations/{{reg.response.body.$.id}}',
        'Content-Type: application/json',
        '',
        '{ "cancelledOn": "{{$datetime iso8601}}" }',
        '',
        '?? status == 204',
        '',
      ].join('\n'),
    );
    const historyBefore = api.history.list('sandbox').length;
    const redraws: string[] = [];
    const subs = [api.registrations.onDidChange((c) => void redraws.push(`list ${JSON.stringify(c)}`)), api.registrations.onDidChangeRecord((c) => void redraws.push(`record ${JSON.stringify(c)}`))];
    let results: readonly RequestResult[];
    try {
      results = await cmd<readonly RequestResult[]>('tpp.runFlow', uri, 'sandbox');
    } finally {
      for (const s of subs) s.dispose();
    }
    assert.deepEqual(results.map((r) => `${r.outcome} ${r.exchange?.response?.status}`), ['passed 201', 'passed 204'], results.map((r) => r.message ?? '').join('\n'));
    const added = api.history.list('sandbox').slice(0, api.history.list('sandbox').length - historyBefore);
    assert.deepEqual(added.map((e) => `${e.method} ${e.status}`).sort(), ['PATCH 204', 'POST 201'], 'both requests are in the Sandbox history');
    assert.ok(added.every((e) => e.replay?.endpointId), 'each can be resent as a Send can');
    assert.ok(redraws.some((r) => r.includes('sandbox')), `the Sandbox registrations were told to redraw: ${redraws.join(' | ')}`);
  });

  it('tpp.retry.maxAttempts = 1 holds for a flow: a 503 is answered, not retried', async () => {
    await retry().update('maxAttempts', 1, vscode.ConfigurationTarget.Global);
    const origin = new URL(target).origin;
    const scheduled = await fetch(`${origin}/__tpp/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'GET', path: '/api/v3/verify-token', fault: 503, times: 1 }) });
    assert.equal(scheduled.status, 201, await scheduled.text());
    const uri = await flow('sandbox-503.http', '### verify\nGET {{baseUrl}}/verify-token\n\n?? status == 503\n');
    const results = await cmd<readonly RequestResult[]>('tpp.runFlow', uri, 'sandbox');
    assert.equal(results[0]?.outcome, 'passed', results[0]?.message);
    assert.equal(results[0]?.exchange?.attempts, 1, 'one attempt: the setting is the flow runner\'s too');
  });

  it('a backfill on Sandbox stays out of Request History; its failed row is in the Integration Log and the tree redraws once', async () => {
    const api = await activateExtension();
    await retry().update('maxAttempts', saved.maxAttempts, vscode.ConfigurationTarget.Global);
    const invoice = `SBB-${Date.now()}`;
    const dir = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'flows', 'sandbox-backfill');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'rows.csv'), Buffer.from(`invoice,name\n${invoice},Pat One\n${invoice},Pat Two\n`));
    const uri = vscode.Uri.joinPath(dir, 'rows.http');
    await vscode.workspace.fs.writeFile(
      uri,
      Buffer.from(
        [
          '# @data ./rows.csv',
          '### a registration',
          'POST {{baseUrl}}/tire-protection/registrations',
          'Content-Type: application/json',
          '',
          '{ "product_id": "tp-road-hazard-36", "invoiceNumber": "{{row.invoice}}", "enrollDate": "2025-06-01", "customer": { "name": "{{row.name}}", "email": "pat@example.com" }, "vehicle": { "year": 2021, "make": "Toyota", "model": "RAV4" }, "tires": [{ "make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99 }] }',
          '',
        ].join('\n'),
      ),
    );
    const historyBefore = api.history.list('sandbox').length;
    const logged: string[] = [];
    const redraws: string[] = [];
    const subs = [
      api.integrationLog.onDidChange((added) => void logged.push(...(added ?? []).filter((x) => x.env === 'sandbox' && x.source === 'client').map((x) => `${x.request.method} ${x.response?.status}`))),
      api.registrations.onDidChange((c) => void redraws.push(JSON.stringify(c))),
    ];
    try {
      await api.flowTests.runFile(uri, 'sandbox');
    } finally {
      for (const s of subs) s.dispose();
    }
    const r = api.flowTests.lastBackfill;
    assert.equal(r?.summary?.created, 1, JSON.stringify(r));
    assert.equal(r?.summary?.conflict, 1, 'the second row met the first invoice with other values');
    assert.equal(api.history.list('sandbox').length, historyBefore, 'rows stay out of Request History');
    assert.deepEqual(logged, ['POST 409'], 'the failed row is in the Integration Log, as Sandbox');
    assert.ok(redraws.some((c) => c.includes('sandbox')), `the Sandbox registrations were told to redraw: ${redraws.join(' | ')}`);
  });
});
