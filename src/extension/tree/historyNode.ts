import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { HistoryEntry } from '../../core/history/history';
import { TreeNode } from './node';

/**
 * One recorded request: label = method and path; description = status · duration · attempts · time.
 * Click opens it as JSON; context menu: Resend, Copy as cURL. contextValue `historyEntry[.resendable]`.
 */
export class HistoryNode implements TreeNode {
  readonly kind = 'history';
  constructor(
    readonly env: EnvironmentId,
    readonly entry: HistoryEntry,
  ) {}

  get id(): string {
    return this.entry.id;
  }

  toTreeItem(): vscode.TreeItem {
    const e = this.entry;
    const item = new vscode.TreeItem(`${e.method} ${e.path}`, vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:history:${e.id}`;
    const outcome = e.status !== undefined ? String(e.status) : (e.error ?? 'no answer');
    item.description = `${outcome} · ${Math.round(e.durationMs)} ms · ${e.attempts} attempt${e.attempts === 1 ? '' : 's'} · ${e.time.slice(11, 19)}`;
    const ok = e.status !== undefined && e.status < 400;
    item.iconPath = new vscode.ThemeIcon(ok ? 'arrow-swap' : 'warning', ok ? undefined : new vscode.ThemeColor('list.warningForeground'));
    item.tooltip = `${e.time}\n${e.method} ${e.url}\n${outcome}, ${Math.round(e.durationMs)} ms, ${e.attempts} attempt(s)`;
    item.contextValue = e.replay ? 'historyEntry.resendable' : 'historyEntry';
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    item.command = { command: 'tpp.openRecord', title: 'Open as JSON', arguments: [this] };
    return item;
  }
}
