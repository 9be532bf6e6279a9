import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { runFlow } from '../../core/flows';
import { describeCarried, type Carried, type HostPolicy } from '../../core/flows/carried';
import { cachedReader, FlowFileAccessError, readBytesInScope, readScopeOf, resolveInScope, type ReadScope } from '../../core/flows/projectFiles';
import type { FlowEnvironment, FlowFile, FlowPrompt, FlowRequest, FlowRunListener, RequestResult } from '../../core/flows/types';
import type { SentReport, ToolkitClient } from '../../core/client/clientFor';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import { isDataChanging, type ApiClients, type DataChange } from './apiClients';
import type { IntegrationLog } from './integrationLog';
import type { JwtService } from './jwtService';
import type { VariablesService } from './variables';
import { refusedBeforeRun } from './flowCheck';
import { openDocument } from './flowIndex';

/** One run of a flow file: which requests, where, and who hears about each request. */
export interface FlowRunSpec {
  readonly flow: FlowFile;
  readonly env: EnvironmentId;
  /** 0-based request indexes to run (the named requests they read run first); all when absent. */
  readonly only?: readonly number[];
  readonly signal?: AbortSignal;
  readonly listener?: FlowRunListener;
}

/** Runs flow files in the Test Explorer and resolves to every request's result; rejects with UserCancelled when stopped by the guard. */
export type ExplorerRunner = (uri: vscode.Uri, env: EnvironmentId, options?: ExplorerRunOptions) => Promise<readonly RequestResult[]>;

/** What to do when rows of a data-driven flow are invalid: send the valid ones, show the invalid ones, or send nothing. */
export type InvalidRowsChoice = 'send' | 'show' | 'cancel';

/**
 * A data-driven flow's run (docs/backfills.md): `resume` continues its journal; `invalidRows` and `retryUnknown` answer
 * in advance what the run would ask (`--skip-invalid`, `--retry-unknown`: tests, other commands).
 */
export interface ExplorerRunOptions {
  readonly resume?: boolean;
  readonly invalidRows?: InvalidRowsChoice;
  /** Resend writes whose outcome is unknown (the user checked they were not stored). */
  readonly retryUnknown?: boolean;
}

/** The key of a request's last result: its file (URI string) and 0-based index. */
export const requestKey = (file: string, index: number) => `${file}#${index}`;

/**
 * Runs flows (docs/flows-editor.md) through core's one executor, `runFlow`, with the editor's client of the
 * environment ({@link ApiClients.clientFor}: history, data events, the user's retry and timeout settings), the files of
 * the flow's workspace folder, the hosts the user allowed, and the `tpp.variables` of that environment; keeps the last
 * result of each request (its exchange for the response view). The Test Explorer attaches itself
 * ({@link attachExplorer}) so a command can run a file there. Owned by the Container, made on first use.
 */
export class FlowRuns implements vscode.Disposable {
  private readonly results = new Map<string, RequestResult>();
  private explorer: ExplorerRunner | undefined;
  /** Hosts outside the environments the user let flows send their values to, in this session (hostPolicy). */
  private readonly allowedHosts = new Set<string>();

  constructor(
    private readonly api: ApiClients,
    private readonly jwt: JwtService,
    private readonly variables: VariablesService,
    private readonly integrationLog: IntegrationLog,
  ) {}

  /**
   * What a backfill's rows tell the editor (docs/sending.md): rows stay out of Request History (it keeps 200 requests;
   * a backfill sends thousands); on the administrator's environments a failed row's exchange is added to the
   * Integration Log (the Local sandbox logs every request itself); the writes that succeeded redraw the trees once,
   * when the run ends (`end`), one data event per endpoint written.
   */
  backfillReports(env: EnvironmentId): { onExchange: (sent: SentReport) => void; end: () => void } {
    const written = new Map<EndpointId, DataChange>();
    return {
      onExchange: (r) => {
        if (!r.ok && ENVIRONMENTS[env].remote) this.integrationLog.add([r.exchange]);
        if (r.ok && r.call && isDataChanging(r.call.endpointId)) written.set(r.call.endpointId, { env, endpointId: r.call.endpointId });
      },
      end: () => {
        for (const change of written.values()) this.api.announce(change);
        written.clear();
      },
    };
  }

  /**
   * Where `path` (a flow's `# @data` file) is on disk, links resolved, when the flow `uri` may read it: inside its
   * workspace folder or `tpp.flows.allowRead` (core's projectFiles.ts).
   * @throws FlowFileAccessError naming the path and why.
   */
  async dataPathOf(uri: vscode.Uri, path: string): Promise<string> {
    if (uri.scheme !== 'file') throw new FlowFileAccessError(`${path} is not on this machine's disk: a backfill streams its data file from a folder on disk`);
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri;
    const flowDir = dirname(uri.fsPath);
    return resolveInScope(path, flowDir, await readScopeOf(folder?.scheme === 'file' ? folder.fsPath : flowDir, allowedReadDirs()));
  }

  /**
   * Where a flow runs on `env` and the client it sends with: ApiClients' client (core's client/clientFor.ts), so a
   * flow's request is a Send — in the Request History, firing the data events the trees redraw on, with the user's
   * retry and timeout settings — and its environment (addresses, Partner ID, a new JWT for every attempt, never
   * stored; for version 2 with the v2 host as `aud`; the provider's eligibility token when set).
   * @throws NotReadyError when the environment has no address, Partner ID or key.
   */
  async sending(env: EnvironmentId): Promise<{ environment: FlowEnvironment; client: ToolkitClient }> {
    await this.jwt.target(env);
    await this.jwt.record(env);
    const client = await this.api.clientFor(env);
    return { environment: { ...client.environment, id: env }, client };
  }

  /** The environment of {@link sending} alone (a backfill makes its own client with the run's gate). */
  async environment(env: EnvironmentId): Promise<FlowEnvironment> {
    return (await this.sending(env)).environment;
  }

  /** `tpp.variables` of `env` for `resource`'s folder, as the strings a flow substitutes (objects as JSON). */
  variablesOf(env: EnvironmentId, resource?: vscode.Uri): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.variables.environment(env, resource))) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
    return out;
  }

  /**
   * Runs `spec.flow` on `spec.env`. First the whole flow is checked as `tpp run` checks it (flowCheck.ts): a flow it
   * refuses sends nothing, each request errored with why. A request's `< file` body is read relative to the flow file,
   * from its open document when there is one. Resolves to every request's result, in the order they ran; never throws
   * for an answer (a failed assertion is a `failed` result).
   * @throws NotReadyError when the environment cannot sign or has no address.
   */
  async run(spec: FlowRunSpec): Promise<RequestResult[]> {
    const { environment, client } = await this.sending(spec.env);
    const uri = vscode.Uri.parse(spec.flow.file);
    const onRequestEnd = (result: RequestResult) => {
      this.results.set(requestKey(result.file, result.request.index), result);
      spec.listener?.onRequestEnd?.(result);
    };
    // One reader for the check before sending and the run: each body file is read once.
    const run = { environment, readFile: cachedReader(this.readerFor(uri)), hosts: this.hostPolicy(spec.env), variables: this.variablesOf(spec.env, uri), processEnv: process.env, ...(spec.only ? { only: spec.only } : {}) };
    const refused = await refusedBeforeRun(spec.flow, run);
    if (refused) {
      refused.forEach(onRequestEnd);
      return refused;
    }
    return runFlow(spec.flow, {
      ...run,
      client,
      readBytes: this.bytesReaderFor(uri),
      prompt: askPrompt,
      ...(spec.signal ? { signal: spec.signal } : {}),
      listener: { onRequestStart: (file, request) => spec.listener?.onRequestStart?.(file, request), onRequestEnd },
    });
  }

  /**
   * The reader of the files the flow `uri` names (`< file`, `<@ file`, `# @data`), relative to it and confined to its
   * workspace folder and the machine setting `tpp.flows.allowRead` (core's projectFiles.ts, docs/flows.md: What a flow
   * may do). A file open in an editor is read as shown there, once its path passed.
   */
  readerFor(uri: vscode.Uri): (path: string) => Promise<string> {
    const find = this.filesOf(uri);
    return async (path) => {
      const f = await find(path);
      return 'text' in f ? f.text : new TextDecoder('utf-8').decode(await f.bytes());
    };
  }

  /**
   * The reader of the bytes of the files the flow `uri` names (a `< ./photo.png` part of a multipart body), within the
   * same folders as {@link readerFor}; a file open in an editor is read as shown there.
   */
  bytesReaderFor(uri: vscode.Uri): (path: string) => Promise<Uint8Array> {
    const find = this.filesOf(uri);
    return async (path) => {
      const f = await find(path);
      return 'text' in f ? new TextEncoder().encode(f.text) : f.bytes();
    };
  }

  /**
   * Where a file the flow `uri` names is, once judged (see {@link readerFor}): the text of its open document, or a way
   * to read its bytes from disk (a `file:` workspace, links resolved) or from the workspace's file system.
   * @throws FlowFileAccessError naming the path and why.
   */
  filesOf(uri: vscode.Uri): (path: string) => Promise<{ text: string } | { bytes: () => Promise<Uint8Array> }> {
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri;
    if (uri.scheme !== 'file') {
      return async (path) => {
        const target = relativeTo(uri, path);
        const root = (folder ?? vscode.Uri.joinPath(uri, '..')).path.replace(/\/+$/, '');
        if (target.scheme !== uri.scheme || target.authority !== uri.authority || !(target.path === root || target.path.startsWith(`${root}/`))) {
          throw new FlowFileAccessError(`${path} is outside the flow's folder ${root}: a flow reads only files of its workspace folder (docs/flows.md, What a flow may do)`);
        }
        const doc = openDocument(target);
        return doc ? { text: doc.getText() } : { bytes: () => Promise.resolve(vscode.workspace.fs.readFile(target)) };
      };
    }
    const flowDir = dirname(uri.fsPath);
    let scope: Promise<ReadScope> | undefined;
    return async (path) => {
      scope ??= readScopeOf(folder?.scheme === 'file' ? folder.fsPath : flowDir, allowedReadDirs());
      const real = await resolveInScope(path, flowDir, await scope);
      const doc = openDocument(relativeTo(uri, path)) ?? openDocument(vscode.Uri.file(real));
      return doc ? { text: doc.getText() } : { bytes: async () => readBytesInScope(real, flowDir, await (scope as Promise<ReadScope>)) };
    };
  }

  /**
   * Hosts outside `env` that a flow may send the user's values to (core's carried.ts): those allowed in this session,
   * else a modal question naming the host and what would go there. One question per host and run at a time; a "no"
   * holds for the rest of the run.
   */
  hostPolicy(env: EnvironmentId): HostPolicy {
    const asked = new Map<string, Promise<boolean>>();
    const ask = async (host: string, carried: readonly Carried[]): Promise<boolean> => {
      const allow = 'Allow for This Session';
      const pick = await vscode.window.showWarningMessage(
        `A flow would send ${carried.map(describeCarried).join(', ')} to ${host}, which is not an address of ${ENVIRONMENTS[env].label}.`,
        { modal: true, detail: `Values from your side go only to the environment's addresses unless you allow another host (docs/flows.md, What a flow may do). Allow ${host} only if you trust it with them.` },
        allow,
      );
      if (pick === allow) this.allowedHosts.add(host);
      return pick === allow;
    };
    return {
      allowed: [...this.allowedHosts],
      howToAllow: (host) => `run the flow again and choose Allow for This Session when asked about ${host}`,
      confirm: (host, carried) => {
        if (this.allowedHosts.has(host)) return Promise.resolve(true);
        let answer = asked.get(host);
        if (!answer) asked.set(host, (answer = ask(host, carried)));
        return answer;
      },
    };
  }

  /** The last result of request `index` (0-based) of `file` (URI string) in this session. */
  result(file: string, index: number): RequestResult | undefined {
    return this.results.get(requestKey(file, index));
  }

  /** Lets {@link runInExplorer} run files in the Test Explorer (one at a time; the last attached wins). */
  attachExplorer(runner: ExplorerRunner): vscode.Disposable {
    this.explorer = runner;
    return new vscode.Disposable(() => {
      if (this.explorer === runner) this.explorer = undefined;
    });
  }

  /** Runs the flow file `uri` on `env` as a Test Explorer run (its results show there). */
  runInExplorer(uri: vscode.Uri, env: EnvironmentId, options: ExplorerRunOptions = {}): Promise<readonly RequestResult[]> {
    if (!this.explorer) throw new Error(`Flows cannot run on ${ENVIRONMENTS[env].label} yet: the Test Explorer's flow controller is not registered.`);
    return this.explorer(uri, env, options);
  }

  dispose(): void {
    this.results.clear();
  }
}

/** REST Client's names of a password prompt: their input box hides what is typed. */
const PASSWORD_PROMPTS = new Set(['password', 'passwd', 'pass']);

/**
 * Asks for the value of a `# @prompt name [description]` line when its request runs (docs/flows.md, Format), as REST
 * Client asks: an input box naming the variable, its description as placeholder, hidden for a password; the
 * `tpp.variables` value of the name, if any, filled in. Escape cancels the request (nothing is sent).
 */
function askPrompt(request: FlowRequest, p: FlowPrompt, initial: string | undefined): Promise<string | undefined> {
  return Promise.resolve(
    vscode.window.showInputBox({
      title: `${request.label}: # @prompt ${p.name}`,
      prompt: `Input value for "${p.name}"`,
      ...(p.description ? { placeHolder: p.description } : {}),
      ...(initial !== undefined ? { value: initial } : {}),
      password: PASSWORD_PROMPTS.has(p.name.toLowerCase()),
      ignoreFocusOut: true,
    }),
  );
}

/** `path` (as written after `<` in a flow) relative to the flow file `flow`, unless it is absolute. */
export function relativeTo(flow: vscode.Uri, path: string): vscode.Uri {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(path)) return vscode.Uri.parse(path);
  if (path.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(path)) return vscode.Uri.file(path);
  return vscode.Uri.joinPath(flow, '..', path.replace(/\\/g, '/'));
}

/**
 * The folders the user allowed flows to read besides their workspace folder: the machine-scoped `tpp.flows.allowRead`
 * as set in the user's own settings (a workspace's settings cannot widen what its flows read).
 */
export function allowedReadDirs(): string[] {
  const value = vscode.workspace.getConfiguration('tpp').inspect<unknown>('flows.allowRead')?.globalValue;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}
