import * as vscode from 'vscode';
import { exchangeOfArg } from '../commandSupport/history';
import { treeArgOf } from '../commandSupport/treeArgs';
import { CommandDef } from './registry';

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
      if (treeArgOf(arg)?.node === 'history') return vscode.commands.executeCommand('tpp.openRecord', arg);
      throw new Error('Nothing to show: pick a request of the Request history.');
    }
    return services.responses.show(x, payloadUri instanceof vscode.Uri ? { payloadUri } : {});
  },
};
