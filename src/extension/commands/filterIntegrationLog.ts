import * as vscode from 'vscode';
import { STATUS_FILTERS, type StatusFilter } from '../services/integrationLog';
import { CommandDef } from './registry';

const LABELS: Readonly<Record<StatusFilter, string>> = {
  all: 'All requests',
  '2xx': '2xx: succeeded',
  '4xx': '4xx: refused (the request is at fault)',
  '5xx': '5xx: failed (the server is at fault, or a fault was injected)',
};

/**
 * `tpp.filterIntegrationLog [filter]`: shows only one status class in the Integration Log. Without an argument
 * (or with one that is not all, 2xx, 4xx or 5xx) it asks with a quick pick.
 */
export const filterIntegrationLog: CommandDef = {
  id: 'tpp.filterIntegrationLog',
  async run({ integrationLog }, arg) {
    let filter = STATUS_FILTERS.includes(arg as StatusFilter) ? (arg as StatusFilter) : undefined;
    if (!filter) {
      const picked = await vscode.window.showQuickPick(
        STATUS_FILTERS.map((f) => ({ label: LABELS[f], description: f === integrationLog.filter ? '(current)' : undefined, filter: f })),
        { title: 'Filter the Integration Log by Status' },
      );
      filter = picked?.filter;
    }
    if (filter) integrationLog.setFilter(filter);
  },
};
