import { requestsToRun } from '../../core/flows';
import type { FlowFile, FlowRequest } from '../../core/flows/types';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import { confirmSend } from '../send/productionGuard';

/** Methods that read (RFC 9110 safe methods); every other method of a flow changes data. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

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
  const writes = runs.flatMap((r) => requestsToSend(r.flow, r.only)).filter((q) => !SAFE.has(q.method.toUpperCase()));
  const count = runs.reduce((n, r) => n + requestsToSend(r.flow, r.only).length, 0);
  const first = writes[0];
  const what = first
    ? `${count} flow request${count === 1 ? '' : 's'}, ${writes.length} changing data (first: ${first.method} ${first.url})`
    : `${count} flow request${count === 1 ? '' : 's'} to ${ENVIRONMENTS[env].label}`;
  await confirmSend(env, writes.length > 0, what);
}
