import * as vscode from 'vscode';
import { EnvironmentId, isEnvironmentId } from '../../core/environments';
import { EnvironmentModel } from '../services/environmentModel';
import { UserCancelled } from './registry';
import { describeGap } from '../statusBar';

interface EnvironmentPick extends vscode.QuickPickItem {
  readonly id: EnvironmentId;
}

/**
 * The environment a command acts on: taken from its argument (a tree node's environment id or an
 * `EnvironmentNode`), otherwise asked with a quick pick. Throws {@link UserCancelled} when dismissed.
 */
export async function pickEnvironment(model: EnvironmentModel, arg: unknown, title: string, filter?: (id: EnvironmentId) => boolean): Promise<EnvironmentId> {
  const fromArg = environmentOf(arg);
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

/** Extracts an environment id from a command argument (a string id or an object with `status.info.id`). */
export function environmentOf(arg: unknown): EnvironmentId | undefined {
  if (isEnvironmentId(arg)) return arg;
  const id = (arg as { status?: { info?: { id?: unknown } } } | undefined)?.status?.info?.id;
  return isEnvironmentId(id) ? id : undefined;
}
