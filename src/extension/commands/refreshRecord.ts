import * as vscode from 'vscode';
import { RECORD_SCHEME } from '../response/recordProvider';
import { uriArg } from '../commandSupport/pickEnvironment';
import { defineCommand } from './registry';

/** `tpp.refreshRecord`: reads the active `tpp-record:` document from the server again. */
export const refreshRecord = defineCommand({
  id: 'tpp.refreshRecord',
  needs: ['records'],
  args: ([arg]) => ({ given: uriArg(arg) }),
  run(services, { given }) {
    const uri = given ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== RECORD_SCHEME) throw new Error('Refresh Record works on a record opened from the Environments tree.');
    services.records.refresh(uri);
    return uri.toString();
  },
});
