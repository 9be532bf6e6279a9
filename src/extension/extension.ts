import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { COMMANDS } from './commands';
import { registerCommands } from './commands/registry';
import { registerPayloadDiagnostics } from './diagnostics';
import type { DiagnosticsController } from './diagnostics/controller';
import { Logger } from './log';
import { ActiveEnvironment } from './services/activeEnvironment';
import { EnvironmentModel } from './services/environmentModel';
import { EnvironmentSettings } from './services/environmentSettings';
import { KeyStore } from './services/keyStore';
import { LocalSandbox } from './services/localSandbox';
import { registerClaimTimeHover } from './jwt/claimTimeHover';
import { JwtService } from './jwt/jwtService';
import { JwtPreviewProvider } from './jwt/previewProvider';
import { trackSetupContext } from './setupContext';
import { EnvironmentStatusBar } from './statusBar';
import { EnvironmentsProvider } from './tree/environmentsProvider';
import { ApiClients } from './services/apiClients';
import { ResponseView } from './response/responseView';
import { RecordProvider } from './response/recordProvider';
import { MainTree, setMainTree } from './tree/mainTree';
import { registerSendCodeLens } from './send/codeLens';

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
  readonly log: Logger;
  /** Payload diagnostics (Problems panel source "tpp"). */
  readonly diagnostics: DiagnosticsController;
  /** Partner API requests per environment and the request history. */
  readonly api: ApiClients;
  /** Data of the registrations, motor-club and history folders of the Environments tree. */
  readonly tree: MainTree;
  /** The Environments view's data provider: tests walk the tree through the extension's own node instances. */
  readonly view: EnvironmentsProvider;
}

/** Composition root: builds the services and pushes every disposable to `context.subscriptions`. */
export function activate(context: vscode.ExtensionContext): PublicApi | ExtensionApi {
  const started = performance.now();
  const log = new Logger();
  const active = new ActiveEnvironment(context.globalState);
  const keys = new KeyStore(context.secrets);
  const settings = new EnvironmentSettings();
  const environments = new EnvironmentModel(active, keys, settings);
  // Local: the sandbox integration installs its Partner ID and base address with jwt.setLocalTarget(...).
  const jwt = new JwtService(keys, settings);
  const jwtPreview = new JwtPreviewProvider();
  // The Local sandbox starts on first use (a Local token needs its address), never at activation.
  const localSandbox = new LocalSandbox(context, keys, log);
  const localTarget = jwt.setLocalTarget(async () => {
    try {
      const s = await localSandbox.ensureStarted();
      return { iss: s.partnerId, aud: s.v3BaseUrl };
    } catch (err) {
      log.error('The Local sandbox could not start', err);
      return undefined;
    }
  });
  const api = new ApiClients(context.globalState, settings, keys, jwt, log, localSandbox);
  const responses = new ResponseView();
  const records = new RecordProvider(api);
  const mainTree = setMainTree(new MainTree(api, settings, () => environments.refresh(), log, keys.onDidChange));
  const services = { log, environments, jwt, jwtPreview, localSandbox, api, responses, records };
  const tree = new EnvironmentsProvider(environments, log);
  // A copy of the interface description ships in media/, so problem codes link to their spec section offline.
  const spec = vscode.Uri.joinPath(context.extensionUri, 'media', 'partner-interface.md');
  const payloads = registerPayloadDiagnostics(log, existsSync(spec.fsPath) ? spec : undefined);

  context.subscriptions.push(
    log,
    active,
    keys,
    settings,
    environments,
    jwt,
    jwtPreview,
    localTarget,
    localSandbox,
    registerClaimTimeHover(),
    api,
    responses,
    records,
    mainTree,
    registerSendCodeLens(environments),
    tree,
    vscode.window.createTreeView('tpp.environments', { treeDataProvider: tree, showCollapseAll: true }),
    new EnvironmentStatusBar(environments),
    trackSetupContext(environments),
    ...registerCommands(services, COMMANDS),
    ...payloads.disposables,
  );

  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms (active environment: ${active.get()})`);
  if (context.extensionMode !== vscode.ExtensionMode.Test) return { activationMs };
  return { activationMs, environments, log, diagnostics: payloads.controller, api, tree: mainTree, view: tree };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
