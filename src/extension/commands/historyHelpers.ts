import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { HistoryEntry, historyLabel } from '../../core/history/history';
import { CommandDef, UserCancelled } from './registry';

/** The history entry of a command argument: a history node's `entry`, or the id of a recorded request. */
export function entryOf(services: Parameters<CommandDef['run']>[0], arg: unknown): HistoryEntry | undefined {
  const e = (arg as { entry?: HistoryEntry } | undefined)?.entry;
  if (e) return e;
  if (typeof arg === 'string') return services.history.get(arg);
  return undefined;
}

/** Asks for a re-sendable recorded request of `env` in a quick pick. Throws {@link UserCancelled}. */
export async function pickEntry(services: Parameters<CommandDef['run']>[0], env: EnvironmentId, title: string): Promise<HistoryEntry> {
  const items = services.history
    .list(env)
    .filter((e) => e.replay)
    .map((e) => ({ label: historyLabel(e), description: e.exchange?.title ?? '', e }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: items.length ? 'Request' : 'No re-sendable request yet' });
  if (!picked) throw new UserCancelled();
  return picked.e;
}
