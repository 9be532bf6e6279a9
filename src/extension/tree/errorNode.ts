import * as vscode from 'vscode';
import { TreeNode } from './node';

/** Shown in place of children that failed to load: the reason, and a click to retry. */
export class ErrorNode implements TreeNode {
  constructor(
    private readonly message: string,
    private readonly retry?: vscode.Command,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.message, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.tooltip = this.retry ? `${this.message}\n\nClick to retry.` : this.message;
    item.command = this.retry;
    item.contextValue = 'error';
    return item;
  }
}
