import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { HistoryNode } from './historyNode';
import type { HistoryModel } from '../services/historyModel';
import { TreeNode } from './node';
import { uniqueById } from '../../core/listing/uniqueRows';

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
    // Each entry once (a history file may hold a line twice, e.g. written by two windows): row ids must be unique.
    return uniqueById(this.history.list(this.env), (e) => e.id, true).map((e) => new HistoryNode(this.env, e));
  }
}
