import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { TreeNode } from './node';
import { RegistrationRow, rowText } from '../../core/listing/registrationPages';
import { day } from './format';

/**
 * A motor-club registration: label = invoice number; description = enroll date · state (Active or Cancelled) ·
 * customer name. contextValue `motorClub.<state>`.
 */
export class MotorClubNode implements TreeNode {
  readonly kind = 'motorClub';
  constructor(
    readonly env: EnvironmentId,
    readonly row: RegistrationRow,
    /** Unique in the folder: the `_id`, or a key of the content for a row the server sent without one. */
    readonly key: string = rowText(row, '_id'),
    /** Why the row carries a warning icon (the server repeated it, or sent it without `_id`). */
    readonly warning?: string,
  ) {}

  get id(): string {
    return rowText(this.row, '_id');
  }

  get invoiceNumber(): string {
    return rowText(this.row, 'invoiceNumber');
  }

  toTreeItem(): vscode.TreeItem {
    const { record, state } = this.row;
    const item = new vscode.TreeItem(this.invoiceNumber || '(no invoice number)', vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:motorClub:${this.key}`;
    const customer = (record.customer ?? {}) as { name?: unknown };
    item.description = [day(record.enrollDate), state, typeof customer.name === 'string' ? customer.name : ''].filter(Boolean).join(' · ');
    const cancelled = state === 'Cancelled';
    item.iconPath = this.warning
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon(cancelled ? 'circle-slash' : 'pass', new vscode.ThemeColor(cancelled ? 'errorForeground' : 'testing.iconPassed'));
    item.tooltip = [`Motor-club registration ${this.invoiceNumber} — ${state}`, `_id: ${this.id || '(none)'}`, ...(this.warning ? [this.warning] : []), ...(typeof record.cancelledOn === 'string' ? [`cancelledOn: ${record.cancelledOn}`] : [])].join('\n');
    item.contextValue = `motorClub.${state === 'Cancelled' ? 'cancelled' : 'active'}`;
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    item.command = { command: 'tpp.openRecord', title: 'Open as JSON', arguments: [this] };
    return item;
  }
}
