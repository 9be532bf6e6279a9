import * as vscode from 'vscode';
import { listEnvironments } from '../core/environments';
import { EnvironmentModel } from './services/environmentModel';

/**
 * Keeps the context keys behind the "Get Started" view's `viewsWelcome` content in step with the active
 * environment's one setup state ({@link EnvironmentModel.status}): `tpp.activeEnvironment` (the id),
 * `tpp.activeEnvironmentNeedsSetup` (a prerequisite is missing: the same state that puts "needs setup" and the
 * warning icon on the tree row), and `tpp.activeEnvironmentMissingKey`, `…MissingPartnerId`, `…MissingBaseUrl`
 * (one welcome line per missing item); `tpp.keyRotationPending` (some environment has a rotation to confirm or cancel:
 * the palette's `when` of Confirm/Cancel Key Rotation…).
 */
export function trackSetupContext(model: EnvironmentModel): vscode.Disposable {
  const update = async () => {
    const status = await model.status(model.active.get());
    const set = (key: string, value: unknown) => vscode.commands.executeCommand('setContext', key, value);
    await Promise.all([
      set('tpp.activeEnvironment', status.info.id),
      set('tpp.activeEnvironmentMissingKey', status.gaps.includes('key')),
      set('tpp.activeEnvironmentMissingPartnerId', status.gaps.includes('partnerId')),
      set('tpp.activeEnvironmentMissingBaseUrl', status.gaps.includes('baseUrl')),
      set('tpp.activeEnvironmentNeedsSetup', status.state === 'needsSetup'),
      Promise.all(listEnvironments().map((e) => model.status(e.id))).then((all) => set('tpp.keyRotationPending', all.some((s) => s.key?.pending !== undefined))),
    ]);
  };
  void update();
  return model.onDidChange(() => void update());
}
