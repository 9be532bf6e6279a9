import * as vscode from 'vscode';
import { STATUS_FILTERS, type StatusFilter } from '../services/integrationLog';
import { fieldsArg, flagArg, oneOfArg } from '../commandSupport/args';
import { defineCommand } from './registry';

const LABELS: Readonly<Record<StatusFilter, string>> = {
  all: 'All requests',
  '2xx': '2xx: succeeded',
  '4xx': '4xx: refused (the request is at fault)',
  '5xx': '5xx: failed (the server is at fault, or a fault was injected)',
};

/**
 * `tpp.filterIntegrationLog [filter]`: shows only one status class in the Integration Log, or (`{ editorReads:
 * boolean }`, or the last item of the pick) shows or hides the editor's own reads (hidden by default). Without an
 * argument (or with one that is neither) it asks with a quick pick.
 */
export const filterIntegrationLog = defineCommand({
  id: 'tpp.filterIntegrationLog',
  needs: ['integrationLog'],
  args: ([arg]) => ({ editorReads: flagArg(fieldsArg(arg).editorReads), given: oneOfArg(arg, STATUS_FILTERS) }),
  async run({ integrationLog }, { editorReads, given }) {
    if (typeof editorReads === 'boolean') return integrationLog.showEditorReads(editorReads);
    let filter = given;
    if (!filter) {
      const shown = integrationLog.editorReadsShown;
      const picked = await vscode.window.showQuickPick<vscode.QuickPickItem & { filter?: StatusFilter }>(
        [
          ...STATUS_FILTERS.map((f) => ({ label: LABELS[f], description: f === integrationLog.filter ? '(current)' : undefined, filter: f })),
          { label: '', kind: vscode.QuickPickItemKind.Separator },
          { label: shown ? "Hide the editor's own reads" : "Show the editor's own reads", description: 'its tree pages, record details and lookups' },
        ],
        { title: 'Filter the Integration Log by Status' },
      );
      if (picked && !picked.filter && picked.kind !== vscode.QuickPickItemKind.Separator) return integrationLog.showEditorReads(!shown);
      filter = picked?.filter;
    }
    if (filter) integrationLog.setFilter(filter);
  },
});
