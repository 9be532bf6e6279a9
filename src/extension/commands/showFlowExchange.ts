import * as vscode from 'vscode';
import { fieldsArg, stringArg } from '../commandSupport/args';
import { defineCommand } from './registry';

/** The file (URI string) and 0-based request index of a test item id `<uri>#<index>`. */
function parseItemId(id: string): { file: string; index: number } | undefined {
  const m = /^(.*)#(\d+)$/.exec(id);
  return m ? { file: m[1]!, index: Number(m[2]) } : undefined;
}

/** The request an argument names: a test item, the Test Explorer's message menu argument, an item id, or a URI and index. */
function requestOf(arg: unknown, index: unknown): { file: string; index: number } | undefined {
  if (arg instanceof vscode.Uri && typeof index === 'number') return { file: arg.toString(), index };
  if (typeof arg === 'string') return parseItemId(arg);
  const a = fieldsArg(arg);
  const id = stringArg(a.id) ?? stringArg(fieldsArg(a.test).id);
  return id ? parseItemId(id) : undefined;
}

/**
 * `tpp.showFlowExchange(item: TestItem | { test: TestItem } | string | Uri, index?: number)` (a flow request's
 * context menu and its messages in the Test Explorer): shows the last exchange of that request, in this session, in
 * the response view (docs/flows-editor.md). Resolves to what was shown.
 */
export const showFlowExchange = defineCommand({
  id: 'tpp.showFlowExchange',
  needs: ['flowRuns', 'responses'],
  args: ([arg, index]) => ({ request: requestOf(arg, index) }),
  async run(services, { request }) {
    if (!request) throw new Error('Nothing to show: pick a request of a flow in the Test Explorer.');
    const result = services.flowRuns.result(request.file, request.index);
    if (!result?.exchange) throw new Error(`No exchange of ${result?.request.label ?? 'this request'} yet: run it first (Send or Run Flow).`);
    return services.responses.show(result.exchange);
  },
});
