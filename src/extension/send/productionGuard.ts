import * as vscode from 'vscode';
import { ENDPOINTS } from '../../core/contract';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { UserCancelled } from '../services/userCancelled';

/**
 * The Production guard: before a request that changes data (any method but GET) is sent to a guarded
 * environment (Production), the user must type the environment's name. Throws {@link UserCancelled} when
 * the input box is dismissed or the name does not match; resolves at once for reads and unguarded environments.
 *
 * @param what one line describing the request, e.g. "PATCH /tire-protection/registrations/abc (cancel)".
 */
export async function confirmDataChange(env: EnvironmentId, endpointId: EndpointId, what: string): Promise<void> {
  const info = ENVIRONMENTS[env];
  if (!info.guarded || ENDPOINTS[endpointId].method === 'GET') return;
  const typed = await vscode.window.showInputBox({
    title: `⚠ ${info.label}: this changes real data`,
    prompt: `${what}\nType "${info.label}" to send it to ${info.label}.`,
    placeHolder: info.label,
    ignoreFocusOut: true,
    validateInput: (v) => (v === '' || v === info.label ? undefined : `Type ${info.label} exactly (case matters) or press Escape.`),
  });
  if (typed !== info.label) throw new UserCancelled();
}
