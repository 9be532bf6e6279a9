import * as vscode from 'vscode';
import { isAbortError } from '../../core/client/errors';
import type { FlowFile, RequestResult } from '../../core/flows/types';
import { ENVIRONMENTS } from '../../core/environments';
import { confirmFlowRun } from '../flows/guard';
import { UserCancelled } from '../services/userCancelled';
import { flowEnvironmentOf, flowUriOf, refuseBrokenFlow } from './flowHelpers';
import { CommandDef } from './registry';

/** The request `arg` names (a 0-based index), else the one under the cursor, else the last one above it. */
function requestIndexOf(flow: FlowFile, arg: unknown): number {
  if (typeof arg === 'number' && flow.requests.some((r) => r.index === arg)) return arg;
  const editor = vscode.window.activeTextEditor;
  const line = editor && editor.document.uri.toString() === flow.file ? editor.selection.active.line + 1 : 1;
  const above = flow.requests.filter((r) => r.line <= Math.max(line, flow.requests[0]?.line ?? 1));
  const r = above.at(-1);
  if (!r) throw new Error('This flow file has no request: write one as "GET {{baseUrl}}/verify-token".');
  return r.index;
}

/** One sentence about a request's result: status, and the assertions that failed or why it did not run. */
function summary(env: string, r: RequestResult): string {
  const status = r.exchange?.response ? `${r.exchange.response.status}` : 'no answer';
  const failed = r.assertions.filter((a) => !a.passed);
  if (r.outcome === 'failed') return `${env}: ${r.request.label} → ${status}; ${failed.length} of ${r.assertions.length} assertions failed: ${failed[0]!.message}`;
  if (r.outcome === 'errored' || r.outcome === 'skipped') return `${env}: ${r.request.label} not run to the end: ${r.message ?? r.outcome}.`;
  return `${env}: ${r.request.label} → ${status}${r.assertions.length ? `; all ${r.assertions.length} assertions passed` : ''}.`;
}

/**
 * `tpp.sendFlowRequest(uri?: Uri, index?: number, env?: EnvironmentId | 'pick')` (the **Send to <environment>**
 * CodeLens above each request): sends one request of a flow file (default: the one at the cursor), with the named
 * requests it reads from run first, behind the Production guard, with Cancel on the progress notification; shows its
 * exchange in the response view and its assertions in a message (docs/flows-editor.md). Resolves to
 * `{ result: RequestResult, results: RequestResult[] }` (`results`: every request that ran).
 */
export const sendFlowRequest: CommandDef = {
  id: 'tpp.sendFlowRequest',
  async run(services, uriArg, indexArg, envArg) {
    const uri = flowUriOf(uriArg);
    const flow = await services.flows.load(uri);
    const index = requestIndexOf(flow, indexArg);
    const env = await flowEnvironmentOf(services, envArg, 'Send Flow Request to…');
    refuseBrokenFlow(flow);
    await confirmFlowRun(env, [{ flow, only: [index] }]);
    const label = ENVIRONMENTS[env].label;
    const request = flow.requests.find((r) => r.index === index)!;
    const title = `${label}: ${request.label}…`;
    const results = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_p, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        return await services.flowRuns.run({ flow, env, only: [index], signal: abort.signal });
      } catch (err) {
        if (isAbortError(err)) throw new UserCancelled();
        throw err;
      } finally {
        sub.dispose();
      }
    });
    const result = results.find((r) => r.request.index === index);
    if (!result) throw new Error(`${request.label} did not run: an earlier request it reads from failed.`);
    const shown = result.exchange ? await services.responses.show(result.exchange) : undefined;
    const text = summary(label, result);
    if (result.outcome === 'passed') void vscode.window.showInformationMessage(text);
    else void vscode.window.showWarningMessage(text);
    return { result, results, ...(shown ? { shown } : {}) };
  },
};
