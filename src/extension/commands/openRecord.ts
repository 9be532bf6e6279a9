import * as vscode from 'vscode';
import { CommandDef } from './registry';

interface NodeLike {
  readonly kind?: string;
  readonly env?: string;
  readonly id?: string;
  readonly invoiceNumber?: string;
  readonly record?: unknown;
  readonly entry?: unknown;
  readonly status?: unknown;
  toTreeItem?(): vscode.TreeItem;
}

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
export const openRecord: CommandDef = {
  id: 'tpp.openRecord',
  async run(services, arg) {
    const records = services.records;
    const node = (arg ?? {}) as NodeLike;
    const env = (typeof node.env === 'string' ? node.env : services.environments.active.get()) as Parameters<typeof records.liveUri>[0];
    let uri: vscode.Uri;
    if (node.kind === 'registration' && node.id) uri = records.liveUri(env, 'registration', node.id, node.invoiceNumber);
    else if (node.kind === 'motorClub' && node.id) uri = records.liveUri(env, 'motor-club', node.id, node.invoiceNumber);
    else if (node.kind === 'claim') uri = records.snapshot(env, `${text(node.record, 'serviceInvoiceNumber') || `Claim ${node.id ?? ''}`} · claim`, node.record);
    else if (node.kind === 'history') uri = records.snapshot(env, `${text(node.entry, 'method')} ${text(node.entry, 'time').slice(11, 19)} · request`, node.entry);
    else if (node.status) uri = records.snapshot(env, `${text((node.status as { info?: unknown }).info, 'label') || env} · environment`, node.status);
    else {
      const item = node.toTreeItem?.();
      uri = records.snapshot(env, `${typeof item?.label === 'string' ? item.label : 'row'}`, { label: item?.label, description: item?.description, tooltip: typeof item?.tooltip === 'string' ? item.tooltip : undefined });
    }
    await records.open(uri);
    return uri.toString();
  },
};
