import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { TreeNode } from './node';
import { RegistrationProduct } from '../../core/listing/registrationPages';

/** "Load more…" at the end of a registrations list: "50 of 10,000 shown"; click loads the next page. */
export class LoadMoreNode implements TreeNode {
  constructor(
    readonly env: EnvironmentId,
    readonly product: RegistrationProduct,
    private readonly shown: number,
    private readonly total: number | undefined,
    /** Description instead of "50 of 10,000 shown" (a prefix search: how many rows were searched). */
    private readonly note?: string,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:${this.product}:more:${this.shown}`;
    item.description = this.note ?? (this.total !== undefined ? `${this.shown.toLocaleString('en-US')} of ${this.total.toLocaleString('en-US')} shown` : `${this.shown} shown`);
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.command = { command: 'tpp.loadMoreRegistrations', title: 'Load more', arguments: [this.env, this.product] };
    item.contextValue = 'loadMore';
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    return item;
  }
}
