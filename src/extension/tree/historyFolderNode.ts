import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { HistoryNode } from './historyNode';
import type { HistoryModel } from '../services/historyModel';
import { TreeNode } from './node';

/** "Request history" under an environment: its requests, newest first (the newest 200 of all environments are kept). */
export class HistoryFolderNode implements TreeNode {
  constructor(
    private readonly history: HistoryModel,
    readonly env: EnvironmentId,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const n = this.history.list(this.env).length;
    const item = new vscode.TreeItem('Request history', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `${this.env}:folder:history`;
    item.description = `${n} request${n === 1 ? '' : 's'}`;
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = 'history';
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    return item;
  }

  children(): TreeNode[] {
    return this.history.list(this.env).map((e) => new HistoryNode(this.env, e));
  }
}
