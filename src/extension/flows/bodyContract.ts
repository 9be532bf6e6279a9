import { diagnosePayload } from '../../core/diagnostics';
import { ENDPOINTS, PAYLOAD_KINDS } from '../../core/contract';
import type { PayloadKind } from '../../core/contract/types';
import { endpointOfExchange } from '../../core/exchange/endpoint';
import type { Exchange } from '../../core/exchange/types';
import type { FlowFile, FlowProblem, FlowRequest } from '../../core/flows/types';
import { VARIABLE_RULES } from '../../core/variables/check';

/**
 * The payload kinds a request with a JSON body may be, by its method and URL path (variables left as written): those
 * of its endpoint and of every endpoint sharing that method and path (a motor-club customer update and a cancellation
 * share one; the body decides, and a `{{variable}}` value cannot be checked against a schema before it is resolved).
 */
function kindsOf(r: FlowRequest, text: string): PayloadKind[] {
  // endpointOfExchange matches the end of the URL path against the contract's templates: `{{baseUrl}}` is no obstacle.
  const request = { method: r.method, url: r.url.split('?')[0] ?? r.url, body: text };
  const endpointId = endpointOfExchange({ request } as Pick<Exchange, 'request'> as Exchange);
  if (!endpointId) return [];
  const def = ENDPOINTS[endpointId];
  const siblings = Object.values(ENDPOINTS).filter((e) => e.method === def.method && e.path === def.path);
  return Object.values(PAYLOAD_KINDS)
    .filter((k) => siblings.some((e) => k.endpoints.includes(e.id)))
    .map((k) => k.kind);
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
    // Of the kinds the route allows, the one the body fits best (fewest errors): a clean fit reports nothing.
    const checked = kindsOf(r, body.text).map((kind) => {
      const problems = (diagnosePayload(body.text, { kind })?.problems ?? []).filter((p) => p.code !== VARIABLE_RULES.unknownVariable && p.code !== VARIABLE_RULES.variable);
      return { kind, problems, errors: problems.filter((p) => p.severity === 'error').length };
    });
    const best = checked.sort((a, b) => a.errors - b.errors)[0];
    if (!best) continue;
    const kind = best.kind;
    for (const p of best.problems) {
      const at = (pos: { line: number; character: number }) => ({ line: body.line + pos.line, column: pos.line === 0 ? body.column + pos.character : pos.character + 1 });
      out.push({ file: flow.file, ...at(p.range.start), end: at(p.range.end), severity: p.severity === 'error' ? 'error' : 'warning', code: `contract-${p.code}`, message: `${kind}: ${p.message}` });
    }
  }
  return out;
}
