import * as vscode from 'vscode';
import type { EnvironmentId } from '../../core/environments';
import type { EnvironmentModel } from '../services/environmentModel';
import { UserCancelled } from '../services/userCancelled';
import { describeGap } from '../statusBar';
import { envOf } from './treeArgs';
import type { EnvTarget } from './args';

interface EnvironmentPick extends vscode.QuickPickItem {
  readonly id: EnvironmentId;
}

/**
 * The environment a command acts on: taken from its argument (a tree node's environment id or an
 * `EnvironmentNode`), otherwise asked with a quick pick. Throws {@link UserCancelled} when dismissed.
 */
export async function pickEnvironment(model: EnvironmentModel, arg: unknown, title: string, filter?: (id: EnvironmentId) => boolean): Promise<EnvironmentId> {
  const fromArg = envOf(arg);
  if (fromArg && (!filter || filter(fromArg))) return fromArg;
  const statuses = (await model.all()).filter((s) => !filter || filter(s.info.id));
  const items: EnvironmentPick[] = statuses.map((s) => ({
    id: s.info.id,
    label: `${s.active ? '$(pass-filled)' : s.info.remote ? '$(cloud)' : '$(vm)'} ${s.info.label}`,
    description: [s.isDefault ? 'default' : '', s.active ? 'active' : ''].filter(Boolean).join(' · '),
    detail: s.gaps.length ? `${s.info.description} Still needed: ${s.gaps.map(describeGap).join(', ')}.` : s.info.description,
  }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Choose an environment' });
  if (!picked) throw new UserCancelled();
  return picked.id;
}

/**
 * The environment of a command whose argument decoded to `target` (commandSupport/args.ts): the named one, the active
 * one when none was given, else asked; an environment `filter` refuses is asked for too. Throws {@link UserCancelled}.
 */
export function environmentOf(model: EnvironmentModel, target: EnvTarget, title: string, filter?: (id: EnvironmentId) => boolean): Promise<EnvironmentId> {
  return pickEnvironment(model, target === 'ask' ? undefined : (target ?? model.active.get()), title, filter);
}

/** A `vscode.Uri` argument, else `undefined`. */
export function uriArg(v: unknown): vscode.Uri | undefined {
  return v instanceof vscode.Uri ? v : undefined;
}
