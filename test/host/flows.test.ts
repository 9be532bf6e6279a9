// Flows (.http files run as tests, docs/flows-editor.md) in a real extension host against the Local sandbox: the
// Test Explorer's items, a passing and a failing flow run through the Test Explorer (the failure a TestMessage with
// expected, actual and the ?? line), Send to Local with the named request it reads, diagnostics and completion, and
// parity between the Test Explorer and core's runner on one corpus. Spec: Token verification, Tire-protection
// registrations (../shared/spec/partner-interface.md).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseFlow, runFlow } from '../../src/core/flows';
import type { RequestResult } from '../../src/core/flows/types';
import type { ExtensionApi } from '../../src/extension/extension';
import { activateExtension } from '../shared/extension';
import { until } from '../shared/driver';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;

async function writeFlow(name: string, lines: readonly string[]): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(folder(), 'flows', name);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(lines.join('\n') + '\n'));
  return uri;
}

const PASSING = ['### verify the token', '# @name verify', 'GET {{baseUrl}}/verify-token', '', '?? status == 200', '?? body $.partner_id exists', ''];
const FAILING = ['### expects a create status from a read', 'GET {{baseUrl}}/verify-token', '', '?? status == 201', ''];
/** A corpus with passes, failures, a 404 and a request that reads a named one. */
const CORPUS = [
  '@missing = no-such-registration',
  '',
  '### verify',
  '# @name verify',
  'GET {{baseUrl}}/verify-token',
  '',
  '?? status == 200',
  '',
  '### the partner it names',
  'GET {{baseUrl}}/verify-token',
  '',
  '?? body $.partner_id == {{verify.response.body.$.partner_id}}',
  '',
  '### an unknown registration',
  'GET {{baseUrl}}/tire-protection/registrations/{{missing}}',
  '',
  '?? status == 404',
  '',
  '### wrong on purpose',
  'GET {{baseUrl}}/verify-token',
  '',
  '?? status == 500',
  '?? duration < 60000',
  '',
];
const outcomes = (rs: readonly { outcome: string }[]) => rs.map((r) => r.outcome);

describe('flows: .http files in the Test Explorer (Local sandbox)', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let passing: vscode.Uri;
  let failing: vscode.Uri;
  let corpus: vscode.Uri;

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    passing = await writeFlow('passing.http', PASSING);
    failing = await writeFlow('failing.http', FAILING);
    corpus = await writeFlow('corpus.http', CORPUS);
  });

  after(async () => {
    await cmd('workbench.action.closeAllEditors');
  });

  it('lists the workspace .http files, each with its requests ranged at their request lines', async () => {
    const controller = api.flowTests.controller;
    await controller.resolveHandler?.(undefined);
    const file = await until(() => controller.items.get(corpus.toString()));
    assert.ok(file, `the corpus is an item: ${JSON.stringify([...api.flows.uris().map(String)])}`);
    const children: vscode.TestItem[] = [];
    file.children.forEach((c) => void children.push(c));
    children.sort((a, b) => a.range!.start.line - b.range!.start.line);
    assert.deepEqual(children.map((c) => c.label), ['verify', 'the partner it names', 'an unknown registration', 'wrong on purpose'].map((t, i) => api.flows.get(corpus)!.requests[i]!.label));
    assert.deepEqual(children.map((c) => c.range!.start.line + 1), [5, 10, 15, 20], 'ranges start at the request lines (1-based 5, 10, 15, 20)');
  });

  it('runs a passing flow from the Test Explorer: every request passed, with its duration', async () => {
    const results = await cmd<RequestResult[]>('tpp.runFlow', passing, 'local');
    assert.deepEqual(outcomes(results ?? []), ['passed'], JSON.stringify(results?.map((r) => r.message ?? r.assertions)));
    const [report] = api.flowTests.lastRun;
    assert.equal(report?.outcome, 'passed');
    assert.equal(report?.status, 200);
    assert.ok((report?.durationMs ?? -1) >= 0);
  });

  it('runs a failing flow: the failed assertion is a TestMessage with expected 201, actual 200 and the ?? line', async () => {
    const results = await cmd<RequestResult[]>('tpp.runFlow', failing, 'local');
    assert.deepEqual(outcomes(results ?? []), ['failed']);
    const [report] = api.flowTests.lastRun;
    assert.equal(report?.outcome, 'failed');
    assert.equal(report?.messages.length, 1);
    const [message] = report!.messages;
    assert.equal(message?.expected, '201');
    assert.equal(message?.actual, '200');
    assert.equal(message?.line, 4, 'the location is the ?? line');
    assert.match(message?.message ?? '', /status/);
  });

  it('Send to Local sends one request after the named request it reads, and shows its exchange in the response view', async () => {
    const sent = await cmd<{ result: RequestResult; results: RequestResult[] }>('tpp.sendFlowRequest', corpus, 1, 'local');
    assert.ok(sent, 'the command resolved');
    assert.deepEqual(sent.results.map((r) => r.request.index), [0, 1], 'the named request ran first');
    assert.equal(sent.result.outcome, 'passed', JSON.stringify(sent.result.assertions));
    assert.equal(api.responses.shown?.id, sent.result.exchange?.id, 'its exchange is in the response view');
    assert.doesNotMatch(JSON.stringify(sent.result.exchange?.request.headers ?? {}), /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]{20,}/, 'the token is masked');
    const shown = await cmd<{ exchange: { id: string } }>('tpp.showFlowExchange', `${corpus.toString()}#1`);
    assert.equal(shown?.exchange.id, sent.result.exchange?.id, 'Show Flow Exchange opens the same exchange');
  });

  it('parity: the Test Explorer and core runFlow give the same outcome per request of the corpus', async () => {
    const explorer = await cmd<RequestResult[]>('tpp.runFlow', corpus, 'local');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(corpus));
    const core = await runFlow(parseFlow(text, corpus.toString()), { environment: await api.flowRuns.environment('local'), readFile: async () => '' });
    const byIndex = (rs: readonly RequestResult[]) => Object.fromEntries(rs.map((r) => [r.request.index, r.outcome]));
    assert.deepEqual(byIndex(explorer ?? []), { 0: 'passed', 1: 'passed', 2: 'passed', 3: 'failed' });
    assert.deepEqual(byIndex(core), byIndex(explorer ?? []));
    assert.deepEqual(Object.fromEntries(api.flowTests.lastRun.map((r) => [Number(r.id.split('#').pop()), r.outcome])), byIndex(core), 'what the Test Explorer was told');
  });

  it('reports parser problems and unknown names as diagnostics, and completes variables and assertions', async () => {
    const broken = await writeFlow('broken.http', ['GET {{baseUrl}}/verify-token/{{nope}}', '', '?? body $.x == {{ghost.response.body.$.id}}', '']);
    const doc = await vscode.workspace.openTextDocument(broken);
    await vscode.window.showTextDocument(doc);
    const diags = await until(() => {
      const d = vscode.languages.getDiagnostics(broken).filter((x) => x.source === 'tpp');
      return d.length >= 2 ? d : undefined;
    });
    assert.ok(diags, 'diagnostics appear');
    const unknownVar = diags.find((d) => d.code === 'flow-unknown-variable');
    assert.ok(unknownVar && unknownVar.range.start.line === 0 && /nope/.test(unknownVar.message), JSON.stringify(diags));
    assert.ok(diags.some((d) => d.code === 'flow-unknown-request' && d.range.start.line === 2 && d.severity === vscode.DiagnosticSeverity.Error), JSON.stringify(diags));

    const body = await writeFlow('body.http', ['POST {{baseUrl}}/tire-protection/registrations', 'Content-Type: application/json', '', '{', '  "invoiceNumber": "INV-{{$timestamp}}",', '  "tires": "four"', '}', '']);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(body));
    const contract = await until(() => vscode.languages.getDiagnostics(body).find((d) => d.source === 'tpp' && String(d.code).startsWith('contract-')));
    assert.ok(contract, `the inline body is checked against its endpoint's contract: ${JSON.stringify(vscode.languages.getDiagnostics(body))}`);
    assert.equal(contract.range.start.line, 5, 'at the "tires" line');
    assert.match(contract.message, /tires/);

    const variables = await cmd<vscode.CompletionList>('vscode.executeCompletionItemProvider', corpus, new vscode.Position(11, 30), '{');
    const labels = variables.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const want of ['baseUrl', 'partnerId', 'missing', '$guid', 'verify.response.body.$']) assert.ok(labels.includes(want), `${want} in ${labels.join(', ')}`);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(broken, new vscode.Range(0, 0, doc.lineCount, 0), 'GET {{baseUrl}}/verify-token\n\n?? \n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await until(() => api.flows.get(broken)?.requests[0]?.url === '{{baseUrl}}/verify-token'), 'an edit parses the file again');
    const subjects = await cmd<vscode.CompletionList>('vscode.executeCompletionItemProvider', broken, new vscode.Position(2, 3));
    const words = subjects.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.deepEqual(['status', 'header', 'body', 'duration', 'contract'].filter((w) => !words.includes(w)), []);
  });
});
