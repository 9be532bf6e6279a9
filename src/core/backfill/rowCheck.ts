/**
 * Checks of one row before anything is sent (docs/backfills.md, Checks before sending): every request of the flow
 * resolved with the row's values, and each JSON body sent to a contract endpoint checked with the payload
 * diagnostics of its kind (docs/diagnostics.md; spec: Resources and their fields). Only errors (rules the spec
 * states) make a row invalid. A request that reads an earlier request's answer cannot be resolved before that answer
 * exists; its columns are checked to exist, and its body is checked by the server when it is sent.
 */
import { PAYLOAD_KINDS } from '../contract/kinds';
import type { EndpointId, PayloadKind } from '../contract/types';
import { compileAccept } from '../diagnostics/fastAccept';
import { diagnosePayload, targetFor } from '../diagnostics/payload';
import type { Problem } from '../diagnostics/types';
import { flowRefs } from '../flows/refs';
import { FlowBodyFileError, FlowVariableError, prepareRequest } from '../flows/prepare';
import { endpointsOf } from '../client/clientFor';
import type { FlowEnvironment, FlowFile, FlowRequest } from '../flows/types';
import { requestTexts, rowScope } from './context';
import type { DataRow } from './rows';
import type { RowProblem } from './types';

/** The payload kinds sent to each endpoint (from the kinds' own endpoint lists). */
let kindsByEndpoint: Map<string, PayloadKind[]> | undefined;
function kindsOf(id: EndpointId): PayloadKind[] {
  if (!kindsByEndpoint) {
    kindsByEndpoint = new Map();
    for (const def of Object.values(PAYLOAD_KINDS)) for (const e of def.endpoints) kindsByEndpoint.set(e, [...(kindsByEndpoint.get(e) ?? []), def.kind]);
  }
  return kindsByEndpoint.get(id) ?? [];
}

/** Whether a request reads an earlier request's answer (then it cannot be resolved before sending). */
export function readsAnswers(r: FlowRequest, bodyFile: string | undefined): boolean {
  return [...requestTexts(r), bodyFile ?? ''].some((t) => flowRefs(t).some((x) => x.ref.kind === 'response'));
}

/** The value at a JSON path. */
function at(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/** The column a value came from: the one whose value it is, else the one named like the path's last key. */
function columnOf(row: DataRow, columns: readonly string[], value: unknown, path: readonly (string | number)[]): string | undefined {
  if (value !== undefined && value !== null && typeof value !== 'object') {
    const s = String(value);
    const same = columns.filter((c) => row.values[c] === s);
    if (same.length >= 1) return same[0];
  }
  const last = [...path].reverse().find((k) => typeof k === 'string');
  return columns.find((c) => typeof last === 'string' && c.toLowerCase() === last.toLowerCase());
}

/** The first column the inline body puts where no quotes surround it whose value is not a JSON number or literal. */
function unquotedColumn(r: FlowRequest, row: DataRow): { column?: string } {
  if (r.body?.kind !== 'inline') return {};
  for (const m of r.body.text.matchAll(/[:[,]\s*\{\{row\.([^}]+)\}\}/g)) {
    const col = (m[1] as string).trim();
    try {
      JSON.parse(row.values[col] ?? '');
    } catch {
      return { column: col };
    }
  }
  return {};
}

/** Whether a string anywhere in `value` holds `{{` (the diagnostics then check it as a variable). */
function hasBraces(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (hasBraces(v, depth + 1)) return true;
  return false;
}

/**
 * Whether the payload diagnostics of `kind` would find no error in `value`, told without them: the contract's schema
 * accepts it (fastAccept.ts's predicate, else zod) and the kind's own rules across fields (semantic checks, spec:
 * Resources and their fields) find no error. When this is true the diagnostics find no error either (their errors
 * are the schema's issues, those checks' errors, and `{{…}}` variables, which send this value the long way); when
 * false they run and say where.
 */
function surelyValid(kind: PayloadKind, value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || hasBraces(value)) return false;
  const target = targetFor(kind);
  const accept = compileAccept(target.schema);
  let accepted: boolean;
  try {
    accepted = accept ? accept(value) : target.schema.safeParse(value).success;
  } catch {
    accepted = false; // an async refinement: the diagnostics decide
  }
  if (!accepted) return false;
  const now = new Date();
  for (const check of target.checks ?? []) for (const f of check(value as Record<string, unknown>, { now })) if (f.severity === 'error') return false;
  return true;
}

/** Diagnostics of a body for the endpoint's kinds: the kind with the fewest errors; none when one kind is surely valid. */
function bodyErrors(id: EndpointId, value: unknown): Problem[] {
  if (kindsOf(id).some((kind) => surelyValid(kind, value))) return [];
  const text = JSON.stringify(value, null, 2);
  let best: Problem[] = [];
  let first = true;
  for (const kind of kindsOf(id)) {
    const errors = (diagnosePayload(text, { kind })?.problems ?? []).filter((p) => p.severity === 'error');
    if (first || errors.length < best.length) best = errors;
    first = false;
    if (errors.length === 0) break;
  }
  return best;
}

/**
 * The rules one row breaks.
 * @param skip request indexes not to resolve (they read earlier answers).
 * @returns the problems (empty when the row is valid); never throws.
 */
export async function checkRow(flow: FlowFile, env: FlowEnvironment, variables: Readonly<Record<string, string>>, row: DataRow, columns: readonly string[], skip: ReadonlySet<number>, read: (path: string) => Promise<string>): Promise<RowProblem[]> {
  const scope = rowScope(flow, env, variables, row);
  const out: RowProblem[] = [];
  for (const r of flow.requests) {
    if (skip.has(r.index)) continue;
    const base = { row: row.number, line: row.line, request: r.label };
    let prepared;
    try {
      prepared = await prepareRequest(r, scope, read);
    } catch (err) {
      const reason = err instanceof FlowVariableError || err instanceof FlowBodyFileError ? err.reason : (err as Error).message;
      const col = /\{\{row\.([^}]+)\}\}/.exec(reason)?.[1];
      out.push({ ...base, rule: 'variable', message: reason, ...(col ? { column: col } : {}) });
      continue;
    }
    const def = endpointsOf(prepared.method, prepared.url, env, prepared.json).matches[0]?.def;
    if (!def) continue;
    if (!prepared.json) {
      if (prepared.body !== undefined && prepared.body.trim() !== '') out.push({ ...base, rule: 'json-syntax', message: 'the body is not JSON with this row\'s values (a text where a number belongs?)', ...unquotedColumn(r, row) });
      continue;
    }
    for (const p of bodyErrors(def.id as EndpointId, prepared.json.value)) {
      const column = columnOf(row, columns, at(prepared.json.value, p.path), p.path);
      out.push({ ...base, rule: String(p.code), message: p.message, ...(column ? { column } : {}) });
    }
  }
  return out;
}
