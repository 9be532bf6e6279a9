import * as vscode from 'vscode';
import type { Exchange } from '../../core/exchange/types';
import type { HistoryEntry } from '../../core/history/history';
import { CommandDef } from './registry';

/** The exchange of a command argument: an exchange, a history node (`entry.exchange`), an entry, or an entry id. */
export function exchangeOfArg(services: Parameters<CommandDef['run']>[0], arg: unknown): Exchange | undefined {
  if (typeof arg === 'string') return services.history.get(arg)?.exchange;
  const a = arg as { request?: unknown; entry?: HistoryEntry; exchange?: Exchange } | undefined;
  if (a?.request && typeof a.request === 'object') return a as unknown as Exchange;
  return a?.entry?.exchange ?? a?.exchange;
}

/**
 * `tpp.showExchange(exchange: Exchange, payloadUri?: Uri)`: shows a request and its answer in the response view
 * (used by history rows and by the Integration Log). Also takes a history node or entry id. Resolves to what was
 * shown (with the page's render report), `undefined` when the argument holds no exchange (an entry written by an
 * earlier version: then it opens as JSON).
 */
export const showExchange: CommandDef = {
  id: 'tpp.showExchange',
  async run(services, arg, payloadUri) {
    const x = exchangeOfArg(services, arg);
    if (!x) {
      if ((arg as { entry?: unknown } | undefined)?.entry) return vscode.commands.executeCommand('tpp.openRecord', arg);
      throw new Error('Nothing to show: pick a request of the Request history.');
    }
    return services.responses.show(x, payloadUri instanceof vscode.Uri ? { payloadUri } : {});
  },
};
