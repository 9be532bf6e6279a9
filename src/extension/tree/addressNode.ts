import * as vscode from 'vscode';
import { TreeNode } from './node';

/**
 * A row with one address of an environment (the Local v3, v2 and eligibility base addresses; spec: Base addresses),
 * with Copy Address inline and in its context menu. contextValue `address`; the command receives this node and reads
 * {@link url}.
 */
export class AddressNode implements TreeNode {
  constructor(
    private readonly id: string,
    private readonly label: string,
    /** The address itself, e.g. http://127.0.0.1:28463/api/v3. */
    readonly url: string,
    private readonly note: string,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = this.url;
    item.tooltip = `${this.label}: ${this.url}\n${this.note}`;
    item.iconPath = new vscode.ThemeIcon('globe');
    item.contextValue = 'address';
    return item;
  }
}
