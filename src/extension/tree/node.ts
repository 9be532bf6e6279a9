import * as vscode from 'vscode';

/** A node of the Tire Protection tree: renders itself and lists its children. */
export interface TreeNode {
  toTreeItem(): vscode.TreeItem;
  children?(): TreeNode[] | Promise<TreeNode[]>;
}
