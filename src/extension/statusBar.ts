import * as vscode from 'vscode';
import { EnvironmentModel } from './services/environmentModel';
import { describeSandboxProblem, type LocalSandbox } from './services/localSandbox';

/**
 * Status-bar item "$(server-environment) TPP: <environment>" that opens the environment quick pick.
 * Production is shown on the warning background; a crashed Local sandbox (while Local is active) on the error
 * background, with the reason in the tooltip; when that is a taken `tpp.local.port`, a click offers Set Local Port….
 */
export class EnvironmentStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly model: EnvironmentModel,
    private readonly localSandbox?: LocalSandbox,
  ) {
    this.item = vscode.window.createStatusBarItem('tpp.environment', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Tire Protection Environment';
    this.item.command = 'tpp.selectEnvironment';
    const update = () => void this.update();
    this.subscription = vscode.Disposable.from(model.onDidChange(update), localSandbox?.onDidChangeState(update) ?? { dispose() {} });
    void this.update();
    this.item.show();
  }

  private async update(): Promise<void> {
    const status = await this.model.status(this.model.active.get());
    const { label, guarded } = status.info;
    const problem = status.info.id === 'local' && this.localSandbox ? describeSandboxProblem(this.localSandbox.status) : undefined;
    const needsSetup = status.state === 'needsSetup';
    const portTaken = problem !== undefined && this.localSandbox?.status.portInUse !== undefined;
    this.item.command = portTaken ? 'tpp.setLocalPort' : 'tpp.selectEnvironment';
    this.item.text = problem ? `$(error) TPP: ${label} (${portTaken ? 'port taken' : 'sandbox crashed'})` : needsSetup ? `$(warning) TPP: ${label} (needs setup)` : `$(server-environment) TPP: ${label}`;
    this.item.backgroundColor = problem
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : guarded
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    const needs = needsSetup ? `\n\nStill needed: ${status.gaps.map(describeGap).join(', ') || 'a readable key pair'} (Tire Protection: Configure Environment…).` : '';
    const click = portTaken ? 'Click to choose another port or any free port.' : 'Click to switch environment.';
    this.item.tooltip = `Tire Protection: requests go to ${label}. ${click}${needs}${problem ? `\n\n${problem}` : ''}`;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

export function describeGap(gap: string): string {
  return gap === 'key' ? 'a key pair' : gap === 'partnerId' ? 'a Partner ID' : 'the base address (setting)';
}
