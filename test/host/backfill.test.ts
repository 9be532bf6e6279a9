// Data-driven flows (docs/backfills.md, docs/flows-editor.md) in a real extension host against the Local sandbox: run
// from the Test Explorer, the request item shows the row counts and the failed rows are its child items; a run
// cancelled mid-way leaves a resumable journal, and Resume Backfill continues it without storing a row twice. A run over
// a journal of an earlier run is refused in the editor's words; Resume Backfill refuses a flow without a data file.
// Spec: Tire-protection registrations ("Registrations are unique by invoice number"; a second one is answered 409, which the
// duplicate check settles: stored with other values is a conflict, shown with both).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import * as vscode from 'vscode';
import { defaultJournalPath } from '../../src/core/backfill';
import { createPartnerClient } from '../../src/core/client/client';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { hasDriver, texts, until } from '../shared/driver';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;

const FLOW = [
  '# @data ./rows.csv',
  '### Registration',
  'POST {{baseUrl}}/tire-protection/registrations',
  'Content-Type: application/json',
  '',
  '{ "product_id": "tp-road-hazard-36", "invoiceNumber": "{{row.invoice}}", "enrollDate": "2025-06-01",',
  '  "customer": { "name": "{{row.name}}", "email": "buyer@example.com" }, "vehicle": { "year": 2021, "make": "Toyota", "model": "RAV4" },',
  '  "tires": [{ "make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99, "dot": "DOT U2LL LMLR 1124" }] }',
  '',
  '?? status == 201',
  '',
];

const toasts = () => texts('.notifications-toasts .notification-list-item-message, .notifications-center .notification-list-item-message');
/** The notification matching `re`, once shown (undefined without the harness's driver: then nothing is checked). */
async function notification(re: RegExp): Promise<string | undefined> {
  if (!hasDriver()) return undefined;
  let t = await until(async () => (await toasts()).find((x) => re.test(x)), 10_000);
  if (!t) {
    // A toast already hidden (or never raised while another notification held the corner) is in the notification center.
    await cmd('notifications.showList');
    t = await until(async () => (await toasts()).find((x) => re.test(x)), 10_000);
    await cmd('notifications.hideList');
  }
  assert.ok(t, `a notification ${re}; shown: ${JSON.stringify(await toasts())}`);
  return t;
}

/** A flow over `invoices` (one row each) in a folder of its own. */
async function writeBackfill(name: string, invoices: readonly string[]): Promise<vscode.Uri> {
  const dir = vscode.Uri.joinPath(folder(), 'backfills', name);
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'rows.csv'), Buffer.from(`invoice,name\n${invoices.map((v, i) => `${v},Buyer ${i + 1}`).join('\n')}\n`));
  const uri = vscode.Uri.joinPath(dir, 'backfill.http');
  await vscode.workspace.fs.writeFile(uri, Buffer.from(FLOW.join('\n')));
  return uri;
}

describe('backfills: a data-driven flow in the Test Explorer (Local sandbox)', function () {
  this.timeout(240_000);
  let api: ExtensionApi;
  const prefix = `HB${Date.now().toString(36)}`;

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
  });

  it('the request item shows the row counts; the failed rows are its child items, at their data lines', async () => {
    const invoices = Array.from({ length: 12 }, (_, i) => `${prefix}-A${i + 1}`);
    invoices[4] = invoices[0] as string; // rows 5 and 9 repeat an invoice with another name: 409, then a conflict
    invoices[8] = invoices[1] as string;
    const uri = await writeBackfill('counts', invoices);
    await api.flowTests.runFile(uri, 'local');
    const r = api.flowTests.lastBackfill;
    assert.ok(r?.summary, JSON.stringify(r));
    assert.equal(r.summary.created, 10);
    assert.equal(r.summary.conflict, 2);
    assert.equal(r.summary.refused + r.summary.unknown, 0);
    // Four rows are sent at once, so which row of a pair is stored first is the race's: one of rows 1 and 5, and one
    // of rows 2 and 9, ends "conflict", each at its own data line (its row number + 1, after the header).
    const conflicts = r.rowItems.map((l) => /^row (\d+) \(line (\d+)\): conflict 409: stored already with other values \(customer\.name: "Buyer \d+", stored "Buyer \d+"\)/.exec(l)?.slice(1).map(Number));
    assert.equal(conflicts.length, 2, r.rowItems.join('\n'));
    for (const [pair, c] of [[[1, 5], conflicts.find((x) => x?.[0] === 1 || x?.[0] === 5)], [[2, 9], conflicts.find((x) => x?.[0] === 2 || x?.[0] === 9)]] as const) {
      assert.ok(c, `one of rows ${pair.join(' and ')} is a conflict: ${r.rowItems.join(' | ')}`);
      assert.equal(c[1], (c[0] as number) + 1, 'at its line of the data file');
    }
    const item = api.flowTests.controller.items.get(uri.toString())?.children.get(`${uri.toString()}#0`);
    assert.match(item?.description ?? '', /12 rows: 10 created, 0 recovered, 0 refused, 0 skipped, 0 unknown, 2 conflict/);
    const children: vscode.TestItem[] = [];
    item?.children.forEach((c) => void children.push(c));
    assert.equal(children.length, 2, 'one child item per failed row');
    assert.equal(children[0]?.uri?.path.endsWith('rows.csv'), true, 'a failed row opens its line of the data file');
    assert.equal(r.outcome, 'failed', 'refused rows fail the request item');
    await notification(/^Backfill backfills\/counts\/backfill\.http on Local: finished, 12 rows: 10 created/);
  });

  it('running a finished backfill again sends nothing: skipped (not failed), in the editor\'s words, the files named from the workspace', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'backfills', 'counts', 'backfill.http');
    await cmd('notifications.clearAll');
    await api.flowTests.runFile(uri, 'local');
    const r = api.flowTests.lastBackfill;
    assert.ok(r && !r.summary, JSON.stringify(r));
    assert.equal(r.outcome, 'skipped', 'refused before anything was sent: neither passed nor failed');
    const text = r.error ?? '';
    assert.match(text, /backfills\/counts\/backfill\.http ran over backfills\/counts\/rows\.csv before/);
    assert.match(text, /backfills\/counts\/\.tpp\/runs\/backfill-rows\.csv\.jsonl/, 'the journal named from the workspace');
    assert.match(text, /Resume Backfill/);
    assert.doesNotMatch(text, /--resume|\.\.\//, 'no command-line flag, no path relative to the journal');
    const item = api.flowTests.controller.items.get(uri.toString())?.children.get(`${uri.toString()}#0`);
    assert.doesNotMatch(item?.description ?? '', /12 rows/, "the item does not show the earlier run's counts as this run's");
    await notification(/^Not run: backfills\/counts\/backfill\.http ran over backfills\/counts\/rows\.csv before/);
  });

  it('Resume Backfill on a flow without a data file refuses by name and sends nothing', async () => {
    const invoice = `${prefix}-P1`;
    const uri = vscode.Uri.joinPath(folder(), 'backfills', 'plain', 'create.http');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(FLOW.slice(1).join('\n').replace('{{row.invoice}}', invoice).replace('{{row.name}}', 'Plain Buyer')));
    await cmd('notifications.clearAll');
    assert.equal(await cmd('tpp.resumeBackfill', uri, 'local'), undefined);
    await notification(/backfills\/plain\/create\.http names no data file .*nothing was sent/);
    const env = await api.flowRuns.environment('local');
    const client = createPartnerClient({ baseUrls: { v3: env.baseUrl }, token: env.token!, userAgent: 'host-test' });
    const res = await client.call('listTireProtectionRegistrations', {}, undefined, { query: { invoiceNumber: invoice } });
    assert.equal((res.body as { results: unknown[] }).results.length, 0, 'the flow was not run');
  });

  it('invalid rows: Cancel sends nothing; "Send the N valid rows (skip M invalid)" sends the others, the invalid ones skipped', async () => {
    const invoices = Array.from({ length: 6 }, (_, i) => `${prefix}-C${i + 1}`);
    const dir = vscode.Uri.joinPath(folder(), 'backfills', 'invalid');
    const emails = invoices.map((_, i) => (i === 1 || i === 4 ? 'not-an-email' : `buyer${i}@example.com`));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'rows.csv'), Buffer.from(`invoice,name,email\n${invoices.map((v, i) => `${v},Buyer ${i + 1},${emails[i]}`).join('\n')}\n`));
    const uri = vscode.Uri.joinPath(dir, 'backfill.http');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(FLOW.join('\n').replace('buyer@example.com', '{{row.email}}')));
    const env = await api.flowRuns.environment('local');
    const client = createPartnerClient({ baseUrls: { v3: env.baseUrl }, token: env.token!, userAgent: 'host-test' });
    const stored = async () => (await Promise.all(invoices.map(async (invoiceNumber) => ((await client.call('listTireProtectionRegistrations', {}, undefined, { query: { invoiceNumber } })).body as { results: unknown[] }).results.length))).join(',');

    await api.flowTests.runFile(uri, 'local', { invalidRows: 'cancel' });
    const cancelled = api.flowTests.lastBackfill;
    assert.ok(cancelled?.summary?.notSent, JSON.stringify(cancelled));
    assert.equal(cancelled.summary.invalid, 2);
    assert.equal(await stored(), '0,0,0,0,0,0', 'nothing sent');

    await api.flowTests.runFile(uri, 'local', { invalidRows: 'send' });
    const sent = api.flowTests.lastBackfill;
    assert.ok(sent?.summary && !sent.summary.notSent, JSON.stringify(sent));
    assert.equal(sent.summary.created, 4);
    assert.equal(sent.summary.skipped, 2);
    assert.deepEqual(sent.rowItems.map((l) => /^row (\d+) /.exec(l)?.[1]), ['2', '5'], 'each invalid row listed once');
    assert.match(sent.rowItems[0] ?? '', /column email: email/);
    assert.equal(await stored(), '1,0,1,1,0,1', 'the valid rows stored once, the invalid ones not sent');
  });

  it('a cancelled run leaves a resumable journal; Resume Backfill continues it and no invoice is stored twice', async () => {
    const invoices = Array.from({ length: 160 }, (_, i) => `${prefix}-B${i + 1}`);
    const uri = await writeBackfill('cancel', invoices);
    const journal = defaultJournalPath(uri.fsPath, vscode.Uri.joinPath(uri, '..', 'rows.csv').fsPath);
    const ended = () => {
      try {
        return (readFileSync(journal, 'utf8').match(/"t":"ended"/g) ?? []).length;
      } catch {
        return 0;
      }
    };
    const source = new vscode.CancellationTokenSource();
    const running = api.flowTests.runFile(uri, 'local', { token: source.token });
    await until(() => ended() >= 10 || undefined, 120_000);
    source.cancel();
    await running;
    const first = api.flowTests.lastBackfill;
    assert.ok(first?.summary && first.cancelled, JSON.stringify(first));
    assert.ok(first.summary.created < invoices.length, `cancelled before the end: ${first.counts}`);
    assert.equal(first.summary.created, ended(), 'every row it reported created is ended in the journal');
    // No estimate of the time left from the first rows (connections, first tokens): only once 20 rows are done.
    assert.ok(first.progress.length > 0, 'progress was shown');
    for (const line of first.progress) if (/ s left/.test(line)) assert.ok(Number(/^(\d+)\//.exec(line)?.[1]) > 20, `an estimate after 20 rows only: ${JSON.stringify(first.progress.slice(0, 5))}`);
    await cmd('tpp.resumeBackfill', uri, 'local');
    const second = api.flowTests.lastBackfill;
    assert.ok(second?.summary && !second.cancelled, JSON.stringify(second));
    assert.equal(second.summary.refused + second.summary.unknown + second.summary.failed, 0, second.counts);
    assert.equal(second.summary.done + second.summary.created + second.summary.recovered, invoices.length, second.counts);
    const env = await api.flowRuns.environment('local');
    const client = createPartnerClient({ baseUrls: { v3: env.baseUrl }, token: env.token!, userAgent: 'host-test' });
    const counts = await Promise.all(invoices.map(async (invoiceNumber) => {
      const res = await client.call('listTireProtectionRegistrations', {}, undefined, { query: { invoiceNumber } });
      return (res.body as { results: unknown[] }).results.length;
    }));
    assert.deepEqual(counts.filter((n) => n !== 1), [], 'each invoice stored exactly once');
  });

  it('a # @data file outside the workspace folder is not read: the item says why and nothing is sent (docs/flows.md, What a flow may do)', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'tpp-outside-'));
    try {
      writeFileSync(join(outside, 'rows.csv'), `invoice,name\n${prefix}-OUT1,Outside\n`);
      const uri = await writeBackfill('outside', [`${prefix}-IN1`]);
      const text = FLOW.join('\n').replace('# @data ./rows.csv', `# @data ${relative(dirname(uri.fsPath), join(outside, 'rows.csv'))}`);
      await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
      await api.flowTests.runFile(uri, 'local');
      const r = api.flowTests.lastBackfill;
      assert.equal(r?.summary, undefined, 'no row was taken');
      assert.match(r?.error ?? '', /^Not run: # @data .*rows\.csv is outside the flow's project .*tpp\.flows\.allowRead/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
