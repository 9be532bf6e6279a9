import * as vscode from 'vscode';
import { TreeNode } from './node';

/** A leaf "label: value" row with an icon and an optional click command. */
export class DetailNode implements TreeNode {
  constructor(
    private readonly id: string,
    private readonly label: string,
    private readonly value: string,
    private readonly icon: string,
    private readonly command?: vscode.Command,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = this.value;
    item.tooltip = `${this.label}: ${this.value}`;
    item.iconPath = new vscode.ThemeIcon(this.icon, this.icon === 'warning' ? new vscode.ThemeColor('list.warningForeground') : undefined);
    item.command = this.command;
    return item;
  }
}
