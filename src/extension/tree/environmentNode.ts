import * as vscode from 'vscode';
import { EnvironmentStatus } from '../services/environmentModel';
import { describeSandboxProblem, type SandboxStatus } from '../services/localSandbox';
import { describeGap } from '../statusBar';
import { TreeNode } from './node';
import { DetailNode } from './detailNode';
import { AddressNode } from './addressNode';
import { PartnerIdNode } from './partnerIdNode';
import type { SandboxAddresses } from '../../core/sandbox/addresses';
import { KeyNode } from './keyNode';

/** What the Local row shows of its sandbox: the process state, the chosen port and the addresses (when known). */
export interface LocalView {
  readonly status: SandboxStatus;
  /** `tpp.local.port` (0 = any free port). */
  readonly port: number;
  readonly addresses?: SandboxAddresses;
}

/**
 * An environment row: "Local", "Sandbox", "Production". One state decides icon and description
 * ({@link EnvironmentStatus.state}): an environment that needs setup shows a warning icon and "needs setup" (never
 * a green check); a ready active one the green check; Production is in the warning colour; a crashed Local sandbox
 * shows the error icon (reason in the tooltip and in a "Local sandbox" child row). contextValue is
 * `environment[.remote][.active].(ready|needsSetup).(noKey|withKey[.rotating])`.
 */
export class EnvironmentNode implements TreeNode {
  /**
   * @param status the environment's setup state, rendered as this row and its detail rows.
   * @param folders Connection, Registrations, Motor-club registrations and Request history: the provider's own
   *   instances, kept across redraws so that a change redraws one folder (`onDidChangeTreeData.fire(folder)`).
   * @param local the Local sandbox's state, port and addresses (Local only).
   */
  constructor(
    readonly status: EnvironmentStatus,
    private readonly folders: readonly TreeNode[] = [],
    private readonly local?: LocalView,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const { info, active, isDefault, state, gaps } = this.status;
    const item = new vscode.TreeItem(info.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `environment:${info.id}`;
    const problem = this.local && describeSandboxProblem(this.local.status);
    const needsSetup = state === 'needsSetup';
    const tags = [isDefault ? 'default' : '', active ? 'active' : '', needsSetup ? 'needs setup' : '', problem ? (this.local?.status.portInUse ? 'port taken' : 'sandbox crashed') : ''].filter(Boolean);
    item.description = tags.join(' · ');
    item.tooltip = new vscode.MarkdownString(`**${info.label}**${active ? ' (active)' : ''}\n\n${info.description}`);
    if (needsSetup) item.tooltip.appendText(`\n\nStill needed: ${gaps.map(describeGap).join(', ') || 'a readable key pair'}. Right-click › Configure Environment…`);
    if (problem) item.tooltip.appendText(`\n\n${problem}`);
    item.iconPath = problem
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
      : needsSetup
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
        : new vscode.ThemeIcon(active ? 'pass-filled' : info.remote ? 'cloud' : 'vm', info.guarded ? new vscode.ThemeColor('list.warningForeground') : active ? new vscode.ThemeColor('charts.green') : undefined);
    // The key's state, so that the key actions of the menus (package.json) follow it as the registrations' follow theirs.
    const keyState = !this.status.hasKey ? 'noKey' : this.status.key?.pending ? 'withKey.rotating' : 'withKey';
    item.contextValue = ['environment', info.remote ? 'remote' : '', active ? 'active' : '', state, keyState].filter(Boolean).join('.');
    item.accessibilityInformation = { label: [info.label, item.description].filter(Boolean).join(', ') };
    return item;
  }

  children(): TreeNode[] {
    const { info, hasKey, key, partnerId, baseUrl } = this.status;
    const nodes: TreeNode[] = [];
    const setup = this.status.setup;
    const done = setup.filter((it) => it.state !== 'missing').length;
    const configure = { command: 'tpp.configureEnvironment', title: 'Configure Environment…', arguments: [info.id] };
    nodes.push(
      new DetailNode(
        `${info.id}:setup`,
        'Setup',
        this.status.done ? 'complete' : `${done} of ${setup.length} done — ${setup.filter((it) => it.state === 'missing').map((it) => it.title[0]?.toLowerCase() + it.title.slice(1)).join(', ')} missing; click to configure`,
        this.status.done ? 'pass' : this.status.state === 'needsSetup' ? 'warning' : 'checklist',
        configure,
      ),
    );
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
          ? new PartnerIdNode(info.id, partnerId)
          : new DetailNode(`${info.id}:partner`, 'Partner ID', 'not set — click to enter', 'warning', {
              command: 'tpp.setPartnerId',
              title: 'Set Partner ID',
              arguments: [info.id],
            }),
        new DetailNode(`${info.id}:url`, 'Base address', baseUrl || `not set (setting tpp.${info.id}.baseUrl) — click to enter`, baseUrl ? 'globe' : 'warning', {
          ...configure,
          arguments: [info.id, { item: 'baseUrl' }],
        }),
        new DetailNode(`${info.id}:eligibility`, 'Eligibility token', this.status.hasEligibilityToken ? 'stored in secret storage' : 'not set (only for the retired lookup)', 'lock', {
          command: 'tpp.setEligibilityToken',
          title: 'Set Eligibility Token',
          arguments: [info.id],
        }),
      );
    } else {
      nodes.push(partnerId ? new PartnerIdNode(info.id, partnerId, 'generated for the embedded sandbox') : new DetailNode(`${info.id}:partner`, 'Partner ID', 'generated by the embedded sandbox', 'account'));
      if (this.local) nodes.push(...localRows(info.id, this.local));
    }
    nodes.push(...this.folders);
    return nodes;
  }
}

/**
 * The Local address rows (v3, v2, eligibility, each with Copy Address), or one row saying why there is none yet
 * (port 0 before the start) or that the chosen port is taken (click: Set Local Port…); then the process row.
 */
function localRows(env: string, local: LocalView): TreeNode[] {
  const setPort = { command: 'tpp.setLocalPort', title: 'Set Local Port…' };
  const rows: TreeNode[] = [];
  if (local.status.portInUse) {
    rows.push(new DetailNode(`${env}:url`, 'Base address', `port ${local.status.portInUse} is in use by another program — click to choose another port or any free port`, 'warning', setPort));
  } else if (local.addresses) {
    const fixed = local.port > 0 ? `The same in every session (tpp.local.port = ${local.port}).` : 'Port 0 (any free port): it changes when the sandbox starts again.';
    rows.push(
      new AddressNode(`${env}:url`, 'Base address (v3)', local.addresses.v3BaseUrl, `${fixed} Also the v3 JWT aud (TPP_BASE_URL).`),
      new AddressNode(`${env}:v2url`, 'v2 address', local.addresses.v2BaseUrl, `${fixed} Also the v2 JWT aud (TPP_V2_BASE_URL).`),
      new AddressNode(`${env}:eligibilityUrl`, 'Eligibility address', local.addresses.eligibilityBaseUrl, `${fixed} The retired eligibility lookup.`),
    );
  } else {
    rows.push(new DetailNode(`${env}:url`, 'Base address', 'any free port (tpp.local.port = 0): known once the sandbox starts — click to choose a fixed port', 'globe', setPort));
  }
  rows.push(sandboxRow(env, local.status));
  return rows;
}

/** The "Local sandbox" row: its process state, with the reason when it crashed (or the taken port it did not start on). */
function sandboxRow(env: string, s: SandboxStatus): DetailNode {
  if (s.portInUse) {
    return new DetailNode(`${env}:sandbox`, 'Local sandbox', `not started — port ${s.portInUse} is in use by another program; click to choose another port`, 'warning', { command: 'tpp.setLocalPort', title: 'Set Local Port…' });
  }
  const text: Record<SandboxStatus['state'], string> = {
    stopped: 'not started (starts on first use)',
    starting: 'starting…',
    running: `running${s.pid ? ` (process ${s.pid})` : ''}`,
    crashed: `crashed — ${s.reason ?? 'no reason logged'}; starts again on the next use`,
  };
  return new DetailNode(`${env}:sandbox`, 'Local sandbox', text[s.state], s.state === 'crashed' ? 'warning' : 'server-process');
}
