import * as vscode from 'vscode';
import { ENVIRONMENTS } from '../../core/environments';
import { pickRegistration } from '../commandSupport/registrations';
import { envOf, treeArgOf } from '../commandSupport/treeArgs';
import { defineCommand } from './registry';

/**
 * `tpp.copyId`: copies the id of a registration, motor-club registration, claim or history entry, or the Partner ID
 * of a Partner ID row, to the clipboard; from the palette, asks for a registration of the active environment.
 * Resolves to the id.
 */
export const copyId = defineCommand({
  id: 'tpp.copyId',
  needs: ['environments', 'registrations'],
  args: ([arg]) => {
    const row = treeArgOf(arg);
    return { rowEnv: envOf(arg), rowId: row && 'id' in row ? row.id : undefined };
  },
  async run(services, { rowEnv, rowId }) {
    let id = rowId;
    if (!id) {
      const env = rowEnv ?? services.environments.active.get();
      id = (await pickRegistration(services, env, 'tire-protection', `Copy ID (${ENVIRONMENTS[env].label})`, false)).id;
    }
    if (!id) throw new Error('No id to copy.');
    await vscode.env.clipboard.writeText(id);
    void vscode.window.setStatusBarMessage(`Copied ${id}`, 3000);
    return id;
  },
});
