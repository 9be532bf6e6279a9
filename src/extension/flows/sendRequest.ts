import * as vscode from 'vscode';
import { isAbortError } from '../../core/client/errors';
import type { FlowFile, RequestResult } from '../../core/flows/types';
import { ENVIRONMENTS, type EnvironmentId } from '../../core/environments';
import type { ResponsePanel } from '../response/responsePanel';
import type { FlowRuns } from '../services/flowRuns';

/** The request `arg` names (a 0-based index), else the one under the cursor, else the last one above it. */
export function requestIndexOf(flow: FlowFile, arg: unknown): number {
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
 * Sends request `index` of `flow` to `env` (the named requests it reads from first) with Cancel on the progress
 * notification, shows its exchange in the response view and its assertions in a message (docs/flows-editor.md).
 * The caller has passed the Production guard. Resolves to `{ result, results, shown? }`, or undefined when the user
 * pressed Cancel on the notification (Send Flow Request then ends silently with UserCancelled).
 */
export async function sendOneFlowRequest(services: { readonly flowRuns: FlowRuns; readonly responses: ResponsePanel }, flow: FlowFile, index: number, env: EnvironmentId) {
  const label = ENVIRONMENTS[env].label;
  const request = flow.requests.find((r) => r.index === index)!;
  const title = `${label}: ${request.label}…`;
  const results = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_p, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      return await services.flowRuns.run({ flow, env, only: [index], signal: abort.signal });
    } catch (err) {
      if (isAbortError(err)) return undefined;
      throw err;
    } finally {
      sub.dispose();
    }
  });
  if (!results) return undefined;
  const result = results.find((r) => r.request.index === index);
  if (!result) throw new Error(`${request.label} did not run: an earlier request it reads from failed.`);
  const shown = result.exchange ? await services.responses.show(result.exchange) : undefined;
  const text = summary(label, result);
  if (result.outcome === 'passed') void vscode.window.showInformationMessage(text);
  else void vscode.window.showWarningMessage(text);
  return { result, results, ...(shown ? { shown } : {}) };
}
