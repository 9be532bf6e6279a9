import { getNodeValue, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser'; // ESM build: esbuild cannot bundle the UMD 'main' (dynamic requires)
import type { z } from 'zod';
import { charLength } from '../contract/primitives';
import { SYNTAX_MESSAGES, formatMoney, insertPropertiesEdit } from './edits';
import { fieldName, lookup } from '../contract/paths';
import { localizedIssues } from './localizedIssues';
import { pathKey, strictLocator, type Locate } from './locate';
import { treeLocator } from './treeLocator';
import { placeDrafts, withRanges, type Draft } from './placement';
import { enumValues, findUnknownProperties, placeholderFor, schemaAt } from '../contract/schemaWalk';
import { checkVariables } from '../variables/check';
import type { JsonPath, Problem, Severity } from './types';

/**
 * The generic diagnostics engine: document text + zod schema (+ semantic checks) -> problems with
 * ranges (docs/diagnostics.md). Pipeline, built so that a valid document costs little and a large one does not block
 * typing:
 *
 * 1. `JSON.parse` (fast, native). Only if it throws is the text parsed again with jsonc-parser
 *    (tree, error-tolerant) to report every syntax error at its place and still check the content.
 * 2. zod on the plain value: an accept-only predicate compiled from the same zod schema decides
 *    whether the value is valid; zod's `safeParse` runs only on the parts it rejects, for their issues
 *    (see fastAccept.ts); a walk along the schema for unknown properties; semantic
 *    checks on the plain value.
 * 3. Only when something was found: one pass over the text locates the few JSON paths concerned
 *    (see {@link strictLocator}) and placement.ts anchors each problem and makes its fix; line/character
 *    ranges are computed when first read (the editor uses its document's own line index instead).
 *
 * A valid document therefore costs JSON.parse + zod + one walk, and never builds a syntax tree.
 * Duplicate keys: like `JSON.parse` (and the server's JSON parser) the last occurrence wins; they are
 * not reported, and a problem about such a property points at the last occurrence.
 */

export { fieldName, formatMoney, insertPropertiesEdit };

/** Rule codes produced by this module (contract rules come from {@link ValidationTarget.ruleOf}). */
export const RULES = {
  syntax: 'syntax',
  emptyFile: 'empty-file',
  notObject: 'not-object',
  required: 'required',
  unknownProperty: 'unknown-property',
  money: 'money',
  enum: 'enum',
  type: 'type',
} as const;

/** Spec section of the JSON rules ("Bodies of POST and PATCH are JSON with Content-Type: application/json"). */
export const JSON_SECTION = 'Endpoints';

/** A finding of a semantic check, before it is located in the text. */
export interface Finding {
  readonly path: JsonPath;
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  /** Underline the property's key instead of its value. */
  readonly onKey?: boolean;
  readonly section?: string;
  /** A quick fix replacing the value with this one ("Change to ..."). */
  readonly replaceWith?: unknown;
}

/** A check the schema cannot express, run on the plain parsed value (never on invalid JSON roots). */
export type SemanticCheck = (value: Record<string, unknown>, ctx: { readonly now: Date }) => Iterable<Finding>;

/** A zod issue as the engine sees it (zod 4 `$ZodIssue`, loosely typed). */
export interface IssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly values?: readonly unknown[];
  readonly origin?: string;
  readonly maximum?: number | bigint;
}

/** What to validate the text against. */
export interface ValidationTarget {
  readonly schema: z.ZodType;
  readonly checks?: readonly SemanticCheck[];
  /**
   * Rule code (e.g. 'max-length', 'money') and, to replace a generic zod message, the spec's words for an
   * issue at `path`. Without an answer the engine uses the zod issue code and message.
   */
  readonly describe?: (issue: IssueLike, path: JsonPath) => { readonly code: string; readonly message?: string } | undefined;
  /** Heading of the spec section stating the rules of the value at `path`. */
  readonly sectionOf?: (path: JsonPath) => string | undefined;
  /** A realistic value for a missing property at `path` (used by the "add missing properties" fix). */
  readonly placeholderOf?: (path: JsonPath) => unknown;
}

export interface ValidateOptions {
  /** Clock for date checks (default: now). */
  readonly now?: Date;
  /** Stop after this many problems (default 1000): a wholly broken 10 MB file stays cheap. */
  readonly maxProblems?: number;
  /** Names of the environment's variables (`tpp.variables`); other `{{names}}` are unknown-variable warnings. */
  readonly variables?: ReadonlySet<string>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Validates `text` against `target`. Never throws. Problems are sorted by position.
 * Empty text gives one 'empty-file' error; a root that is not an object one 'not-object' error.
 */
export function validateText(text: string, target: ValidationTarget, options: ValidateOptions = {}): Problem[] {
  const max = options.maxProblems ?? 1000;
  const placed: Omit<Problem, 'range'>[] = [];
  const push = (p: Omit<Problem, 'range'>) => placed.push(p);
  const problems = (): Problem[] => withRanges(text, placed);

  if (text.trim() === '') {
    push({ severity: 'error', code: RULES.emptyFile, message: 'The file is empty: a payload is a JSON object, e.g. {}', start: 0, end: text.length, path: [], section: JSON_SECTION });
    return problems();
  }
  const parsed = parse(text, max, push);
  if (!parsed) return problems();
  const { value, locate } = parsed;
  if (!isRecord(value)) {
    const loc = locate([[]]).get('[]');
    const what = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    push({ severity: 'error', code: RULES.notObject, message: `The top level must be a JSON object, not ${what}`, start: loc?.start ?? 0, end: loc?.end ?? text.length, path: [], section: JSON_SECTION });
    return problems();
  }
  const root = value;

  const drafts: Draft[] = [];
  // `{{variables}}`: values known at send time only skip the checks of their path; a file without `{{` pays one scan.
  const vars = text.includes('{{') ? checkVariables(root, target.schema, options.variables) : undefined;
  const skip = vars?.skip ?? new Set<string>();
  for (const f of vars?.findings ?? []) drafts.push({ ...f, anchor: 'value', section: target.sectionOf?.(f.path) });
  schemaDrafts(root, target, skip, max, drafts);
  unknownPropertyDrafts(root, target, max, drafts);
  checkDrafts(root, target, skip, options.now ?? new Date(), max, drafts);

  if (drafts.length > 0) {
    const placeholder = (p: JsonPath): unknown => {
      const fromTarget = target.placeholderOf?.(p);
      if (fromTarget !== undefined) return fromTarget;
      const s = schemaAt(target.schema, p);
      return s ? placeholderFor(s) : '';
    };
    for (const p of placeDrafts(text, drafts, locate, placeholder)) push(p);
  }
  return problems();
}

/**
 * The parsed value and its locator; for text `JSON.parse` refuses, its syntax errors pushed (one per place, at most
 * `max`) and what jsonc-parser could still read of it. Undefined when nothing could be read.
 */
function parse(text: string, max: number, push: (p: Omit<Problem, 'range'>) => void): { value: unknown; locate: Locate } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return { value, locate: strictLocator(text) };
  } catch (err) {
    const errors: ParseError[] = [];
    const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    let lastOffset = -1;
    for (const e of errors.slice(0, max)) {
      if (e.offset === lastOffset) continue; // one error per place (a trailing comma gives two)
      lastOffset = e.offset;
      const name = printParseErrorCode(e.error);
      push({ severity: 'error', code: RULES.syntax, message: `JSON syntax: ${SYNTAX_MESSAGES[name] ?? name}`, start: e.offset, end: e.offset + Math.max(e.length, 1), path: [], section: JSON_SECTION });
    }
    if (errors.length === 0) {
      // jsonc-parser accepted what JSON.parse refused (rare): report JSON.parse's own words.
      const at = /position (\d+)/.exec(String(err))?.[1];
      const o = at ? Number(at) : 0;
      push({ severity: 'error', code: RULES.syntax, message: `JSON syntax: ${err instanceof Error ? err.message : String(err)}`, start: o, end: Math.min(o + 1, text.length), path: [], section: JSON_SECTION });
    }
    return root ? { value: getNodeValue(root) as unknown, locate: treeLocator(root) } : undefined;
  }
}

/**
 * The contract's schema problems, up to `max` drafts. Valid documents skip zod; otherwise zod runs only on the
 * failing parts, and only until the cap (localizedIssues.ts). Issues that make no draft (unknown keys,
 * `{{variables}}`, repeats) may leave the cap unmet: then read further.
 */
function schemaDrafts(root: Record<string, unknown>, target: ValidationTarget, skip: ReadonlySet<string>, max: number, drafts: Draft[]): void {
  const seen = new Set<string>();
  let read = 0;
  for (let limit = max; ; limit *= 4) {
    const issues = localizedIssues(target.schema, root, [], limit) as readonly IssueLike[];
    for (; read < issues.length && drafts.length < max; read++) {
      const issue = issues[read]!;
      if (issue.code === 'unrecognized_keys') continue; // reported by the unknown-property walk, with suggestions
      const path = issue.path.filter((s): s is string | number => typeof s === 'string' || typeof s === 'number');
      if (skip.has(pathKey(path))) continue;
      const draft = issueDraft(issue, path, root, target, seen);
      if (draft) drafts.push(draft);
    }
    if (drafts.length >= max || issues.length < limit) break;
  }
}

/** The draft of one schema issue at `path`, with its quick fix where there is one; undefined for one already seen. */
function issueDraft(issue: IssueLike, path: JsonPath, root: Record<string, unknown>, target: ValidationTarget, seen: Set<string>): Draft | undefined {
  const found = lookup(root, path);
  const field = fieldName(path);
  const section = target.sectionOf?.(path);
  if (!found.exists && path.length > 0) {
    const key = pathKey(path);
    if (seen.has(key)) return undefined;
    seen.add(key);
    return { path, severity: 'error', code: RULES.required, message: `${field}: required field is missing`, anchor: 'missing', section, missingIn: pathKey(path.slice(0, -1)) };
  }
  const described = target.describe?.(issue, path);
  const code = described?.code ?? (issue.code === 'invalid_value' ? RULES.enum : issue.code === 'invalid_type' || issue.code === 'invalid_union' ? RULES.type : issue.code);
  const text = described?.message ?? issue.message;
  const dedupe = `${pathKey(path)}|${code}`;
  if (seen.has(dedupe)) return undefined;
  seen.add(dedupe);
  let message = text.startsWith(`${field}:`) ? text : `${field}: ${text}`;
  if (issue.code === 'too_big' && issue.origin === 'string' && typeof found.value === 'string') message += `, got ${charLength(found.value)}`;
  let fix: Draft['fix'];
  if (code === RULES.money) {
    const formatted = formatMoney(found.value);
    if (formatted !== undefined && formatted !== JSON.stringify(found.value))
      fix = (loc) => ({ title: `Format as money: ${formatted}`, edits: [{ offset: loc.start, length: loc.end - loc.start, newText: formatted }], preferred: true });
  } else if (typeof found.value === 'string') {
    const allowed = issue.values ?? (code === RULES.enum ? enumValues(schemaAt(target.schema, path) ?? target.schema) : undefined);
    const v = found.value.trim().toLowerCase();
    const match = allowed?.find((a) => typeof a === 'string' && a.toLowerCase() === v);
    if (typeof match === 'string' && match !== found.value) fix = (loc) => ({ title: `Change to ${match}`, edits: [{ offset: loc.start, length: loc.end - loc.start, newText: JSON.stringify(match) }], preferred: true });
  }
  return { path, severity: 'error', code, message, anchor: 'value', section, fix };
}

/** Properties the contract does not know, each with a rename to the name it likely meant. */
function unknownPropertyDrafts(root: Record<string, unknown>, target: ValidationTarget, max: number, drafts: Draft[]): void {
  for (const u of findUnknownProperties(root, target.schema, max)) {
    const field = fieldName(u.path);
    const hint = u.suggestion ? `; did you mean ${u.suggestion}?` : '';
    const suggestion = u.suggestion;
    drafts.push({
      path: u.path,
      severity: 'warning',
      code: RULES.unknownProperty,
      message: `${field}: unknown property${hint}`,
      anchor: 'key',
      section: target.sectionOf?.(u.path.slice(0, -1)),
      fix: suggestion ? (loc) => (loc.keyStart === undefined ? undefined : { title: `Rename to ${suggestion}`, edits: [{ offset: loc.keyStart, length: (loc.keyEnd ?? loc.keyStart) - loc.keyStart, newText: JSON.stringify(suggestion) }], preferred: true }) : undefined,
    });
  }
}

/** The target's own checks (rules across fields, dates against `now`), up to `max` drafts in all. */
function checkDrafts(root: Record<string, unknown>, target: ValidationTarget, skip: ReadonlySet<string>, now: Date, max: number, drafts: Draft[]): void {
  for (const check of target.checks ?? []) {
    for (const f of check(root, { now })) {
      if (skip.has(pathKey(f.path))) continue;
      const replacement = f.replaceWith === undefined ? undefined : JSON.stringify(f.replaceWith);
      const fix: Draft['fix'] = replacement === undefined ? undefined : (loc) => ({ title: `Change to ${replacement}`, edits: [{ offset: loc.start, length: loc.end - loc.start, newText: replacement }], preferred: true });
      drafts.push({ path: f.path, severity: f.severity, code: f.code, message: f.message, anchor: f.onKey ? 'key' : 'value', section: f.section ?? target.sectionOf?.(f.path), fix });
      if (drafts.length >= max) break;
    }
  }
}
