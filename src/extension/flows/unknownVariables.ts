import { flowRefs, positionIn } from '../../core/flows/refs';
import type { FlowFile, FlowPosition, FlowProblem } from '../../core/flows/types';

/** Variables every flow gets from the environment it runs on (docs/flows-editor.md). */
export const FLOW_ENVIRONMENT_VARIABLES: readonly { name: string; detail: string }[] = [
  { name: 'baseUrl', detail: 'Version 3 base address, ending in /api/v3' },
  { name: 'v2BaseUrl', detail: 'Version 2 host' },
  { name: 'eligibilityBaseUrl', detail: 'Eligibility lookup base, ending in /api/v1' },
  { name: 'partnerId', detail: 'Partner ID (the JWT iss)' },
];

/** Every text of a flow that may hold `{{name}}` references, with the 1-based position where it starts. */
function textsOf(flow: FlowFile): { text: string; at: FlowPosition }[] {
  const out: { text: string; at: FlowPosition }[] = flow.variables.map((v) => ({ text: v.value, at: { line: v.line, column: v.column + v.name.length + 1 } }));
  for (const r of flow.requests) {
    out.push({ text: r.url, at: { line: r.line, column: r.urlColumn ?? r.column } });
    for (const h of r.headers) out.push({ text: h.value, at: { line: h.line, column: h.valueColumn ?? h.column } });
    if (r.body?.kind === 'inline') out.push({ text: r.body.text, at: r.body });
    for (const a of r.assertions) if (a.expected !== undefined) out.push({ text: a.expected, at: { line: a.line, column: a.expectedColumn ?? a.column } });
  }
  return out;
}

/**
 * `{{name}}` references the run could not resolve: not a file variable, not one of the environment's
 * ({@link FLOW_ENVIRONMENT_VARIABLES}) and not in `known` (the `tpp.variables` of the active environment). Warnings,
 * code `flow-unknown-variable`: the parser cannot know the editor's settings, so core leaves these names to the
 * driver (docs/flows.md, Variables).
 */
export function unknownVariableProblems(flow: FlowFile, known: ReadonlySet<string>): FlowProblem[] {
  const defined = new Set([...flow.variables.map((v) => v.name), ...FLOW_ENVIRONMENT_VARIABLES.map((v) => v.name), ...known]);
  const out: FlowProblem[] = [];
  for (const { text, at } of textsOf(flow)) {
    for (const r of flowRefs(text)) {
      if (r.ref.kind !== 'name' || defined.has(r.ref.name)) continue;
      const start = positionIn(text, r.start, at);
      const end = positionIn(text, r.end, at);
      out.push({ file: flow.file, ...start, end, severity: 'warning', code: 'flow-unknown-variable', message: `{{${r.ref.name}}} is not defined: add "@${r.ref.name} = …" to the file or "${r.ref.name}" to the tpp.variables setting of this environment.` });
    }
  }
  return out;
}
