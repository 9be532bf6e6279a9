import * as vscode from 'vscode';
import { isPayloadText } from '../core/diagnostics/payload';
import { EnvironmentModel } from './services/environmentModel';
import { describeSandboxProblem, type LocalSandbox } from './services/localSandbox';

/** Setting: show the environment in the status bar at all (`tpp.statusBar.show`). */
export const STATUS_BAR_SETTING = 'statusBar.show';

/** True for an editor of ours: a payload file or a flow (`.http`, `.rest`). */
export function isOwnEditor(editor: vscode.TextEditor | undefined): boolean {
  const doc = editor?.document;
  if (!doc) return false;
  return doc.languageId === 'http' || ((doc.languageId === 'json' || doc.languageId === 'jsonc') && isPayloadText(doc.getText(), doc.uri.path));
}

/**
 * Status-bar item "$(server-environment) TPP: <environment>" that opens the environment quick pick.
 * Production is shown on the warning background; a crashed Local sandbox (while Local is active) on the error
 * background, with the reason in the tooltip; when that is a taken `tpp.local.port`, a click offers Set Local Port….
 * Shown only while one of `views` is visible or a payload file or flow is the active editor (VS Code's UX
 * guidelines: status bar items for the context they belong to), or while the sandbox has a problem to report;
 * never when `tpp.statusBar.show` is off.
 */
export class EnvironmentStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly model: EnvironmentModel,
    private readonly localSandbox?: LocalSandbox,
    private readonly views: readonly vscode.TreeView<unknown>[] = [],
  ) {
    this.item = vscode.window.createStatusBarItem('tpp.environment', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Tire Protection Environment';
    this.item.command = 'tpp.selectEnvironment';
    const update = () => void this.update();
    this.subscription = vscode.Disposable.from(
      model.onDidChange(update),
      localSandbox?.onDidChangeState(update) ?? { dispose() {} },
      vscode.window.onDidChangeActiveTextEditor(update),
      vscode.workspace.onDidSaveTextDocument(update),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`tpp.${STATUS_BAR_SETTING}`) && update()),
      ...views.map((v) => v.onDidChangeVisibility(update)),
    );
    void this.update();
  }

  /** Whether the item belongs on screen now (see the class comment). */
  private wanted(problem: boolean): boolean {
    if (!vscode.workspace.getConfiguration('tpp').get<boolean>(STATUS_BAR_SETTING, true)) return false;
    return problem || this.views.some((v) => v.visible) || isOwnEditor(vscode.window.activeTextEditor);
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
    if (this.wanted(problem !== undefined)) this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

export function describeGap(gap: string): string {
  return gap === 'key' ? 'a key pair' : gap === 'partnerId' ? 'a Partner ID' : 'the base address (setting)';
}
