import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import type { MainTree } from './mainTree';
import { TreeNode } from './node';

/**
 * "Connection" under an environment: the outcome of its latest request in the history — answered (status and
 * time), token rejected (401), server error (5xx) or unreachable — or "not checked yet". Click: Verify Connection.
 */
export class ConnectionNode implements TreeNode {
  constructor(
    private readonly tree: MainTree,
    readonly env: EnvironmentId,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const last = this.tree.api.history(this.env)[0];
    const item = new vscode.TreeItem('Connection', vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:connection`;
    let icon = 'plug';
    let color: string | undefined;
    if (!last) item.description = 'not checked yet — click to verify';
    else {
      const at = last.time.slice(11, 19);
      if (last.status === undefined) {
        item.description = `unreachable (${last.error ?? 'no answer'}) at ${at}`;
        icon = 'debug-disconnect';
        color = 'errorForeground';
      } else if (last.status === 401) {
        item.description = `token rejected (401) at ${at}`;
        icon = 'error';
        color = 'errorForeground';
      } else if (last.status >= 500) {
        item.description = `server error ${last.status} at ${at}`;
        icon = 'warning';
        color = 'list.warningForeground';
      } else {
        item.description = `answering — last status ${last.status} at ${at}`;
        icon = 'pass';
        color = 'testing.iconPassed';
      }
    }
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.tooltip = `${ENVIRONMENTS[this.env].label}: ${item.description}\nFrom the latest request in the history. Click to verify the connection now.`;
    item.command = { command: 'tpp.verifyConnection', title: 'Verify Connection', arguments: [this.env] };
    item.contextValue = 'connection';
    item.accessibilityInformation = { label: `Connection, ${item.description}` };
    return item;
  }
}
