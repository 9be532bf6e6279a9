import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { ClaimNode } from './claimNode';
import { ErrorNode } from './errorNode';
import type { RegistrationsModel } from '../services/registrationsModel';
import { day } from './format';
import { describeFailure } from './describeFailure';
import { TreeNode } from './node';
import { RegistrationRow, RegistrationState, rowText, STATE_CONTEXT } from '../../core/listing/registrationPages';

/** Icon and colour per state. */
const ICONS: Readonly<Record<RegistrationState, [string, string | undefined]>> = {
  Active: ['pass', 'testing.iconPassed'],
  Cancelled: ['circle-slash', 'errorForeground'],
  Expired: ['history', 'disabledForeground'],
  'No tires left': ['circle-large-outline', 'list.warningForeground'],
  'Not cancelled': ['circle-outline', undefined],
};

/** Text of one value for a tooltip line. */
function show(v: unknown): string {
  return v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * A tire-protection registration: label = invoice number; description = enroll date · state · tires available;
 * an icon per state (Active, Cancelled, Expired, No tires left; "Not cancelled" until its metadata is read, when the
 * row is expanded); tooltip with the metadata. Children: its claims (read with the registration). contextValue
 * `registration.<active|cancelled|expired|noTiresLeft|open>`: File Claim and Cancel are offered by it.
 * The folder keeps one instance per registration, so a change of that registration redraws this row alone.
 */
export class RegistrationNode implements TreeNode {
  readonly kind = 'registration';
  constructor(
    private readonly registrations: RegistrationsModel,
    readonly env: EnvironmentId,
    public row: RegistrationRow,
    /** Unique in the folder: the `_id`, or a key of the content for a row the server sent without one. */
    readonly key: string = rowText(row, '_id'),
    /** Why the row carries a warning icon (the server repeated it, or sent it without `_id`). */
    public warning?: string,
  ) {}

  /** The registration `_id`. */
  get id(): string {
    return rowText(this.row, '_id');
  }

  get invoiceNumber(): string {
    return rowText(this.row, 'invoiceNumber');
  }

  toTreeItem(): vscode.TreeItem {
    const { record } = this.row;
    const { state, metadata, metadataError } = this.registrations.stateOf(this.env, this.row);
    // Without an _id there is nothing to read by id: no children.
    const item = new vscode.TreeItem(this.invoiceNumber || '(no invoice number)', this.id ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `${this.env}:registration:${this.key}`;
    const tires = metadata?.availableTiresCount;
    item.description = [day(metadata?.enrollDate ?? record.enrollDate), state, tires !== undefined ? `${tires} tire${tires === 1 ? '' : 's'} available` : ''].filter(Boolean).join(' · ');
    const [icon, color] = this.warning ? ['warning', 'list.warningForeground'] : ICONS[state];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    const lines = [`Registration ${this.invoiceNumber} — ${state}`, `_id: ${this.id || '(none)'}`, ...(this.warning ? [this.warning] : [])];
    if (typeof record.cancelledOn === 'string') lines.push(`cancelledOn: ${record.cancelledOn}`);
    if (metadata) for (const k of ['enrollDate', 'expirationDate', 'claimedTiresCount', 'availableTiresCount', 'hasTiresToClaim', 'hasTiresToReplace', 'isActive'] as const) lines.push(`${k}: ${show(metadata[k])}`);
    if (metadataError) lines.push(`metadata not available: ${metadataError}`);
    item.tooltip = lines.join('\n');
    if (state === 'Not cancelled') lines.push('Expand to read its claims, state and tires available.');
    item.contextValue = `registration.${STATE_CONTEXT[state]}`;
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    return item;
  }

  async children(): Promise<TreeNode[]> {
    try {
      const reg = (await this.registrations.registrationDetails(this.env, this.id)).registration;
      const claims = Array.isArray(reg.claims) ? reg.claims : [];
      if (claims.length === 0) return [new NoClaimsNode()];
      return claims.map((c, i) => new ClaimNode(this.env, this.id, (c ?? {}) as Record<string, unknown>, i));
    } catch (err) {
      return [new ErrorNode(describeFailure(err, this.env), { command: 'tpp.refreshRegistrations', title: 'Retry', arguments: [this.env, 'tire-protection'] })];
    }
  }
}

/** "No claims": without an item id, like every leaf under a registration (see ClaimNode). */
class NoClaimsNode implements TreeNode {
  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('No claims', vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon('info');
    item.contextValue = 'info';
    return item;
  }
}
