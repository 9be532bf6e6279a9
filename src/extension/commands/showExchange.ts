import * as vscode from 'vscode';
import { completeExchange } from '../../core/exchange/complete';
import { uriArg } from '../commandSupport/pickEnvironment';
import { exchangeOfArg, recordedRefOf } from '../commandSupport/history';
import { defineCommand } from './registry';

/**
 * `tpp.showExchange(exchange: Exchange, payloadUri?: Uri)`: shows a request and its answer in the response view
 * (used by history rows and by the Integration Log). Also takes a history node or entry id. Resolves to what was
 * shown (with the page's render report), `undefined` when the argument holds no exchange (an entry written by an
 * earlier version: then it opens as JSON).
 *
 * A 409 that Watch My Application logged through the proxy comes without the record it conflicts with (the proxy
 * holds no key to look it up, docs/proxy.md): it is looked up here, with the environment's own key, when the row is
 * opened, so one lookup per look and none per logged request (services/editorDiagnosis.ts).
 */
export const showExchange = defineCommand({
  id: 'tpp.showExchange',
  needs: ['api', 'history', 'responses'],
  args: ([arg, payloadUri]) => ({ target: recordedRefOf(arg), payloadUri: uriArg(payloadUri) }),
  async run(services, { target, payloadUri }) {
    const x = exchangeOfArg(services, target);
    if (!x) {
      if (target?.node === 'history') return vscode.commands.executeCommand('tpp.openRecord', target.row);
      throw new Error('Nothing to show: pick a request of the Request history.');
    }
    const unexplained409 = x.source === 'proxy-log' && x.response?.status === 409 && !x.diagnosis?.some((d) => d.record);
    // A logged request names no endpoint: completeExchange matches it from method and URL first.
    const described = unexplained409 ? await services.api.withEditorDiagnosis(completeExchange(x)) : x;
    return services.responses.show(described, payloadUri ? { payloadUri } : {});
  },
});
