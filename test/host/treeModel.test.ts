// One model behind the view (issue 14): expanding a page of 50 registrations costs one list request and 50
// metadata reads made with bounded concurrency, cached, and kept out of the request history; only that folder
// (and the environment's history and connection rows) is redrawn, never the whole tree; a request reads no
// secret again. Spec: Tire-protection registrations (list envelope; Registration metadata).
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import { METADATA_CONCURRENCY } from '../../src/extension/services/registrationPages';
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
  const requests = { list: 0, metadata: 0, other: 0, inFlight: 0, maxInFlight: 0 };

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
        requests.inFlight += 1;
        requests.maxInFlight = Math.max(requests.maxInFlight, requests.inFlight);
        // Slow enough that reads overlap, so the concurrency bound is what limits them.
        setTimeout(() => {
          requests.inFlight -= 1;
          reply({ enrollDate: '2026-01-01', expirationDate: '2030-01-01', claimedTiresCount: 0, availableTiresCount: 4, hasTiresToClaim: true, hasTiresToReplace: true, isActive: true });
        }, 20);
        return;
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

  it('one list request, 50 bounded and cached metadata reads out of the history, that folder redrawn once', async () => {
    const folder = await registrationsFolder(api, 'sandbox', 'tire-protection');
    const fired: (TreeNode | undefined)[] = [];
    const sub = api.view.onDidChangeTreeData((n) => fired.push(n ?? undefined));
    try {
      const historyBefore = api.history.list('sandbox').length;
      const before = { ...requests };

      await vscode.commands.executeCommand('tpp.refreshRegistrations', 'sandbox', 'tire-protection');
      const rows = await api.view.getChildren(folder);
      assert.equal(rows.length, ROWS, rows.map((r) => r.toTreeItem().label).join(', '));
      assert.match(String(rows[0]!.toTreeItem().description), /Active · 4 tires available/);
      assert.equal(requests.list - before.list, 1, 'one list request');
      assert.equal(requests.metadata - before.metadata, ROWS, 'one metadata read per row');
      assert.equal(requests.other, 0);
      assert.ok(requests.maxInFlight <= METADATA_CONCURRENCY, `at most ${METADATA_CONCURRENCY} metadata reads in flight, saw ${requests.maxInFlight}`);
      assert.ok(requests.maxInFlight > 1, 'metadata reads run in parallel');

      const history = api.history.list('sandbox').slice(0, api.history.list('sandbox').length - historyBefore);
      assert.deepEqual(history.map((e) => `${e.method} ${e.path}`), [], 'the tree’s own reads (list and metadata) stay out of the history');

      // A redraw (the view asking again, e.g. after collapse and expand) sends nothing.
      await api.view.getChildren(folder);
      assert.equal(requests.list - before.list, 1);
      assert.equal(requests.metadata - before.metadata, ROWS);

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

  it('a request reads no secret again: the key is read from SecretStorage once until it changes', async () => {
    const folder = await registrationsFolder(api, 'sandbox', 'tire-protection');
    await vscode.commands.executeCommand('tpp.refreshRegistrations', 'sandbox', 'tire-protection');
    await api.view.getChildren(folder); // warm: the key written in before() is read once here at most
    const reads = api.keys.reads;
    const before = requests.metadata;
    await vscode.commands.executeCommand('tpp.refreshRegistrations', 'sandbox', 'tire-protection');
    await api.view.getChildren(folder);
    await api.view.getChildren(); // the environments' rows (key, Partner ID, eligibility token)
    assert.equal(requests.metadata - before, ROWS, 'a refresh reads the page and its metadata again');
    assert.equal(api.keys.reads - reads, 0, 'no SecretStorage read for 51 requests and a redraw of the environments');
  });
});
