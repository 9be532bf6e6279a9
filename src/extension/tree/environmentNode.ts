import * as vscode from 'vscode';
import { EnvironmentStatus } from '../services/environmentModel';
import { describeSandboxProblem, type SandboxStatus } from '../services/localSandbox';
import { TreeNode } from './node';
import { DetailNode } from './detailNode';
import { KeyNode } from './keyNode';

/**
 * An environment row: "Local", "Sandbox", "Production". Description marks the default and the active
 * one; Production's icon is in the warning colour; Local shows a crashed sandbox process (error icon, reason in the
 * tooltip and in a "Local sandbox" child row). contextValue is `environment[.remote][.active]`.
 */
export class EnvironmentNode implements TreeNode {
  /**
   * @param status the environment's setup state, rendered as this row and its detail rows.
   * @param folders Connection, Registrations, Motor-club registrations and Request history: the provider's own
   *   instances, kept across redraws so that a change redraws one folder (`onDidChangeTreeData.fire(folder)`).
   * @param sandbox the Local sandbox process's state (Local only).
   */
  constructor(
    readonly status: EnvironmentStatus,
    private readonly folders: readonly TreeNode[] = [],
    private readonly sandbox?: SandboxStatus,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const { info, active, isDefault, gaps } = this.status;
    const item = new vscode.TreeItem(info.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `environment:${info.id}`;
    const problem = this.sandbox && describeSandboxProblem(this.sandbox);
    const tags = [isDefault ? 'default' : '', active ? 'active' : '', gaps.length ? 'needs setup' : '', problem ? 'sandbox crashed' : ''].filter(Boolean);
    item.description = tags.join(' · ');
    item.tooltip = new vscode.MarkdownString(`**${info.label}**${active ? ' (active)' : ''}\n\n${info.description}`);
    if (problem) item.tooltip.appendText(`\n\n${problem}`);
    const color = info.guarded ? new vscode.ThemeColor('list.warningForeground') : active ? new vscode.ThemeColor('charts.green') : undefined;
    item.iconPath = problem ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')) : new vscode.ThemeIcon(active ? 'pass-filled' : info.remote ? 'cloud' : 'vm', color);
    item.contextValue = ['environment', info.remote ? 'remote' : '', active ? 'active' : ''].filter(Boolean).join('.');
    return item;
  }

  children(): TreeNode[] {
    const { info, hasKey, key, partnerId, baseUrl } = this.status;
    const nodes: TreeNode[] = [];
    if (key) {
      nodes.push(new KeyNode(this.status, key.signing, 'signing'));
      if (key.pending) nodes.push(new KeyNode(this.status, key.pending, 'pending'));
    } else if (hasKey) {
      nodes.push(new DetailNode(`${info.id}:key`, 'Key pair', 'unreadable — delete it and generate a new one', 'warning', { command: 'tpp.deleteKey', title: 'Delete Key', arguments: [info.id] }));
    } else {
      nodes.push(
        new DetailNode(`${info.id}:key`, 'Key pair', 'none — click to generate', 'warning', {
          command: 'tpp.generateKeyPair',
          title: 'Generate Key Pair',
          arguments: [info.id],
        }),
      );
    }
    if (info.remote) {
      nodes.push(
        partnerId
          ? new DetailNode(`${info.id}:partner`, 'Partner ID', partnerId, 'account')
          : new DetailNode(`${info.id}:partner`, 'Partner ID', 'not set — click to enter', 'warning', {
              command: 'tpp.setPartnerId',
              title: 'Set Partner ID',
              arguments: [info.id],
            }),
        new DetailNode(`${info.id}:url`, 'Base address', baseUrl || `not set (setting tpp.${info.id}.baseUrl)`, baseUrl ? 'globe' : 'warning'),
        new DetailNode(`${info.id}:eligibility`, 'Eligibility token', this.status.hasEligibilityToken ? 'stored in secret storage' : 'not set (only for the retired lookup)', 'lock', {
          command: 'tpp.setEligibilityToken',
          title: 'Set Eligibility Token',
          arguments: [info.id],
        }),
      );
    } else {
      nodes.push(new DetailNode(`${info.id}:partner`, 'Partner ID', 'generated on first use', 'account'));
      if (this.sandbox) nodes.push(sandboxRow(info.id, this.sandbox));
    }
    nodes.push(...this.folders);
    return nodes;
  }
}

/** The "Local sandbox" row: its process state, with the reason when it crashed. */
function sandboxRow(env: string, s: SandboxStatus): DetailNode {
  const text: Record<SandboxStatus['state'], string> = {
    stopped: 'not started (starts on first use)',
    starting: 'starting…',
    running: `running${s.pid ? ` (process ${s.pid})` : ''}`,
    crashed: `crashed — ${s.reason ?? 'no reason logged'}; starts again on the next use`,
  };
  return new DetailNode(`${env}:sandbox`, 'Local sandbox', text[s.state], s.state === 'crashed' ? 'warning' : 'server-process');
}
