import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { TreeNode } from './node';
import { day } from './format';

/**
 * A claim under its registration: label = service invoice number; description = service date · authorized amount
 * (2 decimals) · tires. contextValue `claim`.
 */
export class ClaimNode implements TreeNode {
  readonly kind = 'claim';
  constructor(
    readonly env: EnvironmentId,
    readonly registrationId: string,
    readonly record: Record<string, unknown>,
    private readonly index: number,
  ) {}

  /** The claim id (a number in the spec) as text, or `''`. */
  get id(): string {
    const v = this.record.id;
    return typeof v === 'number' || typeof v === 'string' ? String(v) : '';
  }

  toTreeItem(): vscode.TreeItem {
    const r = this.record;
    const label = typeof r.serviceInvoiceNumber === 'string' && r.serviceInvoiceNumber ? r.serviceInvoiceNumber : `Claim ${this.id || this.index + 1}`;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    // No item id, as for every leaf under a registration: VS Code may read a registration's children twice at once
    // (its own expansion and a redraw of the folder, both waiting for the same read), and refuses an id registered
    // by the other read ("Element with id … is already registered"). A leaf keeps no state an id would preserve.
    const tires = Array.isArray(r.tires) ? r.tires.length : undefined;
    const amount = typeof r.authorizedAmount === 'number' ? `$${r.authorizedAmount.toFixed(2)}` : '';
    item.description = [day(r.serviceInvoiceDate), amount, tires !== undefined ? `${tires} tire${tires === 1 ? '' : 's'}` : ''].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon('tools');
    item.tooltip = [`Claim ${this.id}`, `serviceInvoiceNumber: ${String(r.serviceInvoiceNumber ?? '—')}`, `damageReason: ${String(r.damageReason ?? '—')}`, `damageDescription: ${String(r.damageDescription ?? '—')}`].join('\n');
    item.contextValue = 'claim';
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    item.command = { command: 'tpp.openRecord', title: 'Open as JSON', arguments: [this] };
    return item;
  }
}
