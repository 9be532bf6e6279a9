import * as vscode from 'vscode';
import type { TreeNode } from '../tree/node';
import { envOf, treeArgOf } from '../commandSupport/treeArgs';
import { defineCommand } from './registry';

/** A string field of a record, or `''`. */
function text(record: unknown, name: string): string {
  const v = (record as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}

/**
 * `tpp.openRecord`: opens any tree node as a read-only JSON document (`tpp-record:`): registrations and motor-club
 * registrations are read from the server (refreshable), claims and history entries as shown, an environment as its
 * status. Tabs are titled by invoice number (`INV-1042 · registration`, `SRV-7 · claim`), not by raw ids.
 * Resolves to the document URI (string).
 */
export const openRecord = defineCommand({
  id: 'tpp.openRecord',
  needs: ['environments', 'records'],
  args: ([arg]) => ({ rowEnv: envOf(arg), row: treeArgOf(arg), node: arg as Partial<TreeNode> | undefined }),
  async run(services, { rowEnv, row, node }) {
    const records = services.records;
    const env = rowEnv ?? services.environments.active.get();
    let uri: vscode.Uri;
    if (row?.node === 'registration' && row.id) uri = records.liveUri(env, 'registration', row.id, row.invoiceNumber);
    else if (row?.node === 'motorClub' && row.id) uri = records.liveUri(env, 'motor-club', row.id, row.invoiceNumber);
    else if (row?.node === 'claim') uri = records.snapshot(env, `${text(row.record, 'serviceInvoiceNumber') || `Claim ${row.id ?? ''}`} · claim`, row.record);
    else if (row?.node === 'history') uri = records.snapshot(env, `${text(row.entry, 'method')} ${text(row.entry, 'time').slice(11, 19)} · request`, row.entry);
    else if (row?.node === 'environment') uri = records.snapshot(env, `${row.label || env} · environment`, row.status);
    else {
      const item = typeof node?.toTreeItem === 'function' ? node.toTreeItem() : undefined;
      uri = records.snapshot(env, `${typeof item?.label === 'string' ? item.label : 'row'}`, { label: item?.label, description: item?.description, tooltip: typeof item?.tooltip === 'string' ? item.tooltip : undefined });
    }
    await records.open(uri);
    return uri.toString();
  },
});
