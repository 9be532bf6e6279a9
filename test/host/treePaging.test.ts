// Registrations folders show each registration once while others write: pages read by page number shift when a
// record is created between two reads, and a row shown twice would make VS Code refuse the folder's children (tree
// items need unique ids). The server here lists newest first, as a partner server may (the
// spec does not fix the order): a registration created between two Load more clicks shifts every later page by one,
// so the next page repeats rows already shown. Registrations are created by another process, as an integrator's
// application would. Spec: Tire-protection registrations, Motor-club registrations (list query page, pageSize).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import type { TreeNode } from '../../src/extension/tree/node';
import { activateExtension } from '../shared/extension';
import { sleep } from '../shared/driver';
import { registrationsFolder } from '../shared/tree';

const PAGE = 5;
const config = (s: string) => vscode.workspace.getConfiguration(s);
const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
type Product = 'tire-protection' | 'motor-club';

/** POSTs `n` registrations of `product` to `base` from a process of its own (node's fetch). */
function createElsewhere(base: string, product: Product, n: number): Promise<void> {
  const script = `(async () => { for (let i = 0; i < ${n}; i++) { const r = await fetch(${JSON.stringify(`${base}/${product}/registrations`)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invoiceNumber: 'APP-' + process.pid + '-' + i }) }); if (r.status !== 201) process.exit(2); } })().catch(() => process.exit(3));`;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['-e', script], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 30_000 }, (err) => (err ? reject(err) : resolve())),
  );
}

/** Every row id under `nodes`, children included (what VS Code registers, and refuses twice). */
async function rowIds(api: ExtensionApi, nodes: readonly TreeNode[]): Promise<string[]> {
  const ids: string[] = [];
  for (const n of nodes) {
    const item = n.toTreeItem();
    if (item.id) ids.push(item.id);
    if (item.collapsibleState !== vscode.TreeItemCollapsibleState.None && item.contextValue?.startsWith('registration.')) ids.push(...(await rowIds(api, await api.view.getChildren(n))));
  }
  return ids;
}

describe('registrations folders while others write (host)', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  let server: http.Server;
  let base = '';
  /** Newest first, per product. */
  const lists: Record<Product, string[]> = { 'tire-protection': [], 'motor-club': [] };
  const logged: string[] = [];
  const restore: (() => void)[] = [];

  before(async () => {
    api = await activateExtension();
    for (const p of ['tire-protection', 'motor-club'] as const) for (let i = 0; i < 12; i++) lists[p].unshift(`${p[0]}${i}`);
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const list = /^\/api\/v3\/(tire-protection|motor-club)\/registrations$/.exec(url.pathname);
      if (list) {
        const ids = lists[list[1] as Product];
        if (req.method === 'POST') {
          const id = `${list[1]![0]}${ids.length}`;
          ids.unshift(id);
          return reply(201, { id });
        }
        const page = Number(url.searchParams.get('page') ?? 1);
        const size = Number(url.searchParams.get('pageSize') ?? 100);
        // An id starting with '-' stands for a row the server sends without _id.
        const results = ids.slice((page - 1) * size, page * size).map((_id) => ({ ...(_id.startsWith('-') ? {} : { _id }), invoiceNumber: `INV-${_id}`, enrollDate: '2026-01-01' }));
        return reply(200, { results, totalRecordCount: ids.length, page, pageSize: size, totalPages: Math.ceil(ids.length / size) });
      }
      const meta = /^\/api\/v3\/tire-protection\/registrations\/([^/]+)\/metadata$/.exec(url.pathname);
      if (meta) return reply(200, { enrollDate: '2026-01-01', expirationDate: '2030-01-01', claimedTiresCount: 0, availableTiresCount: 4, hasTiresToClaim: true, hasTiresToReplace: true, isActive: true });
      const one = /^\/api\/v3\/tire-protection\/registrations\/([^/]+)$/.exec(url.pathname);
      if (one) return reply(200, { _id: one[1], invoiceNumber: `INV-${one[1]}`, enrollDate: '2026-01-01', claims: [] });
      reply(404, { message: 'not here' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
    await cmd('tpp.generateKeyPair', 'sandbox', { curve: 'P-256', existing: 'replace' });
    await config('tpp.sandbox').update('partnerId', 'P-PAGING', vscode.ConfigurationTarget.Global);
    await config('tpp.sandbox').update('baseUrl', base, vscode.ConfigurationTarget.Global);
    await config('tpp.registrations').update('pageSize', PAGE, vscode.ConfigurationTarget.Global);
    await sleep(300);
    // The extension's own log: a failed tree read is logged there (as a warning or an error).
    for (const level of ['warn', 'error'] as const) {
      const original = api.log[level].bind(api.log);
      api.log[level] = (message: string, err?: unknown) => {
        logged.push(`${level}: ${message}`);
        original(message, err);
      };
      restore.push(() => (api.log[level] = original));
    }
  });

  after(async () => {
    for (const r of restore) r();
    server.close();
    for (const k of ['baseUrl', 'partnerId']) await config('tpp.sandbox').update(k, undefined, vscode.ConfigurationTarget.Global);
    await config('tpp.registrations').update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    await api.keys.delete('sandbox');
  });

  for (const product of ['tire-protection', 'motor-club'] as const) {
    it(`${product}: registrations created by another process between two Load more clicks are neither repeated nor lost`, async () => {
      const folder = await registrationsFolder(api, 'sandbox', product);
      const labels = (rows: readonly TreeNode[]) => rows.map((r) => String(r.toTreeItem().label)).filter((l) => l.startsWith('INV-'));
      await cmd('tpp.refreshRegistrations', 'sandbox', product);
      assert.equal(labels(await api.view.getChildren(folder)).length, PAGE);
      await cmd('tpp.loadMoreRegistrations', 'sandbox', product);
      assert.equal(labels(await api.view.getChildren(folder)).length, 2 * PAGE);

      await createElsewhere(base, product, 3); // newest first: page 3 now starts with three rows of page 2
      await cmd('tpp.loadMoreRegistrations', 'sandbox', product);
      let rows = await api.view.getChildren(folder);
      let shown = labels(rows);
      assert.equal(new Set(shown).size, shown.length, `shown twice: ${shown.join(', ')}`);
      assert.equal(shown.length, 12, shown.join(', '));
      assert.equal(folder.toTreeItem().description, '12 of 15', 'the folder counts each registration once, of the server’s total');

      // The three created since the first page: Load more reads them from page 1 again.
      const more = rows.at(-1)!.toTreeItem();
      assert.equal(more.label, 'Load more…');
      assert.equal(more.description, '12 of 15 shown');
      await cmd('tpp.loadMoreRegistrations', 'sandbox', product);
      rows = await api.view.getChildren(folder);
      shown = labels(rows);
      assert.deepEqual([...shown].sort(), lists[product].map((id) => `INV-${id}`).sort(), 'every registration once');
      assert.equal(folder.toTreeItem().description, '15 of 15');
      assert.ok(!rows.some((r) => r.toTreeItem().label === 'Load more…'), 'nothing more to load');

      const ids = await rowIds(api, rows);
      assert.equal(new Set(ids).size, ids.length, `a row id twice: ${ids.join(', ')}`);
      assert.deepEqual(logged, [], 'nothing logged as a warning or an error');
    });
  }

  it('a server repeating a registration in one answer, or sending one without _id: each shown once with a warning, nothing thrown', async () => {
    const original = lists['tire-protection'];
    lists['tire-protection'] = ['dup', 'dup', 'ok', '-none'];
    try {
      await cmd('tpp.refreshRegistrations', 'sandbox', 'tire-protection');
      const folder = await registrationsFolder(api, 'sandbox', 'tire-protection');
      const rows = await api.view.getChildren(folder);
      const items = rows.map((r) => r.toTreeItem());
      assert.deepEqual(
        items.map((i) => i.label),
        ['INV-dup', 'INV-ok', 'INV--none'],
      );
      assert.equal((items[0]!.iconPath as vscode.ThemeIcon).id, 'warning');
      assert.match(String(items[0]!.tooltip), /twice in one page/);
      assert.equal((items[2]!.iconPath as vscode.ThemeIcon).id, 'warning');
      assert.match(String(items[2]!.tooltip), /without an _id/);
      assert.equal(items[2]!.collapsibleState, vscode.TreeItemCollapsibleState.None, 'nothing to read by id');
      const ids = await rowIds(api, rows);
      assert.equal(new Set(ids).size, ids.length, ids.join(', '));
    } finally {
      lists['tire-protection'] = original;
    }
  });
});
