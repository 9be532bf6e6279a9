import * as vscode from 'vscode';
import { EnvironmentStatus } from '../services/environmentModel';
import { KeyInfo } from '../services/keyStore';
import { TreeNode } from './node';

/** `SHA256 1a2b3c4d…9f0e` (display only; computed here so that drawing the tree does not load the JWT library). */
function shortFingerprint(fingerprint: string): string {
  return `SHA256 ${fingerprint.slice(0, 8)}…${fingerprint.slice(-4)}`;
}

/**
 * A key row under an environment: "Key pair  P-256 · SHA256 1a2b3c4d…9f0e · created 2026-11-21", or, during a
 * rotation, "New key (rotation)  … · awaiting administrator" (click to confirm). contextValue `keyPair` or
 * `keyRotation`; carries `status` so commands invoked on it know the environment.
 */
export class KeyNode implements TreeNode {
  constructor(
    readonly status: EnvironmentStatus,
    private readonly key: KeyInfo,
    private readonly kind: 'signing' | 'pending',
  ) {}

  toTreeItem(): vscode.TreeItem {
    const { info } = this.status;
    const pending = this.kind === 'pending';
    const rotating = !pending && Boolean(this.status.key?.pending);
    const item = new vscode.TreeItem(pending ? 'New key (rotation)' : 'Key pair', vscode.TreeItemCollapsibleState.None);
    item.id = `${info.id}:${pending ? 'pendingKey' : 'key'}`;
    const created = this.key.createdAt.slice(0, 10);
    item.description = `${this.key.curve} · ${shortFingerprint(this.key.fingerprint)} · created ${created}${pending ? ' · awaiting administrator' : rotating ? ' · still signing' : ''}`;
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${pending ? 'New key, awaiting registration' : 'Signing key'}** (${info.label})\n\n`);
    md.appendText(`Curve ${this.key.curve}, algorithm ${this.key.alg}\nSHA-256 of the public key (SPKI DER): ${this.key.fingerprint}\nCreated ${this.key.createdAt}\n\n`);
    md.appendMarkdown(
      pending
        ? 'Requests are still signed with the previous key. Once the administrator has registered this public key, click to confirm the rotation.'
        : "The private key is kept only in VS Code's secret storage.",
    );
    item.tooltip = md;
    item.iconPath = new vscode.ThemeIcon(pending ? 'sync' : 'key');
    item.contextValue = pending ? 'keyRotation' : 'keyPair';
    if (pending) item.command = { command: 'tpp.confirmKeyRotation', title: 'Confirm Key Rotation', arguments: [info.id] };
    return item;
  }
}
