import { diagnosePayload } from '../../core/diagnostics';
import { endpointOfExchange, kindOfRequest } from '../../core/exchange/endpoint';
import type { Exchange } from '../../core/exchange/types';
import type { FlowFile, FlowProblem, FlowRequest } from '../../core/flows/types';
import { VARIABLE_RULES } from '../../core/variables/check';

/** The endpoint and payload kind a request with a JSON body goes to, by its method and URL path (variables left as written). */
function kindOf(r: FlowRequest, text: string): ReturnType<typeof kindOfRequest> {
  // endpointOfExchange matches the end of the URL path against the contract's templates: `{{baseUrl}}` is no obstacle.
  const request = { method: r.method, url: r.url.split('?')[0] ?? r.url, body: text };
  const endpointId = endpointOfExchange({ request } as Pick<Exchange, 'request'> as Exchange);
  if (!endpointId) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return kindOfRequest(endpointId, body);
}

/**
 * An inline JSON body checked against the contract of the endpoint its method and URL name
 * (../shared/spec/partner-interface.md, Endpoints), with the payload diagnostics of `tpp validate` and payload files
 * (core's `diagnosePayload`); problems at their place in the flow file. `{{variables}}` are left to the flow's own
 * check (unknownVariables.ts). Bodies of unknown endpoints, and bodies that are not JSON, are left alone.
 */
export function bodyContractProblems(flow: FlowFile): FlowProblem[] {
  const out: FlowProblem[] = [];
  for (const r of flow.requests) {
    const body = r.body;
    if (body?.kind !== 'inline' || !/^\s*[[{]/.test(body.text)) continue;
    const kind = kindOf(r, body.text);
    if (!kind) continue;
    for (const p of diagnosePayload(body.text, { kind })?.problems ?? []) {
      if (p.code === VARIABLE_RULES.unknownVariable || p.code === VARIABLE_RULES.variable) continue;
      const at = (pos: { line: number; character: number }) => ({ line: body.line + pos.line, column: pos.line === 0 ? body.column + pos.character : pos.character + 1 });
      out.push({ file: flow.file, ...at(p.range.start), end: at(p.range.end), severity: p.severity === 'error' ? 'error' : 'warning', code: `contract-${p.code}`, message: `${kind}: ${p.message}` });
    }
  }
  return out;
}
