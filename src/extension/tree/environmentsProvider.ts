import * as vscode from 'vscode';
import { EnvironmentModel } from '../services/environmentModel';
import { EnvironmentNode } from './environmentNode';
import { ErrorNode } from './errorNode';
import { TreeNode } from './node';
import { Logger } from '../log';
import type { LocalSandbox } from '../services/localSandbox';

/**
 * Data of the "Environments" view: Local, Sandbox, Production (Local first), each with its setup
 * details as children. A child list that fails to load shows an {@link ErrorNode}, never an empty tree.
 */
export class EnvironmentsProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly model: EnvironmentModel,
    private readonly log: Logger,
    private readonly localSandbox?: LocalSandbox,
  ) {
    const fire = () => this.emitter.fire(undefined);
    this.subscription = vscode.Disposable.from(model.onDidChange(fire), localSandbox?.onDidChangeState(fire) ?? { dispose() {} });
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    try {
      if (!node) return (await this.model.all()).map((s) => new EnvironmentNode(s, s.info.id === 'local' ? this.localSandbox?.status : undefined));
      return (await node.children?.()) ?? [];
    } catch (err) {
      this.log.error('Could not load tree items', err);
      return [new ErrorNode(`Could not load: ${err instanceof Error ? err.message : String(err)}`, { command: 'tpp.refreshEnvironments', title: 'Retry' })];
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
