import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { pickRegistration } from '../commandSupport/registrations';
import { envOfArg, treeArgOf } from '../commandSupport/treeArgs';
import { CommandDef } from './registry';

/**
 * `tpp.copyId`: copies the id of a registration, motor-club registration, claim or history entry, or the Partner ID
 * of a Partner ID row, to the clipboard; from the palette, asks for a registration of the active environment.
 * Resolves to the id.
 */
export const copyId: CommandDef = {
  id: 'tpp.copyId',
  async run(services, arg) {
    const row = treeArgOf(arg);
    let id = row && 'id' in row ? row.id : undefined;
    if (!id) {
      const env = envOfArg(services, arg);
      id = (await pickRegistration(services, env, 'tire-protection', `Copy ID (${ENVIRONMENTS[env].label})`, false)).id;
    }
    if (!id) throw new Error('No id to copy.');
    await vscode.env.clipboard.writeText(id);
    void vscode.window.setStatusBarMessage(`Copied ${id}`, 3000);
    return id;
  },
};
