import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ENVIRONMENTS, isEnvironmentId, type EnvironmentId } from '../../core/environments';
import type { Exchange } from '../../core/exchange/types';
import { recordFlow, RecordRefused, type BaseAddresses, type RecordedFlow, type RecordOptions } from '../../core/record';
import type { Services } from '../container';
import { treeArgOf } from '../commandSupport/treeArgs';
import { defineCommand, UserCancelled } from './registry';

/** Where the requests come from: an environment's Request History, or the Integration Log. */
type Source = 'history' | 'integrationLog';

/** What the command was given: rows (a selection), a source to choose from, and the options of a test or a caller. */
interface SaveArgs {
  readonly rows?: { readonly exchanges: readonly Exchange[]; readonly source: Source; readonly missing: number };
  readonly source?: Source;
  readonly env?: EnvironmentId;
  /** The last `minutes` of the source, without asking. */
  readonly minutes?: number;
  /** Where to write, without the Save dialog. */
  readonly uri?: vscode.Uri;
}

/** What `tpp.saveAsFlow` resolves to. */
export interface SaveAsFlowResult extends Omit<RecordedFlow, 'text'> {
  readonly uri: vscode.Uri;
}

type Fields = Readonly<Record<string, unknown>>;

/** A row as the person sees it: its label in quotes (a registration's invoice number, "Connection"…), else "a row". */
function nameOf(row: unknown): string {
  const node = row as { toTreeItem?: unknown } | undefined;
  const item = typeof node?.toTreeItem === 'function' ? (node.toTreeItem as () => vscode.TreeItem).call(row) : undefined;
  const label = typeof item?.label === 'string' ? item.label : item?.label?.label;
  return label ? `"${label}"` : 'a row';
}

/**
 * The rows of a context-menu run: the selection when it holds the clicked row (canSelectMany), else that row. A row
 * that is no request refuses the whole selection, by its name; a request is taken once, however many of its rows
 * (an Integration Log entry and its diagnosis rows) are selected.
 */
function argsOf(first: unknown, selection: unknown): SaveArgs {
  const o = first && typeof first === 'object' ? (first as Fields) : undefined;
  // Options, unless the argument is a request's row: an Integration Log row is its Exchange, whose `source` field
  // ('sandbox-log', 'editor'…) is not the option.
  const clicked = treeArgOf(first)?.node;
  if (o && clicked !== 'exchange' && clicked !== 'history' && ('minutes' in o || 'source' in o || 'uri' in o)) {
    return {
      ...(o.source === 'history' || o.source === 'integrationLog' ? { source: o.source } : {}),
      ...(isEnvironmentId(o.env) ? { env: o.env } : {}),
      ...(typeof o.minutes === 'number' && o.minutes > 0 ? { minutes: o.minutes } : {}),
      ...(o.uri instanceof vscode.Uri ? { uri: o.uri } : {}),
    };
  }
  const rows = Array.isArray(selection) && selection.includes(first) ? selection : first === undefined ? [] : [first];
  const exchanges: Exchange[] = [];
  let missing = 0;
  let source: Source | undefined;
  let env: EnvironmentId | undefined;
  for (const row of rows) {
    const t = treeArgOf(row);
    if (t?.node === 'history') {
      source = 'history';
      env = t.env;
      if (t.entry.exchange) exchanges.push(t.entry.exchange);
      else missing++;
    } else if (t?.node === 'exchange') {
      source = 'integrationLog';
      if (!exchanges.some((x) => x.id === t.exchange.id)) exchanges.push(t.exchange);
    } else if (t?.node === 'row' && t.env && rows.length === 1) return { source: 'history', env: t.env }; // the Request history folder
    else throw new Error(`Save as Flow takes requests, and ${nameOf(row)} is not one: select rows of a Request history or of the Integration Log only.`);
  }
  return source ? { rows: { exchanges, source, missing }, ...(env ? { env } : {}) } : {};
}

/** The exchanges of a source, newest first (the Integration Log without the editor's own reads). */
function listOf(services: Pick<Services, 'history' | 'integrationLog'>, source: Source, env: EnvironmentId): Exchange[] {
  if (source === 'integrationLog') return services.integrationLog.list('all', false);
  return services.history.list(env).flatMap((e) => (e.exchange ? [e.exchange] : []));
}

/** The path of a URL (the URL itself when it does not parse). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

const since = (list: readonly Exchange[], minutes: number) => list.filter((x) => Date.parse(x.time) >= Date.now() - minutes * 60_000);

/** Asks which of a source's requests: the last 5, 15 or 60 minutes, everything kept, or chosen one by one. */
async function chooseRequests(list: readonly Exchange[], title: string): Promise<Exchange[]> {
  if (list.length === 0) throw new Error(`${title}: there is no request to save yet.`);
  const plural = (n: number) => `${n} request${n === 1 ? '' : 's'}`;
  const windows = [5, 15, 60].map((m) => ({ label: m === 60 ? 'The last hour' : `The last ${m} minutes`, description: plural(since(list, m).length), take: () => since(list, m) }));
  const items = [...windows.filter((w) => w.description !== plural(0)), { label: 'Everything kept', description: plural(list.length), take: () => [...list] }, { label: 'Choose requests…', description: '', take: undefined }];
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Which requests become the flow' });
  if (!picked) throw new UserCancelled();
  if (picked.take) return picked.take();
  const rows = list.map((x) => ({ label: `${x.response?.status ?? 'no answer'} ${x.request.method} ${pathOf(x.request.url)}`, description: new Date(x.time).toLocaleTimeString(), x }));
  const chosen = await vscode.window.showQuickPick(rows, { title, canPickMany: true, placeHolder: 'The requests of the flow, in the order they were sent' });
  if (!chosen?.length) throw new UserCancelled();
  return chosen.map((c) => c.x);
}

/** The environment's Partner ID and addresses, as the flow's `{{partnerId}}` and base variables. */
function environmentValues(services: Pick<Services, 'localSandbox' | 'settings'>, env: EnvironmentId): Pick<RecordOptions, 'partnerId' | 'bases'> {
  if (env === 'local') {
    const a = services.localSandbox.addresses;
    return { partnerId: services.localSandbox.partnerId, bases: a ? [{ v3: a.v3BaseUrl, v2: a.v2BaseUrl, eligibility: a.eligibilityBaseUrl }] : [] };
  }
  const remote = services.settings.remote(env);
  const extras = services.settings.remoteExtras(env);
  const bases: BaseAddresses = { ...(remote?.baseUrl ? { v3: remote.baseUrl } : {}), ...(extras?.v2BaseUrl ? { v2: extras.v2BaseUrl } : {}), ...(extras?.eligibilityBaseUrl ? { eligibility: extras.eligibilityBaseUrl } : {}) };
  return { ...(remote?.partnerId ? { partnerId: remote.partnerId } : {}), bases: [bases] };
}

/** The flow, or after the person's word the flow without the exchanges it cannot send again. Throws when none can be. */
async function record(exchanges: readonly Exchange[], options: RecordOptions): Promise<RecordedFlow> {
  try {
    return recordFlow(exchanges, options);
  } catch (err) {
    if (!(err instanceof RecordRefused) || err.refusals.length === 0 || err.refusals.length === exchanges.length) throw err instanceof RecordRefused ? new Error(err.message) : err;
    const n = err.refusals.length;
    const detail = err.refusals.slice(0, 5).map((r) => `${r.label}: ${r.reason}`).join('\n') + (n > 5 ? `\n… and ${n - 5} more` : '');
    const choice = await vscode.window.showWarningMessage(`${n} of the ${exchanges.length} requests cannot be sent again by a flow.`, { modal: true, detail }, 'Save Without Them');
    if (choice !== 'Save Without Them') throw new UserCancelled();
    return recordFlow(exchanges, { ...options, skipRefused: true });
  }
}

/** Asks where to save (the workspace's flows/ folder when it has one). */
async function target(env: EnvironmentId, source: Source): Promise<vscode.Uri> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  const name = `${env}-${source === 'history' ? 'history' : 'integration-log'}-${stamp}.http`;
  const dir = root && root.scheme === 'file' && existsSync(join(root.fsPath, 'flows')) ? vscode.Uri.joinPath(root, 'flows') : root;
  const uri = await vscode.window.showSaveDialog({ title: 'Save as Flow', ...(dir ? { defaultUri: vscode.Uri.joinPath(dir, name) } : {}), filters: { 'Flow (.http)': ['http'] }, saveLabel: 'Save Flow' });
  if (!uri) throw new UserCancelled();
  return uri;
}

/**
 * `tpp.saveAsFlow` (Save as Flow…; Request History rows and folder, Integration Log rows and title bar, palette):
 * writes the requests a person or their application already sent as a `.http` regression flow (core's `recordFlow`,
 * docs/flows.md "Recording a flow") and opens it, with **Run Flow** on its message. Takes the selected rows, or asks for
 * the last 5, 15 or 60 minutes of a source (or options `{ source, env, minutes, uri }`). Exchanges a flow cannot send
 * again (a 401, a server failure, a fault…) are named, and left out only on the person's word. Resolves to the file
 * and what it holds.
 */
export const saveAsFlow = defineCommand({
  id: 'tpp.saveAsFlow',
  needs: ['active', 'history', 'integrationLog', 'localSandbox', 'settings'],
  args: ([first, selection]) => argsOf(first, selection),
  async run(services, args): Promise<SaveAsFlowResult> {
    const missing = args.rows?.missing ?? 0;
    if (missing) throw new Error(`${missing} of the requests chosen were kept by an earlier version without their request and answer: choose the others.`);
    const source = args.rows?.source ?? args.source ?? (await pickSource(services));
    const env0 = args.env ?? (source === 'history' ? services.active.get() : undefined);
    const title = source === 'history' ? `Save as Flow: Request History of ${ENVIRONMENTS[env0 ?? 'local'].label}` : 'Save as Flow: Integration Log';
    const newest = args.rows?.exchanges ?? (args.minutes ? since(listOf(services, source, env0 ?? 'local'), args.minutes) : await chooseRequests(listOf(services, source, env0 ?? 'local'), title));
    if (newest.length === 0) throw new Error(`${title}: no request in the last ${args.minutes} minutes.`);
    const envs = [...new Set(newest.map((x) => x.env))];
    if (envs.length > 1) throw new Error(`The requests chosen went to several environments (${envs.join(', ')}): save one environment's at a time.`);
    const env = isEnvironmentId(envs[0]) ? envs[0] : (env0 ?? 'local');
    // In the order they were sent: by time, then by id (time-ordered too, for two in one millisecond).
    const exchanges = [...newest].sort((a, b) => a.time.localeCompare(b.time) || a.id.localeCompare(b.id));
    const where = source === 'history' ? `the Request History of ${ENVIRONMENTS[env].label}` : 'the Integration Log';
    const options: RecordOptions = { source: where, recordedBy: 'Save as Flow', env, ...environmentValues(services, env) };
    const checked = await record(exchanges, options);
    const uri = args.uri ?? (await target(env, source));
    const fileName = uri.path.split('/').pop() ?? 'flow.http';
    const flow = recordFlow(exchanges, { ...options, fileName, skipRefused: checked.leftOut.length > 0 });
    await vscode.workspace.fs.writeFile(uri, Buffer.from(flow.text, 'utf8'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    const { text: _text, ...summary } = flow;
    const message = `Saved ${vscode.workspace.asRelativePath(uri)}: ${flow.requests} requests, ${flow.contractChecks} checked with ?? contract, ${flow.references} values read from earlier answers.`;
    void vscode.window.showInformationMessage(message, 'Run Flow').then((c) => c && vscode.commands.executeCommand('tpp.runFlow', uri, env));
    return { ...summary, uri };
  },
});

/** Asks the source when none was given (the palette, the Integration Log's title bar). */
async function pickSource(services: Pick<Services, 'active' | 'history' | 'integrationLog'>): Promise<Source> {
  const env = services.active.get();
  const items: (vscode.QuickPickItem & { source: Source })[] = [
    { label: '$(output) Integration Log', description: `${services.integrationLog.list('all', false).length} requests: your application's, and the editor's sends`, source: 'integrationLog' },
    { label: `$(history) Request History of ${ENVIRONMENTS[env].label}`, description: `${listOf(services, 'history', env).length} requests you sent from the editor`, source: 'history' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Save as Flow', placeHolder: 'Which requests become the flow' });
  if (!picked) throw new UserCancelled();
  return picked.source;
}
