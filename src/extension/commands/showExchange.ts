import * as vscode from 'vscode';
import { uriArg } from '../commandSupport/pickEnvironment';
import { exchangeOfArg, recordedRefOf } from '../commandSupport/history';
import { defineCommand } from './registry';

/**
 * `tpp.showExchange(exchange: Exchange, payloadUri?: Uri)`: shows a request and its answer in the response view
 * (used by history rows and by the Integration Log). Also takes a history node or entry id. Resolves to what was
 * shown (with the page's render report), `undefined` when the argument holds no exchange (an entry written by an
 * earlier version: then it opens as JSON).
 */
export const showExchange = defineCommand({
  id: 'tpp.showExchange',
  needs: ['history', 'responses'],
  args: ([arg, payloadUri]) => ({ target: recordedRefOf(arg), payloadUri: uriArg(payloadUri) }),
  async run(services, { target, payloadUri }) {
    const x = exchangeOfArg(services, target);
    if (!x) {
      if (target?.node === 'history') return vscode.commands.executeCommand('tpp.openRecord', target.row);
      throw new Error('Nothing to show: pick a request of the Request history.');
    }
    return services.responses.show(x, payloadUri ? { payloadUri } : {});
  },
});
