import * as vscode from 'vscode';
import { TreeNode } from './node';

/**
 * The Partner ID row of an environment (the `iss` of every token; spec: Authentication), with Copy ID inline and in
 * its context menu. contextValue `partnerId`; `tpp.copyId` receives this node and reads {@link id}, the Partner ID
 * alone (without the row's note).
 */
export class PartnerIdNode implements TreeNode {
  constructor(
    private readonly env: string,
    /** The Partner ID itself. */
    readonly id: string,
    private readonly note?: string,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Partner ID', vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:partner`;
    item.description = this.note ? `${this.id} (${this.note})` : this.id;
    item.tooltip = `Partner ID: ${this.id}\nThe iss of every token signed for this environment.`;
    item.iconPath = new vscode.ThemeIcon('account');
    item.contextValue = 'partnerId';
    return item;
  }
}
