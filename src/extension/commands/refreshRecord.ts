import * as vscode from 'vscode';
import { RECORD_SCHEME } from '../response/recordProvider';
import { CommandDef } from './registry';

/** `tpp.refreshRecord`: reads the active `tpp-record:` document from the server again. */
export const refreshRecord: CommandDef = {
  id: 'tpp.refreshRecord',
  run(services, arg) {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== RECORD_SCHEME) throw new Error('Refresh Record works on a record opened from the Environments tree.');
    services.records.refresh(uri);
    return uri.toString();
  },
};
