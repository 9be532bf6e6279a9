import * as vscode from 'vscode';
import { COMMANDS } from './commands';
import { registerCommands } from './commands/registry';
import { Logger } from './log';
import { ActiveEnvironment } from './services/activeEnvironment';
import { EnvironmentModel } from './services/environmentModel';
import { EnvironmentSettings } from './services/environmentSettings';
import { KeyStore } from './services/keyStore';
import { trackSetupContext } from './setupContext';
import { EnvironmentStatusBar } from './statusBar';
import { EnvironmentsProvider } from './tree/environmentsProvider';

/** What `activate` returns: used by the host tests and the activation benchmark. */
export interface ExtensionApi {
  /** Wall time spent inside `activate()`, in milliseconds. */
  readonly activationMs: number;
  readonly environments: EnvironmentModel;
  readonly log: Logger;
}

/** Composition root: builds the services and pushes every disposable to `context.subscriptions`. */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  const log = new Logger();
  const active = new ActiveEnvironment(context.globalState);
  const keys = new KeyStore(context.secrets);
  const settings = new EnvironmentSettings();
  const environments = new EnvironmentModel(active, keys, settings);
  const services = { log, environments };
  const tree = new EnvironmentsProvider(environments, log);

  context.subscriptions.push(
    log,
    active,
    keys,
    settings,
    environments,
    tree,
    vscode.window.createTreeView('tpp.environments', { treeDataProvider: tree, showCollapseAll: true }),
    new EnvironmentStatusBar(environments),
    trackSetupContext(environments),
    ...registerCommands(services, COMMANDS),
  );

  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms (active environment: ${active.get()})`);
  return { activationMs, environments, log };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
