import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import type { Exchange } from '../../core/exchange/types';
import { HistoryEntry, historyLabel } from '../../core/history/history';
import type { HistoryModel } from '../services/historyModel';
import { UserCancelled } from '../services/userCancelled';
import { treeArgOf } from './treeArgs';

/** What the history helpers read. */
type WithHistory = { readonly history: HistoryModel };

/** The history entry of a command argument: a history node's `entry`, or the id of a recorded request. */
export function entryOf(services: WithHistory, arg: unknown): HistoryEntry | undefined {
  if (typeof arg === 'string') return services.history.get(arg);
  const t = treeArgOf(arg);
  return t?.node === 'history' ? t.entry : undefined;
}

/** The exchange of a command argument: an exchange or a row holding one, a history row, or the id of a recorded request. */
export function exchangeOfArg(services: WithHistory, arg: unknown): Exchange | undefined {
  if (typeof arg === 'string') return services.history.get(arg)?.exchange;
  const row = treeArgOf(arg);
  return row?.node === 'exchange' ? row.exchange : row?.node === 'history' ? row.entry.exchange : undefined;
}

/** Asks for a re-sendable recorded request of `env` in a quick pick. Throws {@link UserCancelled}. */
export async function pickEntry(services: WithHistory, env: EnvironmentId, title: string): Promise<HistoryEntry> {
  const items = services.history
    .list(env)
    .filter((e) => e.replay)
    .map((e) => ({ label: historyLabel(e), description: e.exchange?.title ?? '', e }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: items.length ? 'Request' : 'No re-sendable request yet' });
  if (!picked) throw new UserCancelled();
  return picked.e;
}
