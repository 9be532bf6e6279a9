import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { ErrorNode } from './errorNode';
import { LoadMoreNode } from './loadMoreNode';
import type { Logger } from '../log';
import type { RegistrationsModel } from '../services/registrationsModel';
import { describeFailure } from './describeFailure';
import { MotorClubNode } from './motorClubNode';
import { TreeNode } from './node';
import { hasMorePages, RegistrationProduct } from '../services/registrationPages';
import { RegistrationNode } from './registrationNode';

/**
 * "Registrations" (tire protection) or "Motor-club registrations" under an environment: one page of the
 * `tpp.registrations.pageSize` setting at a time with a "Load more…" row, a filter by invoice and store number
 * (tire protection), and an error row with Retry instead of an empty list. contextValue
 * `registrations.tire-protection[.filtered]` / `registrations.motor-club`.
 */
export class RegistrationsFolderNode implements TreeNode {
  constructor(
    private readonly registrations: RegistrationsModel,
    private readonly log: Logger,
    readonly env: EnvironmentId,
    readonly product: RegistrationProduct,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const tp = this.product === 'tire-protection';
    const item = new vscode.TreeItem(tp ? 'Registrations' : 'Motor-club registrations', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `${this.env}:folder:${this.product}`;
    const f = this.registrations.filter(this.env, this.product);
    const filtered = Boolean(f.invoiceNumber || f.storeNumber);
    item.description = filtered ? `filter: ${[f.invoiceNumber && `invoice ${f.invoiceNumber}`, f.storeNumber && `store ${f.storeNumber}`].filter(Boolean).join(', ')}` : undefined;
    item.iconPath = new vscode.ThemeIcon(tp ? 'shield' : 'person');
    item.tooltip = tp ? 'Tire-protection registrations of this environment, newest pages loaded on demand.' : 'Motor-club registrations of this environment.';
    item.contextValue = `registrations.${this.product}${filtered ? '.filtered' : ''}`;
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    return item;
  }

  async children(): Promise<TreeNode[]> {
    const retry: vscode.Command = { command: 'tpp.refreshRegistrations', title: 'Retry', arguments: [this.env, this.product] };
    try {
      const pages = await this.registrations.pages(this.env, this.product);
      const nodes: TreeNode[] = [];
      for (const p of pages)
        for (const row of p.rows) nodes.push(this.product === 'tire-protection' ? new RegistrationNode(this.registrations, this.env, row) : new MotorClubNode(this.env, row));
      if (nodes.length === 0) {
        const f = this.registrations.filter(this.env, this.product);
        return [new InfoNode(`${this.env}:${this.product}:empty`, f.invoiceNumber || f.storeNumber ? 'No registration matches the filter' : 'No registrations yet')];
      }
      if (hasMorePages(pages)) {
        const last = pages.at(-1);
        nodes.push(new LoadMoreNode(this.env, this.product, nodes.length, last?.totalRecordCount));
      }
      return nodes;
    } catch (err) {
      this.log.warn(`Could not list ${this.product} registrations of ${this.env}: ${err instanceof Error ? err.message : String(err)}`);
      return [new ErrorNode(describeFailure(err, this.env), retry)];
    }
  }
}

/** A plain informational row (no action). */
export class InfoNode implements TreeNode {
  constructor(
    private readonly id: string,
    private readonly label: string,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('info');
    item.contextValue = 'info';
    return item;
  }
}
