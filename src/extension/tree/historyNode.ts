import * as vscode from 'vscode';
import { changesData } from '../../core/contract/methods';
import { EnvironmentId } from '../../core/environments';
import { HistoryEntry, historyLabel } from '../../core/history/history';
import { TreeNode } from './node';

/**
 * One recorded request, labelled `POST /tire-protection/registrations → 201 · 184 ms · 10:42` (path relative to the
 * base address, local time). Click shows it in the response view (an entry of an earlier version, kept without its
 * exchange, opens as JSON). contextValue `historyEntry[.resendable][.payload]`: Resend, Copy as cURL, Open as
 * Payload File (a request with a body).
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
    const item = new vscode.TreeItem(historyLabel(e), vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:history:${e.id}`;
    const outcome = e.status !== undefined ? String(e.status) : (e.error ?? 'no answer');
    const ok = e.status !== undefined && e.status < 400;
    item.iconPath = new vscode.ThemeIcon(ok ? 'arrow-swap' : 'warning', ok ? undefined : new vscode.ThemeColor('list.warningForeground'));
    item.tooltip = `${e.exchange?.title ? `${e.exchange.title}\n` : ''}${e.time}\n${e.method} ${e.url}\n${outcome}, ${Math.round(e.durationMs)} ms, ${e.attempts} attempt(s)`;
    const payload = e.exchange?.request.body !== undefined && !e.exchange.request.truncated && changesData(e.method);
    item.contextValue = `historyEntry${e.replay ? '.resendable' : ''}${payload ? '.payload' : ''}`;
    item.accessibilityInformation = { label: item.label as string };
    item.command = e.exchange
      ? { command: 'tpp.showExchange', title: 'Show Response', arguments: [this] }
      : { command: 'tpp.openRecord', title: 'Open as JSON', arguments: [this] };
    return item;
  }
}
