import * as vscode from 'vscode';
import { CommandDef } from './registry';

interface NodeLike {
  readonly kind?: string;
  readonly env?: string;
  readonly id?: string;
  readonly record?: unknown;
  readonly entry?: unknown;
  readonly status?: unknown;
  toTreeItem?(): vscode.TreeItem;
}

/**
 * `tpp.openRecord`: opens any tree node as a read-only JSON document (`tpp-record:`): registrations and motor-club
 * registrations are read from the server (refreshable), claims and history entries as shown, an environment as its
 * status. Resolves to the document URI (string).
 */
export const openRecord: CommandDef = {
  id: 'tpp.openRecord',
  async run(services, arg) {
    const records = services.records;
    const node = (arg ?? {}) as NodeLike;
    const env = (typeof node.env === 'string' ? node.env : services.environments.active.get()) as Parameters<typeof records.liveUri>[0];
    let uri: vscode.Uri;
    if (node.kind === 'registration' && node.id) uri = records.liveUri(env, 'registration', node.id);
    else if (node.kind === 'motorClub' && node.id) uri = records.liveUri(env, 'motor-club', node.id);
    else if (node.kind === 'claim') uri = records.snapshot(env, `claim-${node.id ?? ''}`, node.record);
    else if (node.kind === 'history') uri = records.snapshot(env, `request-${node.id ?? ''}`, node.entry);
    else if (node.status) uri = records.snapshot(env, 'environment', node.status);
    else {
      const item = node.toTreeItem?.();
      uri = records.snapshot(env, 'node', { label: item?.label, description: item?.description, tooltip: typeof item?.tooltip === 'string' ? item.tooltip : undefined });
    }
    await records.open(uri);
    return uri.toString();
  },
};
