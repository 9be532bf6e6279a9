// One model behind the view: expanding a page of 50 registrations costs one list request and no
// per-row read; expanding one registration reads it (with its claims) and its metadata, cached and kept out of the
// request history, and redraws that row alone with its state; only that folder (and the environment's history and
// connection rows) is redrawn, never the whole tree; a request reads no secret again.
// Spec: Tire-protection registrations (list envelope; Registration metadata).
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import type { TreeNode } from '../../src/extension/tree/node';
import { activateExtension } from '../shared/extension';
import { sleep } from '../shared/driver';
import { registrationsFolder } from '../shared/tree';

const ROWS = 50;
const config = (s: string) => vscode.workspace.getConfiguration(s);

describe('the view renders from models: a page of 50 registrations (host)', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let server: http.Server;
  const requests = { list: 0, metadata: 0, read: 0, other: 0 };

  before(async () => {
    api = await activateExtension();
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const reply = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/api/v3/tire-protection/registrations') {
        requests.list += 1;
        const results = Array.from({ length: ROWS }, (_, i) => ({ _id: `r${i}`, invoiceNumber: `INV-M${i}`, enrollDate: '2026-01-01' }));
        return reply({ results, totalRecordCount: ROWS, page: 1, pageSize: ROWS, totalPages: 1 });
      }
      const m = /^\/api\/v3\/tire-protection\/registrations\/([^/]+)\/metadata$/.exec(url.pathname);
      if (m) {
        requests.metadata += 1;
        const noneLeft = m[1] === 'r1';
        return reply({ enrollDate: '2026-01-01', expirationDate: '2030-01-01', claimedTiresCount: noneLeft ? 4 : 0, availableTiresCount: noneLeft ? 0 : 4, hasTiresToClaim: !noneLeft, hasTiresToReplace: !noneLeft, isActive: true });
      }
      const r = /^\/api\/v3\/tire-protection\/registrations\/([^/]+)$/.exec(url.pathname);
      if (r) {
        requests.read += 1;
        return reply({ _id: r[1], invoiceNumber: `INV-M${r[1]!.slice(1)}`, enrollDate: '2026-01-01', claims: [] });
      }
      requests.other += 1;
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    await vscode.commands.executeCommand('tpp.generateKeyPair', 'sandbox', { curve: 'P-256', existing: 'replace' });
    await config('tpp.sandbox').update('partnerId', 'P-MODEL', vscode.ConfigurationTarget.Global);
    await config('tpp.sandbox').update('baseUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`, vscode.ConfigurationTarget.Global);
    await config('tpp.registrations').update('pageSize', ROWS, vscode.ConfigurationTarget.Global);
    await sleep(300); // let the settings events settle before counting redraws
  });

  after(async () => {
    server.close();
    for (const k of ['baseUrl', 'partnerId']) await config('tpp.sandbox').update(k, undefined, vscode.ConfigurationTarget.Global);
    await config('tpp.registrations').update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    await api.keys.delete('sandbox');
  });

  it('one list request per page, no per-row read, out of the history but the list itself; that folder redrawn once', async () => {
    const folder = await registrationsFolder(api, 'sandbox', 'tire-protection');
    const fired: (TreeNode | undefined)[] = [];
    const sub = api.view.onDidChangeTreeData((n) => fired.push(n ?? undefined));
    try {
      const historyBefore = api.history.list('sandbox').length;
      const before = { ...requests };

      await vscode.commands.executeCommand('tpp.refreshRegistrations', 'sandbox', 'tire-protection');
      const rows = await api.view.getChildren(folder);
      assert.equal(rows.length, ROWS, rows.map((r) => r.toTreeItem().label).join(', '));
      assert.match(String(rows[0]!.toTreeItem().description), /^2026-01-01 · Not cancelled$/);
      assert.equal(rows[0]!.toTreeItem().contextValue, 'registration.open');
      assert.equal(requests.list - before.list, 1, 'one list request');
      assert.equal(requests.metadata - before.metadata, 0, 'no metadata read per row');
      assert.equal(requests.read - before.read, 0, 'no registration read per row');
      assert.equal(requests.other, 0);

      const history = api.history.list('sandbox').slice(0, api.history.list('sandbox').length - historyBefore);
      assert.deepEqual(history.map((e) => `${e.method} ${e.path}`), [], 'the tree’s own reads (list and metadata) stay out of the history');

      // A redraw (the view asking again, e.g. after collapse and expand) sends nothing.
      await api.view.getChildren(folder);
      assert.equal(requests.list - before.list, 1);

      await sleep(400); // history rows would redraw after a short debounce
      assert.ok(!fired.includes(undefined), 'the whole tree was never redrawn');
      const ids = fired.map((n) => n?.toTreeItem().id);
      assert.equal(ids.filter((id) => id === 'sandbox:folder:tire-protection').length, 1, `folder redrawn once: ${ids.join(', ')}`);
      // The history does not change (the tree's reads stay out of it); the Connection and history rows redraw only
      // when the connection state changes kind (the environment's first answer).
      const allowed = ['sandbox:connection', 'sandbox:folder:history', 'sandbox:folder:tire-protection'];
      assert.ok([...new Set(ids)].every((id) => id !== undefined && allowed.includes(id)), `nothing but that folder and the connection rows: ${ids.join(', ')}`);
    } finally {
      sub.dispose();
    }
  });

  it('expanding a registration reads it and its metadata once, quietly, and redraws that row alone with its state and menus', async () => {
    const folder = await registrationsFolder(api, 'sandbox', 'tire-protection');
    const rows = await api.view.getChildren(folder);
    const fired: (TreeNode | undefined)[] = [];
    const sub = api.view.onDidChangeTreeData((n) => fired.push(n ?? undefined));
    try {
      const before = { ...requests };
      const historyBefore = api.history.list('sandbox').length;
      for (const row of rows.slice(0, 2)) await api.view.getChildren(row);
      assert.equal(requests.read - before.read, 2, 'one registration read per expanded row');
      assert.equal(requests.metadata - before.metadata, 2, 'one metadata read per expanded row');
      assert.equal(api.history.list('sandbox').length, historyBefore, 'the tree’s own reads stay out of the history');
      assert.match(String(rows[0]!.toTreeItem().description), /Active · 4 tires available/);
      assert.equal(rows[0]!.toTreeItem().contextValue, 'registration.active');
      assert.match(String(rows[1]!.toTreeItem().description), /No tires left · 0 tires available/);
      assert.equal(rows[1]!.toTreeItem().contextValue, 'registration.noTiresLeft');
      const ids = fired.map((n) => n?.toTreeItem().id);
      assert.deepEqual([...new Set(ids)].sort(), ['sandbox:registration:r0', 'sandbox:registration:r1'], `only the two rows: ${ids.join(', ')}`);
      await api.view.getChildren(rows[0]);
      assert.equal(requests.read - before.read, 2, 'cached');
    } finally {
      sub.dispose();
    }
  });

  it('a request reads no secret again: the key is read from SecretStorage once until it changes', async () => {
    const folder = await registrationsFolder(api, 'sandbox', 'tire-protection');
    await vscode.commands.executeCommand('tpp.refreshRegistrations', 'sandbox', 'tire-protection');
    await api.view.getChildren(folder); // warm: the key written in before() is read once here at most
    const reads = api.keys.reads;
    const before = requests.list;
    await vscode.commands.executeCommand('tpp.refreshRegistrations', 'sandbox', 'tire-protection');
    const rows = await api.view.getChildren(folder);
    await api.view.getChildren(rows[2]); // a registration and its metadata
    await api.view.getChildren(); // the environments' rows (key, Partner ID, eligibility token)
    assert.equal(requests.list - before, 1, 'a refresh reads the page again');
    assert.equal(api.keys.reads - reads, 0, 'no SecretStorage read for 3 requests and a redraw of the environments');
  });
});
