import * as vscode from 'vscode';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import type { HistoryModel } from '../services/historyModel';
import type { SandboxStatus } from '../services/localSandbox';
import { TreeNode } from './node';

/** Description, icon and colour per connection state. */
function look(state: ReturnType<HistoryModel['connection']>): [string, string, string | undefined] {
  switch (state.kind) {
    case 'unknown':
      return ['not checked yet — click to verify', 'plug', undefined];
    case 'unreachable':
      return [`unreachable (${state.error}) at ${state.time.slice(11, 19)}`, 'debug-disconnect', 'errorForeground'];
    case 'unauthorized':
      return [`token rejected (401) at ${state.time.slice(11, 19)}`, 'error', 'errorForeground'];
    case 'server-error':
      return [`server error ${state.status} at ${state.time.slice(11, 19)}`, 'warning', 'list.warningForeground'];
    default:
      return [`answering — last status ${state.status} at ${state.time.slice(11, 19)}`, 'pass', 'testing.iconPassed'];
  }
}

/**
 * What the Local sandbox's state says over the history (docs/sandbox.md): its latest answer tells nothing once the
 * process is not running. Undefined while it runs.
 */
function sandboxLook(status: SandboxStatus, last: ReturnType<HistoryModel['connection']>): [string, string, string | undefined] | undefined {
  const before = last.kind === 'unknown' ? '' : ` (last ${last.kind === 'unreachable' ? 'request unreachable' : `status ${last.status}`} at ${last.time.slice(11, 19)})`;
  switch (status.state) {
    case 'running':
      return undefined;
    case 'starting':
      return ['Local sandbox starting…', 'loading~spin', undefined];
    case 'stopped':
      return last.kind === 'unknown' ? undefined : [`Local sandbox not running — it starts on the next use of Local${before}`, 'debug-disconnect', undefined];
    default:
      return status.portInUse
        ? [`not answering: port ${status.portInUse} is taken by another program — Set Local Port…${before}`, 'debug-disconnect', 'errorForeground']
        : [`not answering: the Local sandbox stopped (${status.reason ?? 'no reason logged'}) — it starts again on the next use${before}`, 'debug-disconnect', 'errorForeground'];
  }
}

/**
 * "Connection" under an environment: the outcome of its latest request — answered (status and time), token rejected
 * (401), server error (5xx) or unreachable — or "not checked yet". The editor's requests count, and on Local the
 * answers of every other client too (your application, flows, backfills: the Integration Log). On Local, the sandbox's state
 * comes first: starting, not running, or stopped with its reason (a port another program holds: click for Set Local
 * Port…). Click: Verify Connection. Redrawn when that environment's history or the Local sandbox's state changes.
 */
export class ConnectionNode implements TreeNode {
  constructor(
    private readonly history: HistoryModel,
    readonly env: EnvironmentId,
    /** The Local sandbox's state (the Local row only). */
    private readonly sandbox?: () => SandboxStatus,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Connection', vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:connection`;
    const last = this.history.connection(this.env);
    const status = this.sandbox?.();
    const fromSandbox = status && sandboxLook(status, last);
    const [description, icon, color] = fromSandbox ?? look(last);
    item.description = description;
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    const source = fromSandbox ? 'From the state of the Local sandbox.' : this.sandbox ? 'From the latest request of the editor or of any client (Integration Log).' : 'From the latest request in the history.';
    item.tooltip = `${ENVIRONMENTS[this.env].label}: ${description}\n${source} Click to verify the connection now.`;
    item.command = status?.portInUse
      ? { command: 'tpp.setLocalPort', title: 'Set Local Port…' }
      : { command: 'tpp.verifyConnection', title: 'Verify Connection', arguments: [this.env] };
    item.contextValue = 'connection';
    item.accessibilityInformation = { label: `Connection, ${description}` };
    return item;
  }
}
