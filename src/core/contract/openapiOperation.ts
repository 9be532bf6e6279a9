import { z } from 'zod';
import { RETRYABLE_STATUSES, SANDBOX_STATUS_TABLE, STATUS_TABLE } from './errors';
import { PAYLOAD_KINDS } from './kinds';
import { toJsonSchema } from './toJsonSchema';
import { EndpointDef, PayloadKind } from './types';

/**
 * One OpenAPI operation from the endpoint rows that share a method and path (spec: Endpoints): parameters,
 * request body with its examples, every answer of every row, and the rows' descriptions. Used by openapi.ts.
 */

export type Json = Record<string, unknown>;

/** OpenAPI path template of a row's path: `/registrations/:id` → `/registrations/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/** Keywords of VS Code's JSON language service: meaningful to the editor, unknown to OpenAPI tools (Redocly: `struct`). */
const EDITOR_KEYWORDS = ['deprecationMessage', 'patternErrorMessage', 'errorMessage', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions'];
/** Keywords whose value maps names (of properties, definitions) to schemas, not a schema itself. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Removes editor-only keywords from a JSON Schema, in place (never a property that happens to bear such a name). */
function dropEditorKeywords(node: unknown, isMap = false): void {
  if (Array.isArray(node)) return node.forEach((n) => dropEditorKeywords(n));
  if (node === null || typeof node !== 'object') return;
  const o = node as Json;
  if (!isMap) for (const k of EDITOR_KEYWORDS) delete o[k];
  for (const [k, v] of Object.entries(o)) dropEditorKeywords(v, !isMap && SCHEMA_MAPS.has(k));
}

/** `schema` (changed in place) without editor-only keywords. */
export function withoutEditorKeywords(schema: Json): Json {
  dropEditorKeywords(schema);
  return schema;
}

/** The export's JSON Schema (2020-12) of a contract schema: {@link toJsonSchema} without editor-only keywords. */
export function exportSchema(schema: z.ZodType): Json {
  return withoutEditorKeywords(toJsonSchema(schema, 'draft-2020-12'));
}

/** A request body as sent, per payload kind (variables already resolved), shown as the operation's examples. */
export type ExampleBodies = Partial<Record<PayloadKind, unknown>>;

/** What each path parameter of the endpoint table is (spec: Endpoints). */
const PATH_PARAMS: Readonly<Record<string, string>> = {
  id: 'The registration identifier (the id a create answered).',
  uniqueId: "The shop's uniqueId, as sent when the shop was enrolled.",
  company_name: "The partner's name segment {company_name}.",
  program: 'The fixed program-name path segment {program}.',
};

function parameters(defs: readonly EndpointDef[]): Json[] {
  const first = defs[0] as EndpointDef;
  const out: Json[] = first.pathParams.map((p) => ({ name: p, in: 'path', required: true, description: PATH_PARAMS[p] ?? p, schema: { type: 'string' } }));
  const seen = new Set<string>();
  for (const def of defs) {
    for (const [name, q] of Object.entries(def.query)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const schema = exportSchema(q.schema);
      if (q.default !== undefined) schema.default = q.default;
      const aliases = q.aliases?.length ? ` Also accepted as: ${q.aliases.join(', ')}.` : '';
      out.push({ name, in: 'query', required: defs.every((d) => d.query[name]?.required === true), description: q.description + aliases, schema });
    }
  }
  return out;
}

/**
 * Answers that may say how long to wait: every one a client retries (spec: Errors, "Clients are responsible for
 * retrying failed requests (5xx and 429)"; docs/contract.md).
 */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set(RETRYABLE_STATUSES);
const RETRY_AFTER: Json = {
  description:
    'How long to wait before retrying: seconds, or an HTTP date (RFC 9110). The Local sandbox sends seconds on every 429, on a storage 503, and on a fault scheduled with retryAfter.',
  schema: { type: 'string' },
};

/**
 * The success answers below the one the Local sandbox gives ({@link EndpointDef.sandboxStatus}): declared together
 * as `2XX`, so that the sandbox's own status is the operation's lowest 2xx: the one a mock server built from the
 * export answers (`prism mock` answers the lowest 2xx unless asked for another).
 */
function foldedBelowSandbox(defs: readonly EndpointDef[]): Set<string> {
  const sandbox = defs[0]?.sandboxStatus;
  if (sandbox === undefined) return new Set();
  return new Set(defs.flatMap((d) => Object.keys(d.responses)).filter((s) => Number(s) >= 200 && Number(s) < sandbox));
}

function responses(defs: readonly EndpointDef[], ref: (schema: z.ZodType) => Json): Record<string, Json> {
  const out: Record<string, Json> = {};
  const folded = foldedBelowSandbox(defs);
  for (const def of defs) {
    for (const [code, schema] of Object.entries(def.responses)) {
      const status = folded.has(code) ? '2XX' : code;
      if (out[status]) continue;
      const row = STATUS_TABLE[Number(code)] ?? SANDBOX_STATUS_TABLE[Number(code)];
      const meaning = row ? `${row.name}: ${row.meaning}` : code;
      const description = folded.has(code) ? `${meaning} The administrator may answer ${[...folded].join(' or ')} where the Local sandbox answers ${def.sandboxStatus}, with the same body.` : meaning;
      const answer: Json = schema === null ? { description } : { description, content: { 'application/json': { schema: ref(schema) } } };
      if (RETRY_AFTER_STATUSES.has(Number(status))) answer.headers = { 'Retry-After': { ...RETRY_AFTER } };
      out[status] = answer;
    }
  }
  return out;
}

/** `examples` of a request body: the example of every payload kind sent to one of `defs`, in kind order. */
function bodyExamples(defs: readonly EndpointDef[], examples: ExampleBodies): Json | undefined {
  const out: Json = {};
  for (const [kind, value] of Object.entries(examples) as [PayloadKind, unknown][]) {
    const def = PAYLOAD_KINDS[kind];
    if (value === undefined || !defs.some((d) => def.endpoints.includes(d.id))) continue;
    out[kind] = { summary: def.title, value };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The operation of `defs` (same method and path; several only for the forms told apart by their body, whose bodies
 * become a `oneOf`). `ref` names a component schema (or inlines an unnamed one).
 */
export function buildOperation(defs: readonly EndpointDef[], ref: (schema: z.ZodType) => Json, examples: ExampleBodies): Json {
  const first = defs[0] as EndpointDef;
  const description =
    defs.length === 1
      ? first.description
      : `Told apart by the body. ${defs.map((d) => `${d.summary} ${d.description}`).join(' ')}`;
  const op: Json = {
    operationId: defs.map((d, i) => (i === 0 ? d.id : d.id[0]?.toUpperCase() + d.id.slice(1))).join('Or'),
    summary: defs.map((d) => d.summary).join(' / '),
    description,
    tags: [first.product],
    parameters: parameters(defs),
    responses: responses(defs, ref),
  };
  const bodies = defs.map((d) => d.body).filter((b): b is z.ZodType => b !== undefined);
  if (bodies.length > 0) {
    const schema = bodies.length === 1 ? ref(bodies[0] as z.ZodType) : { oneOf: bodies.map(ref) };
    const shown = bodyExamples(defs, examples);
    op.requestBody = { required: true, content: { 'application/json': shown ? { schema, examples: shown } : { schema } } };
  }
  if (defs.every((d) => d.deprecated)) op.deprecated = true;
  return op;
}
