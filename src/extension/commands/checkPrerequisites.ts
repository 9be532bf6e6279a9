import * as vscode from 'vscode';
import { ENVIRONMENTS, isEnvironmentId } from '../../core/environments';
import { missingPrerequisites } from '../services/environmentSetup';
import type { PrerequisiteCheck } from '../send/productionGuard';
import { fieldsArg, textArg } from '../commandSupport/args';
import { defineCommand } from './registry';

/**
 * `tpp.checkPrerequisites` (internal; the guard in front of every request): whether the environment (argument, else
 * the active one) has its base address, Partner ID and key pair. With `notify`, a failed check shows one error
 * message that lists every missing item with a "Configure Environment…" button. Resolves to a PrerequisiteCheck.
 */
export const checkPrerequisites = defineCommand({
  id: 'tpp.checkPrerequisites',
  needs: ['environments'],
  args: ([arg, opts]) => ({ named: isEnvironmentId(arg) ? arg : undefined, notify: textArg(fieldsArg(opts).notify) }),
  async run(services, { named, notify }) {
    const env = named ?? services.environments.active.get();
    const status = await services.environments.status(env);
    const missing = missingPrerequisites(status.setup).map((it) => it.title);
    const check: PrerequisiteCheck = { env, ok: missing.length === 0, missing };
    if (!check.ok && notify) {
      const label = ENVIRONMENTS[env].label;
      void vscode.window
        .showErrorMessage(`Not sent to ${label} (${notify}): ${label} is not set up yet. Missing: ${missing.join(', ')}.`, 'Configure Environment…')
        .then((choice) => (choice ? vscode.commands.executeCommand('tpp.configureEnvironment', env) : undefined));
    }
    return check;
  },
});
