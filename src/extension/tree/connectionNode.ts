import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import type { HistoryModel } from '../services/historyModel';
import { TreeNode } from './node';

/** Description, icon and colour per connection state. */
function look(state: ReturnType<HistoryModel['connection']>): [string, string, string | undefined] {
  switch (state.kind) {
    case 'unknown':
      return ['not checked yet — click to verify', 'plug', undefined];
    case 'unreachable':
      return [`unreachable (${state.error}) at ${state.time.slice(11, 19)}`, 'debug-disconnect', 'errorForeground'];
    case 'unauthorized':
      return [`token rejected (401) at ${state.time.slice(11, 19)}`, 'error', 'errorForeground'];
    case 'server-error':
      return [`server error ${state.status} at ${state.time.slice(11, 19)}`, 'warning', 'list.warningForeground'];
    default:
      return [`answering — last status ${state.status} at ${state.time.slice(11, 19)}`, 'pass', 'testing.iconPassed'];
  }
}

/**
 * "Connection" under an environment: the outcome of its latest request in the history — answered (status and
 * time), token rejected (401), server error (5xx) or unreachable — or "not checked yet". Click: Verify Connection.
 * Redrawn when that environment's history changes.
 */
export class ConnectionNode implements TreeNode {
  constructor(
    private readonly history: HistoryModel,
    readonly env: EnvironmentId,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Connection', vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:connection`;
    const [description, icon, color] = look(this.history.connection(this.env));
    item.description = description;
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.tooltip = `${ENVIRONMENTS[this.env].label}: ${description}\nFrom the latest request in the history. Click to verify the connection now.`;
    item.command = { command: 'tpp.verifyConnection', title: 'Verify Connection', arguments: [this.env] };
    item.contextValue = 'connection';
    item.accessibilityInformation = { label: `Connection, ${description}` };
    return item;
  }
}
