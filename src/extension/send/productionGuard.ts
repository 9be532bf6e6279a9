import * as vscode from 'vscode';
import { ENDPOINTS } from '../../core/contract';
import { changesData } from '../../core/contract/methods';
import type { EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, EnvironmentId } from '../../core/environments';
import { UserCancelled } from '../services/userCancelled';

/** What `tpp.checkPrerequisites` resolves to: whether `env` can sign and send, and every missing item's title. */
export interface PrerequisiteCheck {
  readonly env: EnvironmentId;
  readonly ok: boolean;
  /** Titles of the missing prerequisites, in checklist order (e.g. "Base address", "Partner ID", "Key pair"). */
  readonly missing: readonly string[];
}

/**
 * Thrown when a request was not sent because its environment lacks prerequisites. The user has already been told
 * (one message naming every missing item, with a Configure Environment… button), so it is a {@link UserCancelled}:
 * callers stop silently.
 */
export class PrerequisitesMissing extends UserCancelled {
  constructor(readonly check: PrerequisiteCheck) {
    super();
    this.name = 'PrerequisitesMissing';
    this.message = `${ENVIRONMENTS[check.env].label} is not set up: ${check.missing.join(', ')} missing`;
  }
}

/**
 * The guard in front of every request a command sends (../shared/spec/partner-interface.md, Authentication):
 * 1. the prerequisites of the environment — base address, Partner ID, key pair — are checked first, all at once
 *    (`tpp.checkPrerequisites`, which shows every missing item with a Configure Environment… button); then
 * 2. before a request that changes data (any method but GET) is sent to a guarded environment (Production), the user
 *    must type the environment's name.
 * So Production's typed confirmation is only asked once the request could actually be sent.
 *
 * @param what one line describing the request, e.g. "PATCH /tire-protection/registrations/abc (cancel)".
 * @throws PrerequisitesMissing (a {@link UserCancelled}) when a prerequisite is missing; UserCancelled when the
 *   confirmation is dismissed or the name does not match. Resolves at once for reads and unguarded environments
 *   that are set up.
 */
export async function confirmDataChange(env: EnvironmentId, endpointId: EndpointId, what: string): Promise<void> {
  return confirmSend(env, changesData(ENDPOINTS[endpointId].method), what);
}

/**
 * The same guard for requests that are not one endpoint of the contract (a flow's requests, docs/flows-editor.md):
 * the prerequisites first, then the typed confirmation when `changesData` and `env` is guarded. Throws as
 * {@link confirmDataChange}.
 */
export async function confirmSend(env: EnvironmentId, changesData: boolean, what: string): Promise<void> {
  const check = await vscode.commands.executeCommand<PrerequisiteCheck | undefined>('tpp.checkPrerequisites', env, { notify: what });
  if (check && !check.ok) throw new PrerequisitesMissing(check);
  const info = ENVIRONMENTS[env];
  if (!info.guarded || !changesData) return;
  const typed = await vscode.window.showInputBox({
    title: `⚠ ${info.label}: this changes real data`,
    prompt: `${what}\nType "${info.label}" to send it to ${info.label}.`,
    placeHolder: info.label,
    ignoreFocusOut: true,
    validateInput: (v) => (v === '' || v === info.label ? undefined : `Type ${info.label} exactly (case matters) or press Escape.`),
  });
  if (typed !== info.label) throw new UserCancelled();
}
