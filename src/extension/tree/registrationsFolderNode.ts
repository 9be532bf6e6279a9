import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { ErrorNode } from './errorNode';
import { LoadMoreNode } from './loadMoreNode';
import type { Logger } from '../log';
import type { RegistrationsModel } from '../services/registrationsModel';
import { describeFailure } from './describeFailure';
import { MotorClubNode } from './motorClubNode';
import { TreeNode } from './node';
import { hasMorePages, mergePages, RegistrationProduct, ShownRow } from '../../core/listing/registrationPages';
import { RegistrationNode } from './registrationNode';

/**
 * "Registrations" (tire protection) or "Motor-club registrations" under an environment: one page of the
 * `tpp.registrations.pageSize` setting at a time (one list request) with a "Load more…" row, a filter by invoice
 * number (exact, or a prefix matched among the rows read) and store number (tire protection), and an error row with
 * Retry instead of an empty list. contextValue
 * `registrations.tire-protection[.filtered]` / `registrations.motor-club`.
 */
export class RegistrationsFolderNode implements TreeNode {
  /** One node per registration id, reused across redraws (the view identifies rows by instance). */
  private readonly nodes = new Map<string, RegistrationNode>();

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
    const filtered = Boolean(f.invoiceNumber || f.invoicePrefix || f.storeNumber);
    const parts = [f.invoiceNumber && `invoice ${f.invoiceNumber}`, f.invoicePrefix && `invoice ${f.invoicePrefix}*`, f.storeNumber && `store ${f.storeNumber}`];
    item.description = filtered ? `filter: ${parts.filter(Boolean).join(', ')}` : this.countText();
    item.iconPath = new vscode.ThemeIcon(tp ? 'shield' : 'person');
    item.tooltip = tp ? 'Tire-protection registrations of this environment, newest pages loaded on demand.' : 'Motor-club registrations of this environment.';
    item.contextValue = `registrations.${this.product}${filtered ? '.filtered' : ''}`;
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    return item;
  }

  /** "120 of 4,000" once pages are loaded: the registrations shown (each once) and the server's total. */
  private countText(): string | undefined {
    const pages = this.registrations.loadedPages(this.env, this.product);
    if (!pages?.length) return undefined;
    const shown = mergePages(pages).length.toLocaleString('en-US');
    const total = pages.at(-1)?.totalRecordCount;
    return total === undefined ? `${shown} shown` : `${shown} of ${total.toLocaleString('en-US')}`;
  }

  async children(): Promise<TreeNode[]> {
    const retry: vscode.Command = { command: 'tpp.refreshRegistrations', title: 'Retry', arguments: [this.env, this.product] };
    try {
      const pages = await this.registrations.pages(this.env, this.product);
      const nodes: TreeNode[] = [];
      const f = this.registrations.filter(this.env, this.product);
      // Each registration once, however the pages shifted between reads (VS Code refuses a repeated row id).
      const shown = mergePages(pages);
      const read = shown.length;
      for (const s of shown) {
        if (!this.registrations.matches(this.env, this.product, s.row)) continue;
        nodes.push(this.product === 'tire-protection' ? this.nodeOf(s) : new MotorClubNode(this.env, s.row, s.key, s.warning));
      }
      const more = hasMorePages(pages);
      const total = pages.at(-1)?.totalRecordCount;
      if (f.invoicePrefix) {
        // Matched here, among the rows read so far: say how far the search has got.
        const searched = `${nodes.length} match${nodes.length === 1 ? '' : 'es'} among ${read.toLocaleString('en-US')}${total !== undefined ? ` of ${total.toLocaleString('en-US')}` : ''} read`;
        if (!more) return nodes.length ? nodes : [new InfoNode(`${this.env}:${this.product}:empty`, `No invoice number starts with ${f.invoicePrefix} (${searched})`)];
        return [...nodes, new LoadMoreNode(this.env, this.product, read, total, `${searched}: search the next page`)];
      }
      if (nodes.length === 0) return [new InfoNode(`${this.env}:${this.product}:empty`, f.invoiceNumber || f.storeNumber ? 'No registration matches the filter' : 'No registrations yet')];
      if (more) nodes.push(new LoadMoreNode(this.env, this.product, nodes.length, total));
      return nodes;
    } catch (err) {
      this.log.warn(`Could not list ${this.product} registrations of ${this.env}: ${err instanceof Error ? err.message : String(err)}`);
      return [new ErrorNode(describeFailure(err, this.env), retry)];
    }
  }

  /** The registration row of `shown`, the same instance as before when it was shown already. */
  private nodeOf(shown: ShownRow): RegistrationNode {
    let node = this.nodes.get(shown.key);
    if (node) {
      node.row = shown.row;
      node.warning = shown.warning;
    } else {
      node = new RegistrationNode(this.registrations, this.env, shown.row, shown.key, shown.warning);
      this.nodes.set(shown.key, node);
    }
    return node;
  }

  /** The row of registration `id` if it was shown (to redraw it alone). */
  rowOf(id: string): RegistrationNode | undefined {
    return this.nodes.get(id);
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
