import * as vscode from 'vscode';
import { EnvironmentModel } from './services/environmentModel';

/**
 * Status-bar item "$(server-environment) TPP: <environment>" that opens the environment quick pick.
 * Production is shown on the warning background.
 */
export class EnvironmentStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly model: EnvironmentModel) {
    this.item = vscode.window.createStatusBarItem('tpp.environment', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Tire Protection Environment';
    this.item.command = 'tpp.selectEnvironment';
    this.subscription = model.onDidChange(() => void this.update());
    void this.update();
    this.item.show();
  }

  private async update(): Promise<void> {
    const status = await this.model.status(this.model.active.get());
    const { label, guarded } = status.info;
    this.item.text = `$(server-environment) TPP: ${label}`;
    this.item.backgroundColor = guarded ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const needs = status.gaps.length ? `\n\nStill needed: ${status.gaps.map(describeGap).join(', ')}.` : '';
    this.item.tooltip = `Tire Protection: requests go to ${label}. Click to switch environment.${needs}`;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

export function describeGap(gap: string): string {
  return gap === 'key' ? 'a key pair' : gap === 'partnerId' ? 'a Partner ID' : 'the base address (setting)';
}
