import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser'; // ESM build: esbuild cannot bundle the UMD 'main' (dynamic requires)

/**
 * Strict JSON text helpers for the editor side (kept in core so that jsonc-parser loads with dist/core.js, not at
 * activation). Payload files are strict JSON: no comments, no trailing commas (../shared/spec/partner-interface.md,
 * Conventions: JSON bodies).
 */

/** The value of a strict JSON text, or its first syntax error (`code` as jsonc-parser names it, `offset` in UTF-16 units). */
export type StrictJson = { ok: true; value: unknown } | { ok: false; code: string; offset: number };

/** Parses `text` as strict JSON (comments and trailing commas are errors). Never throws. */
export function parseStrictJson(text: string): StrictJson {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: false, disallowComments: true }) as unknown;
  const e = errors[0];
  return e ? { ok: false, code: printParseErrorCode(e.error), offset: e.offset } : { ok: true, value };
}

/** Where a field sits: `offset`/`length` in UTF-16 units of the text; `container` when the value is an object or array. */
export interface FieldSpan {
  readonly offset: number;
  readonly length: number;
  readonly container: boolean;
}

/**
 * The span of the value at `path` in `text`, or, when that field is missing, of the nearest enclosing value
 * (the document itself at worst). Undefined only when the text has no JSON value at all.
 */
export function nearestFieldSpan(text: string, path: readonly (string | number)[]): FieldSpan | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  let node: Node | undefined;
  for (let n = path.length; n >= 0 && !node; n--) node = findNodeAtLocation(root, [...path.slice(0, n)]);
  return node && { offset: node.offset, length: node.length, container: node.type === 'object' || node.type === 'array' };
}
