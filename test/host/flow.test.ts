// The main flow on the Local sandbox, through the real commands in a real extension host: key generated ->
// connection verified -> registration sent from an example file -> listed in the tree data -> claim filed ->
// listed under it -> registration cancelled -> Cancelled -> a claim against it gives 409 -> cancelling again 409.
// Spec: Tire-protection registrations, Claims, States and transitions, Errors.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension/extension';
import type { RequestOutcome } from '../../src/extension/send/runRequest';
import { activateExtension } from '../shared/extension';
import { sleep, until } from '../shared/driver';
import { folderRows } from '../shared/tree';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
const XSS = '<img src=x onerror=alert(1)>';

async function writeJson(name: string, value: unknown): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(folder(), name);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(value, null, 2) + '\n'));
  return uri;
}

async function readJson(name: string): Promise<Record<string, unknown>> {
  return JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder(), name))).toString('utf8')) as Record<string, unknown>;
}

describe('main flow on the Local sandbox (commands)', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  const invoice = `INV-FLOW-${Date.now().toString(36).toUpperCase()}`;
  let registrationId = '';
  let claimDoc: vscode.TextDocument;
  let claimFile: vscode.Uri;

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('generates a Local key and verifies the connection (200 with the generated Partner ID)', async () => {
    const key = await cmd<{ env: string; curve: string }>('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    assert.equal(key.curve, 'P-256');
    const verified = await cmd<{ status: number; partnerId?: string }>('tpp.verifyConnection', 'local');
    assert.equal(verified.status, 200, JSON.stringify(verified));
    assert.match(verified.partnerId ?? '', /^local-/);
  });

  it('refuses to send a payload file with error diagnostics, sends nothing, and logs one info line naming the file and its problems (no error, no stack)', async () => {
    const before = api.history.list('local').length;
    const logged: string[] = [];
    const levels = ['info', 'warn', 'error'] as const;
    const originals = levels.map((l) => api.log[l]);
    for (const l of levels) {
      const original = api.log[l].bind(api.log);
      api.log[l] = (message: string, err?: unknown) => {
        logged.push(`${l}: ${message}${err instanceof Error ? ` ${err.stack ?? ''}` : ''}`);
        original(message, err);
      };
    }
    const bad = await writeJson('flow-bad.tire-protection-registration.json', { $schema: 'tpp://schemas/tire-protection-registration.json', invoiceNumber: 42, tires: 'four' });
    const doc = await vscode.workspace.openTextDocument(bad);
    await vscode.window.showTextDocument(doc);
    const errors = await until(() => vscode.languages.getDiagnostics(bad).filter((d) => d.source === 'tpp' && d.severity === vscode.DiagnosticSeverity.Error).length);
    assert.ok(errors > 0, 'the payload checker reports errors');
    const result = await cmd('tpp.sendPayload', bad, 'local');
    levels.forEach((l, i) => (api.log[l] = originals[i]!));
    assert.equal(result, undefined, 'the command stops with a message');
    assert.equal(api.history.list('local').length, before, 'no request was sent');
    assert.equal(logged.length, 1, logged.join('\n'));
    assert.match(logged[0]!, /^info: Not sent: flow-bad\.tire-protection-registration\.json has \d+ errors?/);
    assert.equal(logged[0]!.split('\n').length - 1, errors, 'one line per problem');
    assert.match(logged[0]!, /\n {2}line \d+: /);
    assert.doesNotMatch(logged[0]!, /\bat \w+ \(|PayloadRefused/, 'no stack');
    assert.match(logged[0]!, /Send Anyway/, 'the refusal offers Send Anyway');
  });

  it('Send Anyway (offered on that refusal) sends the file past the checker, so the server\'s own 400 can be seen', async () => {
    const bad = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'flow-bad.tire-protection-registration.json');
    assert.ok(vscode.languages.getDiagnostics(bad).some((d) => d.source === 'tpp' && d.severity === vscode.DiagnosticSeverity.Error), 'the file still has errors');
    const before = api.history.list('local').length;
    const said: string[] = [];
    const { info, error } = api.log;
    api.log.info = (m: string) => (said.push(m), info.call(api.log, m));
    api.log.error = (m: string, e?: unknown) => (said.push(`${m} ${String(e)}`), error.call(api.log, m, e));
    const outcome = await Promise.resolve(cmd<RequestOutcome>('tpp.sendPayload', bad, 'local', { anyway: true })).finally(() => Object.assign(api.log, { info, error }));
    assert.ok(outcome, `sent, not refused (${said.join(' | ')})`);
    assert.equal(outcome.status, 400, outcome.message);
    assert.equal(api.history.list('local').length, before + 1, 'one request sent and in the history');
  });

  it('sends the example registration file and lists it in the tree data as Active with 4 tires available', async () => {
    const example = await readJson('tire-protection-registration.json');
    const uri = await writeJson('flow.tire-protection-registration.json', { ...example, invoiceNumber: invoice, customer: { name: XSS, email: 'flow@example.com' } });
    const outcome = await cmd<RequestOutcome>('tpp.sendPayload', uri, 'local');
    assert.equal(outcome.ok, true, outcome.message);
    assert.ok([200, 201].includes(outcome.status!), String(outcome.status));
    registrationId = String((outcome.body as { id: string }).id);
    assert.ok(registrationId);
    const text = outcome.shown?.report?.text ?? '';
    assert.match(text, new RegExp(`${outcome.status} (Created|OK)`), 'the response view rendered the status');
    assert.match(text, /Duration\s*\d+ ms/);
    assert.match(text, /Attempts\s*1/);

    await cmd('tpp.filterRegistrations', 'local', { invoiceNumber: invoice });
    const pages = await api.registrations.pages('local', 'tire-protection');
    const row = pages[0]!.rows.find((r) => r.record._id === registrationId);
    assert.ok(row, JSON.stringify(pages[0]!.rows.map((r) => r.record.invoiceNumber)));
    assert.equal(row.state, 'Not cancelled', 'all the list says by itself');
    await api.registrations.registrationDetails('local', registrationId); // what expanding the row reads
    assert.equal(api.registrations.stateOf('local', row).state, 'Active');
    assert.equal(api.registrations.stateOf('local', row).metadata?.availableTiresCount, 4);
  });

  it('opens the registration as a read-only JSON record that shows a hostile customer name as plain characters', async () => {
    const uri = await cmd<string>('tpp.openRecord', { kind: 'registration', env: 'local', id: registrationId });
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    assert.equal(doc.uri.scheme, 'tpp-record');
    assert.equal(doc.languageId, 'json');
    const parsed = JSON.parse(doc.getText()) as { registration: { customer: { name: string } }; metadata: { isActive: boolean } };
    assert.equal(parsed.registration.customer.name, XSS);
    assert.equal(parsed.metadata.isActive, true);
  });

  it('files a claim from the prefilled payload and lists it under the registration', async () => {
    const untitledBefore = vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    claimDoc = await cmd<vscode.TextDocument>('tpp.fileClaim', { kind: 'registration', env: 'local', id: registrationId });
    const payload = JSON.parse(claimDoc.getText()) as { $registrationId: string; tires: unknown[] };
    assert.equal(claimDoc.uri.scheme, 'tpp-draft', 'a draft in memory, not an untitled document');
    assert.match(claimDoc.uri.path, new RegExp(`^/\\d+/Claim on ${invoice}\\.json$`), 'titled by invoice number');
    assert.equal(payload.$registrationId, registrationId);
    assert.equal(payload.tires.length, 1, 'prefilled with one of the registration’s tires, sent as it is');
    claimFile = await writeJson('flow-claim.tire-protection-claim.json', JSON.parse(claimDoc.getText()));
    const outcome = await cmd<RequestOutcome>('tpp.sendPayload', claimDoc.uri, 'local');
    assert.equal(outcome.ok, true, outcome.message);
    assert.equal(typeof (outcome.body as { id: unknown }).id, 'number');
    // The draft stays open once the claim is stored, to be edited and sent again; closing its tab drops it.
    const draftTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === claimDoc.uri.toString());
    await sleep(500);
    assert.equal(draftTabs().length, 1, 'its tab is still open');
    assert.equal(api.drafts.size, 1, 'the draft is kept');
    assert.ok(!claimDoc.isClosed && !claimDoc.isDirty, 'open, and nothing to save');
    await vscode.window.tabGroups.close(draftTabs());
    assert.ok(await until(() => api.drafts.size === 0), 'dropped once its tab is closed');
    assert.deepEqual(vscode.workspace.textDocuments.filter((d) => !d.isClosed && d.isDirty).map((d) => d.uri.toString()), [], 'nothing left dirty');
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.isUntitled).length, untitledBefore, 'File Claim opened no untitled document');
    const reg = await api.registrations.registration('local', registrationId);
    assert.equal((reg.claims as unknown[]).length, 1);
    const row = (await api.registrations.pages('local', 'tire-protection'))[0]!.rows.find((r) => r.record._id === registrationId)!;
    assert.equal(api.registrations.stateOf('local', row).metadata?.availableTiresCount, 3);
  });

  it('cancels the registration (204) and the tree shows it Cancelled', async () => {
    const outcome = await cmd<RequestOutcome>('tpp.cancelRegistration', { kind: 'registration', env: 'local', id: registrationId }, { cancelledOn: new Date().toISOString() });
    assert.equal(outcome.ok, true, outcome.message);
    assert.equal(outcome.status, 204);
    const row = (await api.registrations.pages('local', 'tire-protection'))[0]!.rows.find((r) => r.record._id === registrationId)!;
    await api.registrations.registrationDetails('local', registrationId); // read again after the write
    assert.equal(api.registrations.stateOf('local', row).state, 'Cancelled');
  });

  it('a claim against the cancelled registration gives 409, shown as a clear message and in the response view', async () => {
    const outcome = await cmd<RequestOutcome>('tpp.sendPayload', claimFile, 'local');
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, 409);
    assert.match(outcome.message, /409 Conflict — .*cancelled/i);
    assert.match(outcome.shown?.report?.text ?? '', /409 Conflict[\s\S]*State conflict/);
  });

  it('cancelling again gives 409', async () => {
    const outcome = await cmd<RequestOutcome>('tpp.cancelRegistration', { kind: 'registration', env: 'local', id: registrationId }, { cancelledOn: new Date().toISOString() });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, 409);
    assert.match(outcome.message, /already cancelled/);
  });

  it('records every request with method, path, status, duration and attempts, and can send one again', async () => {
    const history = api.history.list('local');
    const statuses = history.map((e) => `${e.method} ${e.status}`);
    assert.ok(statuses.includes('PATCH 204'), statuses.join(', '));
    assert.ok(statuses.filter((s) => s === 'PATCH 409').length >= 1, statuses.join(', '));
    assert.ok(statuses.includes('POST 409'), statuses.join(', '));
    for (const e of history) {
      assert.ok(e.durationMs >= 0 && e.attempts >= 1, JSON.stringify(e));
      assert.ok(!/eyJ[\w-]{10,}\.[\w-]{10,}\./.test(JSON.stringify(e)), 'no token in the history');
    }
    const cancel = history.find((e) => e.method === 'PATCH' && e.status === 204)!;
    // Resend of a PATCH asks first (its method, URL and body): answered here without the modal.
    const again = await cmd<RequestOutcome>('tpp.resendRequest', cancel.id, { confirm: () => true });
    assert.equal(again.status, 409, 'the re-sent cancellation is refused: already cancelled');
  });

  it('sends a version 2 array file to the v2 endpoint in one request (token audience: the v2 host)', async () => {
    const before = api.history.list('local').length;
    const outcome = await cmd<RequestOutcome>('tpp.sendPayload', vscode.Uri.joinPath(folder(), 'v2-registrations.json'), 'local');
    assert.equal(outcome.ok, true, outcome.message);
    const sent = api.history.list('local').slice(0, api.history.list('local').length - before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.method, 'POST');
    assert.match(sent[0]!.path, /^\/v2\/partners\/local$/);
  });

  it('pages registrations by tpp.registrations.pageSize with a "Load more…" row', async () => {
    await vscode.workspace.getConfiguration('tpp.registrations').update('pageSize', 1, vscode.ConfigurationTarget.Global);
    try {
      await cmd('tpp.clearRegistrationFilter', 'local');
      const first = (await folderRows(api, 'local', 'tire-protection')).map((n) => n.toTreeItem());
      assert.equal(first.length, 2, JSON.stringify(first.map((i) => i.label)));
      assert.equal(first[1]!.label, 'Load more…');
      assert.match(String(first[1]!.description), /^1 of \d+ shown$/);
      assert.equal(first[1]!.command?.command, 'tpp.loadMoreRegistrations');
      assert.equal(await cmd('tpp.loadMoreRegistrations', 'local', 'tire-protection'), 1);
      const second = (await folderRows(api, 'local', 'tire-protection')).map((n) => n.toTreeItem());
      assert.equal(second.filter((i) => i.contextValue?.startsWith('registration.')).length, 2);
      assert.notEqual(second[0]!.id, second[1]!.id);
    } finally {
      await vscode.workspace.getConfiguration('tpp.registrations').update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Copy as Code on a registration row copies a program for its read, with no token in it (the program mints its own)', async () => {
    const r = await cmd<{ title: string }>('tpp.copyAsCode', { kind: 'registration', env: 'local', id: registrationId }, 'curl');
    assert.equal(r.title, 'GET /tire-protection/registrations/:id (getTireProtectionRegistration)');
    const clip = await vscode.env.clipboard.readText();
    assert.ok(clip.includes(`"$TPP_BASE_URL"/tire-protection/registrations/${registrationId}`), clip);
    assert.doesNotMatch(clip, /Bearer eyJ/);
    await vscode.env.clipboard.writeText('');
  });
});

describe('tree errors: a node with the reason and Retry, never an empty list', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let server: http.Server;
  let status = 503;
  let requests = 0;
  const config = (s: string) => vscode.workspace.getConfiguration(s);

  before(async () => {
    api = await activateExtension();
    server = http.createServer((_req, res) => {
      requests += 1;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'unavailable', statusCode: status }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    await cmd('tpp.generateKeyPair', 'sandbox', { curve: 'P-256', existing: 'replace' });
    await config('tpp.sandbox').update('partnerId', 'P-FLOW-UNKNOWN', vscode.ConfigurationTarget.Global);
    await config('tpp.retry').update('maxAttempts', 2, vscode.ConfigurationTarget.Global);
    await config('tpp.retry').update('maxTotalMs', 2000, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    server.close();
    for (const k of ['baseUrl', 'partnerId']) await config('tpp.sandbox').update(k, undefined, vscode.ConfigurationTarget.Global);
    for (const k of ['maxAttempts', 'maxTotalMs']) await config('tpp.retry').update(k, undefined, vscode.ConfigurationTarget.Global);
    await api.environments.keys.delete('sandbox');
  });

  async function folderChildren(): Promise<vscode.TreeItem[]> {
    api.registrations.invalidate('sandbox');
    const nodes = await folderRows(api, 'sandbox', 'tire-protection');
    return nodes.map((n) => n.toTreeItem());
  }

  async function useBase(url: string): Promise<void> {
    await config('tpp.sandbox').update('baseUrl', url, vscode.ConfigurationTarget.Global);
  }

  it('5xx: "503 Service Unavailable … (after 2 attempts)" with Retry', async () => {
    await useBase(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`);
    const [item, ...rest] = await folderChildren();
    assert.equal(rest.length, 0);
    assert.match(String(item!.label), /^503 Service Unavailable: Sandbox failed \(after 2 attempts\)/);
    assert.equal(item!.command?.command, 'tpp.refreshRegistrations');
    assert.equal(item!.contextValue, 'error');
    // A redraw shows the kept error without sending the failing request again.
    const before = requests;
    const again = await folderRows(api, 'sandbox', 'tire-protection');
    assert.match(String(again[0]!.toTreeItem().label), /^503/);
    assert.equal(requests, before);
  });

  it('401: the token is rejected (the Local sandbox does not know this Partner ID)', async () => {
    const local = await api.api.target('local');
    await useBase(local.baseUrls.v3!);
    const [item] = await folderChildren();
    assert.match(String(item!.label), /^401 Unauthorized: Sandbox rejected the token/);
  });

  it('unreachable: the address and the error code', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await useBase(`http://127.0.0.1:${port}/api/v3`);
    const [item] = await folderChildren();
    assert.match(String(item!.label), new RegExp(`^Sandbox is unreachable at http://127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
  });

  it('Retry (tpp.refreshRegistrations) reads again and shows the rows once the server answers', async () => {
    status = 200;
    server.removeAllListeners('request');
    server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{ _id: 'r1', invoiceNumber: 'INV-R1', enrollDate: '2026-01-01' }], totalRecordCount: 1, page: 1, pageSize: 50, totalPages: 1 }));
    });
    await useBase(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`);
    await cmd('tpp.refreshRegistrations', 'sandbox', 'tire-protection');
    const items = await folderChildren();
    assert.equal(String(items[0]!.label), 'INV-R1');
  });

  it("the view's Refresh (tpp.refreshEnvironments) reads the registrations again from the server", async () => {
    const rows = async () => (await folderRows(api, 'sandbox', 'tire-protection')).map((n) => String(n.toTreeItem().label));
    assert.deepEqual(await rows(), ['INV-R1']);
    server.removeAllListeners('request');
    server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{ _id: 'r2', invoiceNumber: 'INV-R2', enrollDate: '2026-01-02' }], totalRecordCount: 1, page: 1, pageSize: 50, totalPages: 1 }));
    });
    assert.deepEqual(await rows(), ['INV-R1'], 'a redraw alone reuses the cached page');
    await cmd('tpp.refreshEnvironments');
    assert.deepEqual(await rows(), ['INV-R2']);
  });
});

describe('shops, parts, transactions, motor club and the eligibility lookup on the Local sandbox (commands)', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  const tag = Date.now().toString(36).toUpperCase();
  const phone = `+1 555 ${String(Date.now() % 10_000_000).padStart(7, '0')}`;

  async function setDoc(doc: vscode.TextDocument, value: unknown): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), JSON.stringify(value, null, 2) + '\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
  }

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
  });

  it('Create Shop, Update Shop and Add Part open prefilled payloads that send with 204; Look Up Shop finds the shop by phone', async () => {
    const shop = await cmd<vscode.TextDocument>('tpp.createShop');
    const body = JSON.parse(shop.getText()) as Record<string, unknown>;
    assert.equal(body.$schema, 'tpp://schemas/shop.json');
    await setDoc(shop, { ...body, uniqueId: `SHOP-${tag}`, phone });
    const created = await cmd<RequestOutcome>('tpp.sendPayload', shop.uri, 'local');
    assert.equal(created.status, 204, created.message);
    const again = await cmd<RequestOutcome>('tpp.sendPayload', shop.uri, 'local');
    assert.equal(again.status, 409, 'a shop with an existing uniqueId is a conflict');

    const update = await cmd<vscode.TextDocument>('tpp.updateShop', undefined, `SHOP-${tag}`);
    assert.equal((JSON.parse(update.getText()) as { $uniqueId: string }).$uniqueId, `SHOP-${tag}`);
    assert.equal((await cmd<RequestOutcome>('tpp.sendPayload', update.uri, 'local')).status, 204);
    const part = await cmd<vscode.TextDocument>('tpp.addPart', undefined, `SHOP-${tag}`);
    assert.equal((await cmd<RequestOutcome>('tpp.sendPayload', part.uri, 'local')).status, 204);
    const sent = api.history.list('local').slice(0, 2).map((e) => `${e.method} ${e.path}`);
    assert.deepEqual(sent, [`POST /api/v3/tire-protection/shops/SHOP-${tag}/parts`, `PATCH /api/v3/tire-protection/shops/SHOP-${tag}`]);

    const found = await cmd<RequestOutcome>('tpp.lookUpShop', 'local', phone);
    assert.equal(found.status, 200, found.message);
    assert.equal((found.body as { phone: string }).phone, phone);
    const none = await cmd<RequestOutcome>('tpp.lookUpShop', 'local', '+1 000 000 0000');
    assert.equal(none.status, 404);
  });

  it('Record Transaction sends the transaction payload (204)', async () => {
    const doc = await cmd<vscode.TextDocument>('tpp.recordTransaction');
    assert.equal((await cmd<RequestOutcome>('tpp.sendPayload', doc.uri, 'local')).status, 204);
  });

  it('motor club: create from the example, update its customer, cancel it (204), cancel again (409)', async () => {
    const example = await readJson('motor-club-registration.json');
    const uri = await writeJson(`mc-${tag}.motor-club-registration.json`, { ...example, invoiceNumber: `MC-${tag}` });
    const created = await cmd<RequestOutcome>('tpp.sendPayload', uri, 'local');
    assert.equal(created.ok, true, created.message);
    const id = String((created.body as { id: string }).id);
    const doc = await cmd<vscode.TextDocument>('tpp.updateMotorClubCustomer', { kind: 'motorClub', env: 'local', id });
    const payload = JSON.parse(doc.getText()) as { $registrationId: string; customer: Record<string, unknown> };
    assert.equal(payload.$registrationId, id);
    await setDoc(doc, { ...payload, customer: { ...payload.customer, name: 'Renamed Customer' } });
    assert.equal((await cmd<RequestOutcome>('tpp.sendPayload', doc.uri, 'local')).status, 204);
    const read = await api.api.send('local', 'getMotorClubRegistration', { id }, undefined);
    assert.equal((read.response.body as { customer: { name: string } }).customer.name, 'Renamed Customer');
    const cancelled = await cmd<RequestOutcome>('tpp.cancelMotorClubRegistration', { kind: 'motorClub', env: 'local', id }, { cancelledOn: new Date().toISOString() });
    assert.equal(cancelled.status, 204, cancelled.message);
    const twice = await cmd<RequestOutcome>('tpp.cancelMotorClubRegistration', { kind: 'motorClub', env: 'local', id }, { cancelledOn: new Date().toISOString() });
    assert.equal(twice.status, 409);
    // Spec: States and transitions — a cancelled registration reads back with cancelledOn and is Cancelled. Lists are
    // oldest first, so the new row may sit on a later page: load pages until it is found, then it must be Cancelled.
    const find = async () => (await api.registrations.pages('local', 'motor-club')).flatMap((p) => p.rows).find((r) => r.record._id === id);
    let row = await find();
    while (!row && (await api.registrations.loadMore('local', 'motor-club')) > 0) row = await find();
    assert.ok(row, `motor-club registration ${id} is listed`);
    assert.equal(typeof row.record.cancelledOn, 'string');
    assert.equal(row.state, 'Cancelled');
  });

  it('Check Vehicle Eligibility needs the dedicated token, then answers isEligible', async () => {
    await api.environments.keys.setEligibilityToken('local', '');
    const refused = await cmd('tpp.checkEligibility', 'local', { vin: '1HGCM82633A004352' });
    assert.equal(refused, undefined, 'refused before sending: no eligibility token');
    await api.environments.keys.setEligibilityToken('local', `ELIG-${tag}`);
    const answer = await until(async () => {
      const r = await cmd<RequestOutcome>('tpp.checkEligibility', 'local', { vin: '1HGCM82633A004352' });
      return r?.status === 200 ? r : undefined;
    }, 5000);
    assert.ok(answer, 'the Local sandbox accepts the token once registered');
    assert.equal(typeof (answer.body as { isEligible: unknown }).isEligible, 'boolean');
    const byPlate = await cmd<RequestOutcome>('tpp.checkEligibility', 'local', { licensePlate: 'ABC123', state: 'tx' });
    assert.equal(byPlate.status, 200);
    assert.match(api.history.list('local')[0]!.path, /^\/api\/v1\/vehicle-lookup\/local\/rsa\/eligible\?licensePlate=ABC123&state=TX$/);
    await api.environments.keys.setEligibilityToken('local', '');
  });
});
