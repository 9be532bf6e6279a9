import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { HistoryNode } from './historyNode';
import type { MainTree } from './mainTree';
import { TreeNode } from './node';

/** "Request history" under an environment: its requests, newest first (the newest 200 of all environments are kept). */
export class HistoryFolderNode implements TreeNode {
  constructor(
    private readonly tree: MainTree,
    readonly env: EnvironmentId,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const n = this.tree.api.history(this.env).length;
    const item = new vscode.TreeItem('Request history', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `${this.env}:folder:history`;
    item.description = `${n} request${n === 1 ? '' : 's'}`;
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = 'history';
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    return item;
  }

  children(): TreeNode[] {
    return this.tree.api.history(this.env).map((e) => new HistoryNode(this.env, e));
  }
}
