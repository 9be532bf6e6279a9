import { changesData } from '../../core/contract/methods';
import { requestsToRun } from '../../core/flows';
import type { FlowFile, FlowRequest } from '../../core/flows/types';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import * as vscode from 'vscode';
import { confirmSend } from '../send/productionGuard';
import { UserCancelled } from '../services/userCancelled';

/** The requests a run of `flow` may send: those of `only` and the named requests they read from (core's choice), or all. */
export function requestsToSend(flow: FlowFile, only?: readonly number[]): FlowRequest[] {
  const wanted = requestsToRun(flow, only);
  return flow.requests.filter((r) => wanted.has(r.index));
}

/**
 * The Production guard of `send/productionGuard.ts` before a flow runs (spec: Authentication): every prerequisite
 * of `env` first, then, when any request that may be sent changes data (POST, PUT, PATCH, DELETE…) on a guarded
 * environment, the typed confirmation, once for the whole run.
 * @param runs the files and request indexes about to run (`only` absent: the whole file).
 * @throws PrerequisitesMissing or UserCancelled (both UserCancelled) when the run must not start.
 */
export async function confirmFlowRun(env: EnvironmentId, runs: readonly { flow: FlowFile; only?: readonly number[] }[]): Promise<void> {
  await confirmWorkspaceTrust();
  const writes = runs.flatMap((r) => requestsToSend(r.flow, r.only)).filter((q) => changesData(q.method));
  const count = runs.reduce((n, r) => n + requestsToSend(r.flow, r.only).length, 0);
  const first = writes[0];
  const what = first
    ? `${count} flow request${count === 1 ? '' : 's'}, ${writes.length} changing data (first: ${first.method} ${first.url})`
    : `${count} flow request${count === 1 ? '' : 's'} to ${ENVIRONMENTS[env].label}`;
  await confirmSend(env, writes.length > 0, what);
}

/**
 * Restricted Mode runs no flow (docs/flows.md, What a flow may do): a flow sends requests signed with the user's key
 * and reads files of its folder, so a folder the user has not trusted (VS Code's Workspace Trust) sends nothing. The
 * user is told why, with a button that opens VS Code's trust editor; the run does not start either way (it is run
 * again once trusted).
 * @throws UserCancelled when the workspace is not trusted.
 */
export async function confirmWorkspaceTrust(): Promise<void> {
  if (vscode.workspace.isTrusted) return;
  const manage = 'Manage Workspace Trust';
  const pick = await vscode.window.showWarningMessage(
    'This folder is in Restricted Mode: flows and backfills send nothing until you trust it.',
    { modal: true, detail: 'A flow sends requests signed with your key and reads files of this folder. Trust the folder if you know where its .http files come from, then run the flow again.' },
    manage,
  );
  if (pick === manage) await vscode.commands.executeCommand('workbench.trust.manage');
  throw new UserCancelled();
}
