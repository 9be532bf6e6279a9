import * as vscode from 'vscode';
import { payloadTextOf } from '../../core/exchange/endpoint';
import { exchangeOfArg, recordedRefOf } from '../commandSupport/history';
import { defineCommand } from './registry';

/**
 * `tpp.openExchangeAsPayload(exchange: Exchange)` (also a history node or entry id): opens an untitled payload
 * file with the `$schema` of the endpoint's payload kind, the meta properties the request's path and query
 * filled (`$registrationId`, `$invoiceNumber`, `$uniqueId`, …) and the body as sent, ready to edit and send.
 * Resolves to the document. Throws when the request had no sendable body (a GET, a body over 64 KB).
 */
export const openExchangeAsPayload = defineCommand({
  id: 'tpp.openExchangeAsPayload',
  needs: ['history'],
  args: ([arg]) => ({ target: recordedRefOf(arg) }),
  async run(services, { target }) {
    const x = exchangeOfArg(services, target);
    if (!x) throw new Error('This request is not kept with its body (recorded by an earlier version): resend it instead.');
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: payloadTextOf(x) });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
    return doc;
  },
});
