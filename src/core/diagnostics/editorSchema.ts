import { ISO_8601_PATTERN, ISO_DATE_OR_TIMESTAMP_PATTERN } from '../contract/patterns';

/**
 * The JSON Schema served to VS Code's JSON language service under `tpp://schemas/<kind>.json`, for
 * completion and hover only. Validation is this extension's own (source "tpp", with the spec's messages
 * and quick fixes), so every validation keyword is removed from the generated schema to keep the
 * Problems panel free of a second, less precise copy of each problem:
 * - dropped: required, min/maxLength, pattern, format, minimum/maximum, multipleOf, min/maxItems,
 *   additionalProperties: false, deprecated, not, if/then/else;
 * - a property no value satisfies (`not: {}`: the other body's field of a PATCH sharing its path) is left out;
 * - `enum` and `const` become `examples` (still offered as value completions; several values in an `allOf` branch);
 * - `type` becomes a `defaultSnippets` body holding a value that is valid at once (never a
 *   `""` that is then an error), see {@link valueSnippet}; it is then removed; `oneOf` becomes `anyOf`.
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

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A body string starting with `^` is inserted as snippet text as is (vscode-json-languageservice's convention). */
const TODAY = '^"${CURRENT_YEAR}-${CURRENT_MONTH}-${CURRENT_DATE}"';
const DATE_PATTERNS: ReadonlySet<string> = new Set([ISO_DATE_OR_TIMESTAMP_PATTERN, ISO_8601_PATTERN]);
const isDatePattern = (p: string) => DATE_PATTERNS.has(p);
const MONEY = '^0.00';

/**
 * The value completing a property inserts, valid against the contract as inserted: a date (pattern of an ISO 8601
 * date) is today's date in the spec's format (YYYY-MM-DD, from the editor's snippet variables, so it is today's
 * whenever it is inserted), a four-digit year this year, money and numbers `0.00`, ints 1, an enum its first value,
 * text the cursor between quotes. Undefined for a node that has no type.
 */
export function valueSnippet(node: { readonly [k: string]: Json }): Json | undefined {
  const examples = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : [];
  if (examples.length) return examples[0]!;
  const branches = Array.isArray(node.anyOf) ? (node.anyOf as { [k: string]: Json }[]) : Array.isArray(node.oneOf) ? (node.oneOf as { [k: string]: Json }[]) : [];
  if (branches.length) {
    const patterns = branches.map((b) => (typeof b.pattern === 'string' ? b.pattern : ''));
    if (patterns.some(isDatePattern)) return TODAY;
    if (patterns.some((p) => p.includes('\\.\\d{1,2}'))) return MONEY; // money: number or "12.50"
    if (branches.some((b) => b.type === 'integer')) return 1;
    return branches.map((b) => valueSnippet(b)).find((v) => v !== undefined);
  }
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
  switch (type) {
    case 'string': {
      const p = typeof node.pattern === 'string' ? node.pattern : '';
      if (isDatePattern(p)) return TODAY;
      if (p === '^(\\d{4})?$') return '^"${CURRENT_YEAR}"';
      return '^"$1"';
    }
    case 'integer':
      return typeof node.minimum === 'number' && node.minimum >= 1000 && node.maximum === 9999 ? '^${CURRENT_YEAR}' : 1;
    case 'number':
      return MONEY;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return undefined;
  }
}

/** A schema no value satisfies: `not: {}` (the contract's `z.never()`), with at most a description beside it. */
function forbidden(node: Json): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
  const not = node.not;
  return not !== null && typeof not === 'object' && !Array.isArray(not) && Object.keys(not).length === 0 && Object.keys(node).every((k) => k === 'not' || k === 'description');
}

/** Completion-and-hover variant of a generated JSON Schema (see the module comment). */
export function editorSchema(schema: unknown): unknown {
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'additionalProperties' && v === false) continue;
      if (k === 'oneOf') out.anyOf = visit(v);
      else if (!DROP.has(k)) out[k] = k === 'properties' || k === 'definitions' || k === '$defs' ? mapValues(v, k === 'properties') : visit(v);
    }
    const examples: Json[] = [];
    if (Array.isArray(node.enum)) examples.push(...node.enum);
    if (node.const !== undefined) examples.push(node.const);
    // Several allowed values: offered as value completions from an allOf branch, so that completing the property still
    // inserts the first one (the language service inserts nothing when the property itself has several proposals).
    if (examples.length > 1 && !out.examples) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { examples }];
    else if (examples.length && !out.examples) out.examples = examples;
    const snippet = !out.defaultSnippets && out.default === undefined ? valueSnippet(node) : undefined;
    if (snippet !== undefined) out.defaultSnippets = [{ body: snippet }];
    return out;
  };
  const mapValues = (v: Json, isProperties: boolean): Json => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: { [k: string]: Json } = {};
    // A property the body must not carry (`not: {}`) is not offered as a completion; the diagnostics report it.
    for (const [k, s] of Object.entries(v)) if (!(isProperties && forbidden(s))) out[k] = visit(s);
    return out;
  };
  return visit(schema as Json);
}
