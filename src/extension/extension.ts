import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { Container } from './container';
import type { LocalSandbox } from './services/localSandbox';
import type { ResponsePanel } from './response/responsePanel';
import { registerPayloadDiagnostics } from './diagnostics';
import type { DiagnosticsController } from './diagnostics/controller';
import { registerVariableFeatures } from './diagnostics/variableFeatures';
import type { DraftFiles } from './documents/draftFiles';
import type { FlowTestController } from './flows/testController';
import type { FlowIndex } from './services/flowIndex';
import type { FlowRuns } from './services/flowRuns';
import { registerClaimTimeHover } from './jwt/claimTimeHover';
import type { Logger } from './log';
import type { ApiClients } from './services/apiClients';
import type { EnvironmentModel } from './services/environmentModel';
import type { HistoryModel } from './services/historyModel';
import type { KeyStore } from './services/keyStore';
import type { RegistrationsModel } from './services/registrationsModel';
import type { VariablesService } from './services/variables';
import { registerSendCodeLens } from './send/codeLens';
import { trackSetupContext } from './setupContext';
import { openWalkthroughAtFirstStart, WalkthroughProgress } from './walkthrough';
import { publishProgramFiles } from './programFiles';
import { EnvironmentStatusBar } from './statusBar';
import { EnvironmentsProvider } from './tree/environmentsProvider';
import type { IntegrationLog } from './services/integrationLog';
import type { ApplicationWatch } from './services/applicationWatch';
import { registerIntegrationLogView, type IntegrationLogProvider } from './tree/integrationLogProvider';

/** What `activate` returns to any extension: only the activation time (used by the benchmark). */
export interface PublicApi {
  /** Wall time spent inside `activate()`, in milliseconds. */
  readonly activationMs: number;
}

/**
 * The services, returned only when the extension runs under a test runner (`ExtensionMode.Test`):
 * they reach the key store, so handing them to every extension that calls `getExtension().exports`
 * would expose the private keys.
 */
export interface ExtensionApi extends PublicApi {
  readonly environments: EnvironmentModel;
  readonly keys: KeyStore;
  readonly log: Logger;
  /** Payload diagnostics (Problems panel source "tpp"). */
  readonly diagnostics: DiagnosticsController;
  /** Partner API requests per environment. */
  readonly api: ApiClients;
  /** The request history and connection state. */
  readonly history: HistoryModel;
  /** Registration pages, registrations and metadata of the Environments view. */
  readonly registrations: RegistrationsModel;
  /** The Environments view's data provider: tests walk the tree through the extension's own node instances. */
  readonly view: EnvironmentsProvider;
  /** The Local sandbox's process (state, restarts). */
  readonly localSandbox: LocalSandbox;
  /** `{{variables}}`: the setting and the captures per environment. */
  readonly variables: VariablesService;
  /** In-memory payload drafts (File Claim…). */
  readonly drafts: DraftFiles;
  /** The walkthrough's steps as completed from real events. */
  readonly walkthrough: WalkthroughProgress;
  /** The response view (one webview panel). */
  readonly responses: ResponsePanel;
  /** Requests any client sent to the Local sandbox, and the Integration Log view's data provider. */
  readonly integrationLog: IntegrationLog;
  readonly integrationLogView: IntegrationLogProvider;
  /** Watch My Application's proxies. */
  readonly applicationWatch: ApplicationWatch;
  /** Flows: the parsed `.http` files, their runs, and the Test Explorer controller (loaded on first read). */
  readonly flows: FlowIndex;
  readonly flowRuns: FlowRuns;
  readonly flowTests: FlowTestController;
}

type CommandsModule = typeof import('./commands');

/**
 * Registers every command package.json contributes with a stub: the first run of any command loads the handlers
 * (src/extension/commands, which the build makes dist/commands.js: scripts/build.mjs), which then run every command.
 * Activation reads none of them.
 */
function registerCommandStubs(services: Container, extension: vscode.Extension<unknown>): vscode.Disposable[] {
  const contributed = (extension.packageJSON as { contributes?: { commands?: readonly { command?: unknown }[] } }).contributes?.commands ?? [];
  let commands: CommandsModule | undefined;
  return contributed.flatMap(({ command: id }) =>
    typeof id === 'string' ? [vscode.commands.registerCommand(id, (...args: unknown[]) => (commands ??= require('./commands') as CommandsModule).executeCommand(services, id, args))] : [],
  );
}

/**
 * Composition root: the {@link Container} builds and owns the services; here the UI is wired to them (view,
 * status bar, context keys, CodeLens, commands, diagnostics), each disposable pushed to `context.subscriptions`.
 */
export function activate(context: vscode.ExtensionContext): PublicApi | ExtensionApi {
  const started = performance.now();
  const c = new Container(context);
  const view = new EnvironmentsProvider(c);
  const walkthrough = new WalkthroughProgress(context.globalState, c.environments, c.api);
  // A copy of the interface description ships in media/, so problem codes link to their spec section offline.
  const spec = vscode.Uri.joinPath(context.extensionUri, 'media', 'partner-interface.md');
  const payloads = registerPayloadDiagnostics(c.log, existsSync(spec.fsPath) ? spec : undefined);
  const integrationLog = registerIntegrationLogView(c.integrationLog);
  const tree = vscode.window.createTreeView('tpp.environments', { treeDataProvider: view, showCollapseAll: true, canSelectMany: true });

  context.subscriptions.push(
    c,
    registerClaimTimeHover(),
    registerSendCodeLens(c.active),
    view,
    tree,
    new EnvironmentStatusBar(c.environments, c.localSandbox, [tree, integrationLog.view]),
    trackSetupContext(c.environments),
    walkthrough,
    ...registerCommandStubs(c, context.extension),
    ...payloads.disposables,
    payloads.controller.useVariables((uri) => c.variables.names(undefined, uri), c.variables.onDidChange),
    registerVariableFeatures(c.variables),
    ...integrationLog.disposables,
  );

  const activationMs = performance.now() - started;
  c.log.info(`Activated in ${activationMs.toFixed(1)} ms (active environment: ${c.active.get()})`);
  void publishProgramFiles(context.globalState);
  void openWalkthroughAtFirstStart(context.extensionMode, context.globalState).catch((err: unknown) => c.log.error('The walkthrough could not be opened', err));
  if (context.extensionMode !== vscode.ExtensionMode.Test) return { activationMs };
  const { environments, keys, log, api, history, registrations, localSandbox, variables, drafts, responses } = c;
  return { activationMs, environments, keys, log, diagnostics: payloads.controller, api, history, registrations, view, localSandbox, variables, drafts, walkthrough, responses, integrationLog: c.integrationLog, integrationLogView: integrationLog.provider, applicationWatch: c.applicationWatch, get flows() { return c.flows; }, get flowRuns() { return c.flowRuns; }, get flowTests() { return c.flowFeatures.tests; } };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
