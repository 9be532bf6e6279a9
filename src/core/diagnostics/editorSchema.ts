/**
 * The JSON Schema served to VS Code's JSON language service under `tpp://schemas/<kind>.json`, for
 * completion and hover only. Validation is this extension's own (source "tpp", with the spec's messages
 * and quick fixes), so every validation keyword is removed from the generated schema to keep the
 * Problems panel free of a second, less precise copy of each problem:
 * - dropped: required, min/maxLength, pattern, format, minimum/maximum, multipleOf, min/maxItems,
 *   additionalProperties: false, deprecated, not, if/then/else;
 * - `enum` and `const` become `examples` (still offered as value completions);
 * - `type` becomes a `defaultSnippets` body of that type (so completing a property still inserts
 *   `""`, `0`, `[]` or `{}`) and is then removed; `oneOf` becomes `anyOf`.
 */

const DROP = new Set([
  'required',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'deprecated',
  'not',
  'if',
  'then',
  'else',
  'type',
  'enum',
  'const',
  'oneOf',
]);

const SNIPPET_BY_TYPE: Record<string, unknown> = { string: '', number: 0, integer: 0, boolean: false, array: [], object: {} };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Completion-and-hover variant of a generated JSON Schema (see the module comment). */
export function editorSchema(schema: unknown): unknown {
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'additionalProperties' && v === false) continue;
      if (k === 'oneOf') out.anyOf = visit(v);
      else if (!DROP.has(k)) out[k] = k === 'properties' || k === 'definitions' || k === '$defs' ? mapValues(v) : visit(v);
    }
    const examples: Json[] = [];
    if (Array.isArray(node.enum)) examples.push(...node.enum);
    if (node.const !== undefined) examples.push(node.const);
    if (examples.length && !out.examples) out.examples = examples;
    const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
    if (typeof type === 'string' && SNIPPET_BY_TYPE[type] !== undefined && !out.defaultSnippets && out.default === undefined) {
      out.defaultSnippets = [{ body: (examples.length === 1 ? examples[0] : SNIPPET_BY_TYPE[type]) as Json }];
    }
    return out;
  };
  const mapValues = (v: Json): Json => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: { [k: string]: Json } = {};
    for (const [k, s] of Object.entries(v)) out[k] = visit(s);
    return out;
  };
  return visit(schema as Json);
}
