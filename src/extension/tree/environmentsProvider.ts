import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import type { Logger } from '../log';
import type { EnvironmentModel } from '../services/environmentModel';
import type { LocalSandbox } from '../services/localSandbox';
import type { HistoryModel } from '../services/historyModel';
import type { RegistrationProduct } from '../../core/listing/registrationPages';
import type { RegistrationsModel } from '../services/registrationsModel';
import { ConnectionNode } from './connectionNode';
import { EnvironmentNode } from './environmentNode';
import { ErrorNode } from './errorNode';
import { HistoryFolderNode } from './historyFolderNode';
import { TreeNode } from './node';
import { RegistrationsFolderNode } from './registrationsFolderNode';

/** The models the view renders from. */
export interface ViewModels {
  readonly environments: EnvironmentModel;
  readonly registrations: RegistrationsModel;
  readonly history: HistoryModel;
  readonly log: Logger;
  /** The Local sandbox's process: its state shows on the Local row. */
  readonly localSandbox?: LocalSandbox;
}

/** The request-driven rows under one environment, created once and kept, so each can be redrawn alone. */
interface Folders {
  readonly connection: ConnectionNode;
  readonly lists: Readonly<Record<RegistrationProduct, RegistrationsFolderNode>>;
  readonly history: HistoryFolderNode;
}

/** History changes within this many milliseconds redraw the history rows once. */
const HISTORY_REDRAW_MS = 250;

/**
 * Data of the "Environments" view: Local, Sandbox, Production (Local first), each with its setup details, its
 * Connection row and its Registrations, Motor-club registrations and Request history folders. The view renders
 * from the models and listens to them: a change of one list redraws that folder, a recorded request redraws that
 * environment's history and connection rows, and only a change of keys, settings or the active environment
 * redraws the whole tree. A child list that fails to load shows an {@link ErrorNode}, never an empty tree.
 */
export class EnvironmentsProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly folders = new Map<EnvironmentId, Folders>();
  private readonly historyTimers = new Map<EnvironmentId, ReturnType<typeof setTimeout>>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly models: ViewModels) {
    this.subscriptions = [
      models.environments.onDidChange(() => this.emitter.fire(undefined)),
      models.localSandbox?.onDidChangeState(() => this.emitter.fire(undefined)) ?? { dispose() {} },
      models.registrations.onDidChange(({ env, product }) => this.emitter.fire(this.foldersOf(env).lists[product])),
      // One registration read or changed (expanded, a claim filed, cancelled): its row alone.
      models.registrations.onDidChangeRecord(({ env, id }) => {
        const row = this.foldersOf(env).lists['tire-protection'].rowOf(id);
        if (row) this.emitter.fire(row);
      }),
      models.history.onDidChange((env) => {
        // Debounced per environment: a burst of requests redraws the history rows once.
        clearTimeout(this.historyTimers.get(env));
        this.historyTimers.set(
          env,
          setTimeout(() => {
            this.historyTimers.delete(env);
            const f = this.foldersOf(env);
            this.emitter.fire(f.history);
            this.emitter.fire(f.connection);
          }, HISTORY_REDRAW_MS),
        );
      }),
    ];
  }

  /** The folder rows of `env` (the same instances for the life of the view). */
  foldersOf(env: EnvironmentId): Folders {
    let f = this.folders.get(env);
    if (!f) {
      const { registrations, history, log } = this.models;
      const sandbox = env === 'local' ? this.models.localSandbox : undefined;
      f = {
        connection: new ConnectionNode(history, env, sandbox && (() => sandbox.status)),
        lists: { 'tire-protection': new RegistrationsFolderNode(registrations, log, env, 'tire-protection'), 'motor-club': new RegistrationsFolderNode(registrations, log, env, 'motor-club') },
        history: new HistoryFolderNode(history, env),
      };
      this.folders.set(env, f);
    }
    return f;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    try {
      if (!node) {
        return (await this.models.environments.all()).map((s) => {
          const f = this.foldersOf(s.info.id);
          const sandbox = this.models.localSandbox;
          const local = s.info.id === 'local' && sandbox ? { status: sandbox.status, port: sandbox.port, addresses: sandbox.addresses } : undefined;
          return new EnvironmentNode(s, [f.connection, f.lists['tire-protection'], f.lists['motor-club'], f.history], local);
        });
      }
      return (await node.children?.()) ?? [];
    } catch (err) {
      this.models.log.error('Could not load tree items', err);
      return [new ErrorNode(`Could not load: ${err instanceof Error ? err.message : String(err)}`, { command: 'tpp.refreshEnvironments', title: 'Retry' })];
    }
  }

  dispose(): void {
    for (const t of this.historyTimers.values()) clearTimeout(t);
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}
