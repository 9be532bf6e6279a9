import * as vscode from 'vscode';
import { EnvironmentModel } from './services/environmentModel';

/**
 * Keeps the context keys behind the "Get Started" view's `viewsWelcome` content in step with the
 * active environment: `tpp.activeEnvironmentNeedsSetup`, `tpp.activeEnvironmentMissingKey`,
 * `tpp.activeEnvironmentMissingPartnerId` and `tpp.activeEnvironment` (the id).
 */
export function trackSetupContext(model: EnvironmentModel): vscode.Disposable {
  const update = async () => {
    const status = await model.status(model.active.get());
    const set = (key: string, value: unknown) => vscode.commands.executeCommand('setContext', key, value);
    await Promise.all([
      set('tpp.activeEnvironment', status.info.id),
      set('tpp.activeEnvironmentMissingKey', status.gaps.includes('key')),
      set('tpp.activeEnvironmentMissingPartnerId', status.gaps.includes('partnerId')),
      set('tpp.activeEnvironmentNeedsSetup', status.gaps.includes('key') || status.gaps.includes('partnerId')),
    ]);
  };
  void update();
  return model.onDidChange(() => void update());
}
