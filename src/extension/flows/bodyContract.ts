import { RULES } from '../../core/diagnostics/engine';
import { diagnosePayload } from '../../core/diagnostics/payload';
import { ENDPOINTS } from '../../core/contract/endpoints';
import { PAYLOAD_KINDS } from '../../core/contract/kinds';
import { isOptional, knownProperties, leaves, schemaAt, type ZodDef } from '../../core/contract/schemaWalk';
import type { PayloadKind } from '../../core/contract/types';
import { endpointOfExchange } from '../../core/exchange/endpoint';
import type { Exchange } from '../../core/exchange/types';
import { flowRefs, positionIn } from '../../core/flows/refs';
import type { FlowBody, FlowFile, FlowProblem, FlowRequest } from '../../core/flows/types';
import { VARIABLE_RULES } from '../../core/variables/check';

type InlineBody = Extract<FlowBody, { kind: 'inline' }>;

/** A `{{…}}` outside any JSON string, put in quotes for checking: where it was and where it is. */
interface Quoted {
  readonly raw: string;
  readonly from: number;
  readonly to: number;
  readonly at: number;
  readonly end: number;
}

/**
 * The body with each `{{…}}` that stands outside a JSON string (`"year": {{row.vehicleYear}}`, sent as its value's
 * text: a number, true, false) written as the string `quote(raw, i)` instead, and where each one went. Quoted as
 * itself, the payload diagnostics read it as a variable whose value the contract types (docs/variables.md), not as
 * a JSON syntax error.
 */
function quoteBareRefs(text: string, quote: (raw: string, i: number) => string = (raw) => JSON.stringify(raw)): { text: string; quoted: Quoted[] } {
  const refs = flowRefs(text);
  const quoted: Quoted[] = [];
  let out = '';
  let copied = 0;
  let inString = false;
  for (let i = 0, k = 0; i < text.length; i++) {
    while (k < refs.length && (refs[k] as { end: number }).end <= i) k++;
    const ref = refs[k];
    if (!inString && ref?.start === i) {
      out += text.slice(copied, i);
      const q = quote(ref.raw, quoted.length);
      quoted.push({ raw: ref.raw, from: ref.start, to: ref.end, at: out.length, end: out.length + q.length });
      out += q;
      copied = ref.end;
      i = ref.end - 1;
      continue;
    }
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
  }
  return { text: out + text.slice(copied), quoted };
}

/** A string no body holds, marking the i-th bare `{{…}}` to find its JSON path. */
const MARK = '\u0000tpp-bare-ref:';

/** The JSON path of each marked bare reference in `value`, by its index. */
function markedPaths(value: unknown, path: (string | number)[] = [], out = new Map<number, (string | number)[]>(), depth = 0): Map<number, (string | number)[]> {
  if (typeof value === 'string' && value.startsWith(MARK)) out.set(Number(value.slice(MARK.length)), path);
  else if (value !== null && typeof value === 'object' && depth < 64) for (const [k, v] of Object.entries(value)) markedPaths(v, [...path, Array.isArray(value) ? Number(k) : k], out, depth + 1);
  return out;
}

/** An offset of the quoted text back in the body as written. */
function original(offset: number, quoted: readonly Quoted[]): number {
  let shift = 0;
  for (const q of quoted) {
    if (offset < q.at) break;
    if (offset < q.end) return q.from;
    if (offset === q.end) return q.to;
    shift = q.end - q.to;
  }
  return offset - shift;
}

/**
 * The endpoint a request line names, by its method and URL path (variables left as written; ../shared/spec/
 * partner-interface.md, Endpoints), and the payload kinds sent there: those of the endpoint and of any endpoint of the
 * same method and path (a motor-club customer update and a cancellation share one).
 */
function endpointKinds(r: FlowRequest): { route: string; kinds: PayloadKind[] } | undefined {
  // endpointOfExchange matches the end of the URL path against the contract's templates: `{{baseUrl}}` is no obstacle.
  const request = { method: r.method, url: r.url.split('?')[0] ?? r.url };
  const id = endpointOfExchange({ request } as Pick<Exchange, 'request'> as Exchange);
  if (!id) return undefined;
  const def = ENDPOINTS[id];
  const same = Object.values(ENDPOINTS).filter((e) => e.method === def.method && e.path === def.path).map((e) => e.id as string);
  const kinds = Object.values(PAYLOAD_KINDS).filter((k) => k.endpoints.some((e) => same.includes(e))).map((k) => k.kind);
  return kinds.length ? { route: `${def.method} ${def.path}`, kinds } : undefined;
}

/**
 * Of the kinds one method and path takes, the one the body says it is. The spec tells them apart by a property of
 * the body (Version 2 record endpoints: the one array property, Registrations, Claims, Sales or Cancellations;
 * Motor-club registrations: customer versus cancelledOn): the kind whose own required top-level property the body
 * has. Never a guess from which kind fits best. A string is the problem when the body has none or several.
 */
function kindFor(route: string, kinds: readonly PayloadKind[], value: unknown): PayloadKind | string {
  if (kinds.length === 1) return kinds[0] as PayloadKind;
  const required = (k: PayloadKind) => knownProperties(PAYLOAD_KINDS[k].schema).filter((p) => !isOptional(schemaAt(PAYLOAD_KINDS[k].schema, [p]) as Parameters<typeof isOptional>[0]));
  const props = new Map(kinds.map((k) => [k, required(k)]));
  const own = (k: PayloadKind) => (props.get(k) ?? []).filter((p) => kinds.every((o) => o === k || !(props.get(o) ?? []).includes(p)));
  const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  const named = kinds.filter((k) => own(k).some((p) => keys.includes(p)));
  if (named.length === 1) return named[0] as PayloadKind;
  const choices = kinds.map((k) => `${own(k).join(' or ')} (${k})`).join(', ');
  return `the body of ${route} says what it is by one of ${choices}; it has ${named.length === 0 ? 'none' : named.map((k) => own(k).filter((p) => keys.includes(p)).join(', ')).join(' and ')} (spec: Endpoints)`;
}

/** Whether a field takes a value written without quotes (a number, true, false, null): not when every form is text or a structure. */
function takesBareValue(field: Parameters<typeof leaves>[0]): boolean {
  const TEXT_OR_STRUCTURE = new Set(['string', 'template_literal', 'object', 'array', 'record', 'tuple']);
  return leaves(field).some((leaf) => {
    const def = (leaf as unknown as { _zod: { def: ZodDef } })._zod.def;
    if (def.type === 'enum') return Object.values(def.entries ?? {}).some((v) => typeof v !== 'string');
    if (def.type === 'literal') return (def.values ?? []).some((v) => typeof v !== 'string');
    return !TEXT_OR_STRUCTURE.has(def.type);
  });
}

/** One inline JSON body against its kind; problems at their place in the flow file. */
function checkBody(flow: FlowFile, r: FlowRequest, body: InlineBody): FlowProblem[] {
  const route = endpointKinds(r);
  if (!route) return [];
  const { text, quoted } = quoteBareRefs(body.text);
  const at = (offset: number) => positionIn(body.text, original(offset, quoted), body);
  let value: unknown;
  let parsed = true;
  try {
    value = JSON.parse(quoteBareRefs(body.text, (_, i) => JSON.stringify(`${MARK}${i}`)).text);
  } catch {
    parsed = false; // its syntax is reported below; which kind it is cannot be read
  }
  const kind = parsed ? kindFor(route.route, route.kinds, value) : (route.kinds[0] as PayloadKind);
  if (!(kind in PAYLOAD_KINDS)) return [{ file: flow.file, line: body.line, column: body.column, severity: 'error', code: 'contract-kind', message: `${kind[0]?.toUpperCase() ?? ''}${kind.slice(1)}.` }];
  const k = kind as PayloadKind;
  const out: FlowProblem[] = [];
  for (const p of diagnosePayload(text, { kind: k })?.problems ?? []) {
    // `{{names}}` are the flow's own check (core's checkFlowForRun), with the flow's variables.
    if (p.code === VARIABLE_RULES.unknownVariable || p.code === VARIABLE_RULES.variable) continue;
    if (!parsed && route.kinds.length > 1 && p.code !== RULES.syntax) continue;
    out.push({ file: flow.file, ...at(p.start), end: at(p.end), severity: p.severity === 'error' ? 'error' : 'warning', code: `contract-${p.code}`, message: `${parsed || route.kinds.length === 1 ? `${k}: ` : ''}${p.message}` });
  }
  const paths = parsed ? markedPaths(value) : new Map<number, (string | number)[]>();
  quoted.forEach((q, i) => {
    const path = paths.get(i);
    const field = path?.length ? schemaAt(PAYLOAD_KINDS[k].schema, path) : undefined;
    if (!path || !field || takesBareValue(field)) return;
    out.push({ file: flow.file, ...at(q.at), end: at(q.end), severity: 'error', code: 'contract-unquoted', message: `${k}: ${path.join('.')}: ${q.raw} without quotes is sent as its value's text, and ${String(path[path.length - 1])} is text: write "${q.raw}".` });
  });
  return out;
}

/**
 * Inline JSON bodies checked against the contract of the endpoint their request line names (method and URL path;
 * ../shared/spec/partner-interface.md, Endpoints) with the payload diagnostics of `tpp validate` and payload files
 * (core's `diagnosePayload`); problems at their place in the flow file (docs/flows-editor.md). A `{{…}}` outside
 * quotes stands where a number, true or false goes and is checked as a value the contract types; where the contract
 * wants text it is an error (its value would be sent without quotes). Bodies of unknown endpoints, and bodies that
 * are not JSON, are left alone.
 */
export function bodyContractProblems(flow: FlowFile): FlowProblem[] {
  const out: FlowProblem[] = [];
  for (const r of flow.requests) if (r.body?.kind === 'inline' && /^\s*[[{]/.test(r.body.text)) out.push(...checkBody(flow, r, r.body));
  return out;
}
