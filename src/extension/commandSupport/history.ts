import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import type { Exchange } from '../../core/exchange/types';
import { HistoryEntry, historyLabel } from '../../core/history/history';
import type { HistoryModel } from '../services/historyModel';
import { UserCancelled } from '../services/userCancelled';
import { treeArgOf } from './treeArgs';

/** What the history helpers read. */
type WithHistory = { readonly history: HistoryModel };

/**
 * A recorded request a command argument names: the id of a history entry, a history row (`row`: the row as passed,
 * for a command it is handed on to), or an exchange (an Integration Log row, or a row holding one: the response view).
 */
export type RecordedRef =
  | { readonly node: 'entryId'; readonly id: string }
  | { readonly node: 'history'; readonly entry: HistoryEntry; readonly row: unknown }
  | { readonly node: 'exchange'; readonly exchange: Exchange };

/** The {@link RecordedRef} of a command argument, `undefined` when it names none. */
export function recordedRefOf(arg: unknown): RecordedRef | undefined {
  if (typeof arg === 'string') return { node: 'entryId', id: arg };
  const t = treeArgOf(arg);
  if (t?.node === 'history') return { node: 'history', entry: t.entry, row: arg };
  return t?.node === 'exchange' ? { node: 'exchange', exchange: t.exchange } : undefined;
}

/** The history entry a reference names: a history row's `entry`, or the recorded request of an id. */
export function entryOf(services: WithHistory, ref: RecordedRef | undefined): HistoryEntry | undefined {
  if (ref?.node === 'entryId') return services.history.get(ref.id);
  return ref?.node === 'history' ? ref.entry : undefined;
}

/** The exchange a reference names: the exchange, a history row's, or the recorded request's of an id. */
export function exchangeOfArg(services: WithHistory, ref: RecordedRef | undefined): Exchange | undefined {
  if (ref?.node === 'entryId') return services.history.get(ref.id)?.exchange;
  return ref?.node === 'exchange' ? ref.exchange : ref?.node === 'history' ? ref.entry.exchange : undefined;
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
