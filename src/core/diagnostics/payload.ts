import type { z } from 'zod';
// From the contract's modules, not its index: the index builds every schema, these build one kind's on first use.
import { PAYLOAD_KINDS, SCHEMA_URI_PREFIX, kindFromFileName, kindFromSchemaUri, schemaUri } from '../contract/kinds';
import { pathSegmentProblem } from '../contract/endpoints';
import { MESSAGES } from '../contract/primitives';
import type { PayloadKind, PayloadKindDef } from '../contract/types';
import { SERVICE_TYPE_MESSAGE, YES_NO_MESSAGE, v2FieldInfo } from '../contract/v2/fields';
import { RULES, validateText, type Finding, type IssueLike, type SemanticCheck, type ValidateOptions, type ValidationTarget } from './engine';
import { indentUnit, lineEnding } from './edits';
import { LineIndex } from './lineIndex';
import { findUnknownProperties, nearest, schemaAt } from '../contract/schemaWalk';
import { SEMANTIC_CHECKS, SEMANTIC_RULES } from './semantic';
import type { Fix, JsonPath, Problem, TextEdit } from './types';

/**
 * Payload files: kind detection and validation against the contract (spec: Resources and their fields;
 * docs/diagnostics.md), the same checks for the editor and `tpp validate`. A payload file declares its kind with
 * `"$schema": "tpp://schemas/<kind>.json"`; a file named `*.<kind>.tpp.json` is one too.
 */

/** Spec section (heading) of each kind's field table, for "see spec" links. */
export const KIND_SECTIONS: Readonly<Record<PayloadKind, string>> = {
  'v2-registrations': 'Registration (v2)',
  'v2-claims': 'Claim (v2)',
  'v2-sales': 'Sale (v2)',
  'v2-cancellations': 'Cancellation (v2, deprecated)',
  registration: 'Registration, earlier revision (paths without product prefix)',
  'tire-protection-registration': 'Tire-protection registration',
  'tire-protection-claim': 'Claim (tire protection)',
  shop: 'Shop',
  'shop-update': 'Shop',
  part: 'Part (sold to a shop)',
  transaction: 'Transaction (manufacturer to dealer)',
  'motor-club-registration': 'Motor-club registration',
  'motor-club-customer': 'Motor-club registrations',
  cancellation: 'States and transitions',
};

/** GitHub-style anchor of a spec heading: "Registration (v2)" -> "registration-v2". */
export function specAnchor(section: string): string {
  return section
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** Additional rule codes of contract issues, keyed by the contract's message (spec words). */
/** Code of a `$` meta property whose value cannot be a path segment (`.`, `..`). */
export const PATH_SEGMENT = 'path-segment';

export const CONTRACT_RULES = {
  empty: 'empty',
  maxLength: 'max-length',
  int: 'int',
  integer: 'integer',
  number: 'number',
  money: RULES.money,
  datetime: 'datetime',
  boolean: 'boolean',
  email: 'email',
  yearFormat: 'year-format',
  minItems: 'min-items',
  separateRequests: 'separate-requests',
  unknownKind: 'unknown-kind',
} as const;

const BY_MESSAGE = new Map<string, string>([
  [MESSAGES.empty, CONTRACT_RULES.empty],
  [MESSAGES.string, RULES.type],
  [MESSAGES.int, CONTRACT_RULES.int],
  [MESSAGES.integer, CONTRACT_RULES.integer],
  [YES_NO_MESSAGE, RULES.enum],
  [SERVICE_TYPE_MESSAGE, RULES.enum],
  [MESSAGES.stringOrStrings, RULES.type],
  [MESSAGES.number, CONTRACT_RULES.number],
  [MESSAGES.money, CONTRACT_RULES.money],
  [MESSAGES.datetime, CONTRACT_RULES.datetime],
  [MESSAGES.isoDate, CONTRACT_RULES.datetime],
  [MESSAGES.boolean, CONTRACT_RULES.boolean],
  [MESSAGES.email, CONTRACT_RULES.email],
  [MESSAGES.vehicleYear, CONTRACT_RULES.yearFormat],
  [MESSAGES.object, RULES.type],
  [MESSAGES.array, RULES.type],
  [MESSAGES.cancelWithCustomer, CONTRACT_RULES.separateRequests],
  [MESSAGES.customerWithCancel, CONTRACT_RULES.separateRequests],
]);

/** Spec message of a v2 field type, for zod's generic messages (e.g. a money string failing its pattern). */
const MESSAGE_BY_V2_TYPE: Record<string, string> = { int: MESSAGES.int, money: MESSAGES.money, datetime: MESSAGES.datetime };

/**
 * Rule code of a contract zod issue, from the contract's message (the spec's words). A generic zod
 * message ("Invalid string: must match pattern ...", raised inside a union) is replaced by the spec's
 * words of the field's v2 type.
 */
export function describeContractIssue(issue: IssueLike, path: JsonPath, schema: z.ZodType): { code: string; message?: string } | undefined {
  let message = issue.message;
  let replaced: string | undefined;
  if (/^(Invalid|Too (big|small))\b/.test(message)) {
    const field = schemaAt(schema, path);
    const info = field ? v2FieldInfo(field) : undefined;
    replaced = info ? MESSAGE_BY_V2_TYPE[info.type] : undefined;
    if (replaced) message = replaced;
  }
  const direct = BY_MESSAGE.get(message);
  const code =
    direct ??
    (/^at most \d+ characters/.test(message)
      ? CONTRACT_RULES.maxLength
      : /^at least one /.test(message)
        ? CONTRACT_RULES.minItems
        : /^four-digit year/.test(message)
          ? CONTRACT_RULES.yearFormat
          : message.startsWith(MESSAGES.array)
            ? RULES.type
            : undefined);
  return code ? { code, message: replaced } : undefined;
}

/** Value of `template` at `path`, reading item 0 of arrays for every index. */
function templateAt(template: unknown, path: JsonPath): unknown {
  let v = template;
  for (const seg of path) {
    if (Array.isArray(v)) v = v[0];
    else if (v !== null && typeof v === 'object' && typeof seg === 'string') v = (v as Record<string, unknown>)[seg];
    else return undefined;
  }
  return v;
}

function deprecatedCheck(def: PayloadKindDef): SemanticCheck {
  return function* (root): Generator<Finding> {
    yield {
      path: root.$schema !== undefined ? ['$schema'] : [],
      severity: 'warning',
      code: SEMANTIC_RULES.deprecated,
      message: `$schema: ${def.title.replace(/\s*\(deprecated\)$/i, '')} are deprecated and unsupported by the administrator`,
      section: 'Versioning',
    };
  };
}

/** A `$` meta property that fills a path parameter (`$registrationId`, `$uniqueId`) must be one path segment. */
function pathSegmentCheck(def: PayloadKindDef): SemanticCheck | undefined {
  const keys = Object.entries(def.meta).filter(([, m]) => m.pathParam).map(([key]) => key);
  if (keys.length === 0) return undefined;
  return function* (root): Generator<Finding> {
    for (const key of keys) {
      const problem = typeof root[key] === 'string' ? pathSegmentProblem(root[key]) : undefined;
      if (problem) yield { path: [key], severity: 'error', code: PATH_SEGMENT, message: `${key}: ${problem}`, section: 'Endpoints' };
    }
  };
}

const targets = new Map<PayloadKind, ValidationTarget>();

/** The engine target of a payload kind: its contract schema, rule codes, spec sections, semantic checks. */
export function targetFor(kind: PayloadKind): ValidationTarget {
  let t = targets.get(kind);
  if (t) return t;
  const def = PAYLOAD_KINDS[kind];
  const section = KIND_SECTIONS[kind];
  t = {
    schema: def.schema,
    describe: (issue, path) => describeContractIssue(issue, path, def.schema),
    sectionOf: () => section,
    placeholderOf: (path) => templateAt(def.template, path),
    checks: [...(def.deprecated ? [deprecatedCheck(def)] : []), ...[pathSegmentCheck(def)].filter((c) => c !== undefined), ...(SEMANTIC_CHECKS[kind] ?? [])],
  };
  targets.set(kind, t);
  return t;
}

/** Where a document declares its schema: the URI, its kind if recognised, and the offsets of the string value. */
export interface SchemaDeclaration {
  readonly uri: string;
  readonly kind?: PayloadKind;
  readonly start: number;
  readonly end: number;
}

const SCHEMA_RE = /"\$schema"\s*:\s*("(?:[^"\\]|\\.)*")/;

/**
 * Finds `"$schema": "tpp://schemas/<kind>.json"` in `text` (a textual search, so it works on text with
 * syntax errors too). Undefined when there is no `$schema` or it is not a `tpp://schemas/` URI.
 */
export function findSchemaDeclaration(text: string): SchemaDeclaration | undefined {
  const at = text.indexOf('"$schema"');
  if (at < 0) return undefined;
  const m = SCHEMA_RE.exec(text.slice(at, at + 2048));
  if (!m) return undefined;
  let uri: string;
  try {
    uri = JSON.parse(m[1]!) as string;
  } catch {
    return undefined;
  }
  if (!uri.startsWith(SCHEMA_URI_PREFIX)) return undefined;
  const start = at + m.index + m[0].length - m[1]!.length;
  const kind = kindFromSchemaUri(uri);
  return { uri, kind: kind ?? undefined, start, end: start + m[1]!.length };
}

export { kindFromFileName };

/**
 * True when a document is one of ours: a `tpp://schemas/` `$schema` (known kind or not) or a `*.<kind>.tpp.json`
 * name. Cheap (a regular expression over the first `$schema`), for features that must stay off other JSON files.
 */
export function isPayloadText(text: string, fileName: string): boolean {
  return kindFromFileName(fileName) !== undefined || findSchemaDeclaration(text) !== undefined;
}

export interface DiagnoseOptions extends ValidateOptions {
  /** File name, for the `*.<kind>.tpp.json` convention. */
  readonly fileName?: string;
  /** Kind to assume when the text declares none (e.g. chosen by the user). */
  readonly kind?: PayloadKind;
}

export interface PayloadDiagnosis {
  /** The payload kind; undefined when the `$schema` names an unknown kind (then problems says so). */
  readonly kind?: PayloadKind;
  readonly problems: Problem[];
}

/**
 * Diagnoses a payload document. Undefined when the text is not a payload file (no recognised
 * `tpp://schemas/` `$schema`, no `*.<kind>.tpp.json` name, no explicit kind): such files are left alone.
 * A `$schema` naming an unknown kind gives one 'unknown-kind' error at that string, with a suggestion.
 */
export function diagnosePayload(text: string, options: DiagnoseOptions = {}): PayloadDiagnosis | undefined {
  const declared = findSchemaDeclaration(text);
  if (declared && !declared.kind) {
    const name = declared.uri.slice(SCHEMA_URI_PREFIX.length).replace(/\.json$/, '');
    const known = Object.keys(PAYLOAD_KINDS);
    const guess = nearest(name, known);
    const lines = new LineIndex(text);
    const fix: Fix | undefined = guess ? { title: `Change to ${schemaUri(guess as PayloadKind)}`, edits: [{ offset: declared.start, length: declared.end - declared.start, newText: JSON.stringify(schemaUri(guess as PayloadKind)) }], preferred: true } : undefined;
    const message = `$schema: unknown payload kind '${name}'${guess ? `; did you mean ${guess}?` : ''} Known kinds: ${known.join(', ')}`;
    return {
      problems: [{ severity: 'error', code: CONTRACT_RULES.unknownKind, message, start: declared.start, end: declared.end, range: { start: lines.positionAt(declared.start), end: lines.positionAt(declared.end) }, path: ['$schema'], fix }],
    };
  }
  const kind = declared?.kind ?? options.kind ?? (options.fileName ? kindFromFileName(options.fileName) : undefined);
  if (!kind) return undefined;
  return { kind, problems: validateText(text, targetFor(kind), options) };
}

/**
 * The one payload kind whose schema `value` satisfies with no unknown property, for a document without
 * `$schema` ("Add $schema" quick fix). Undefined when none or several match, or the value is empty.
 */
export function guessKind(value: unknown): PayloadKind | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) return undefined;
  let found: PayloadKind | undefined;
  for (const def of Object.values(PAYLOAD_KINDS)) {
    if (!def.schema.safeParse(value).success || findUnknownProperties(value, def.schema, 1).length > 0) continue;
    if (found) return undefined;
    found = def.kind;
  }
  return found;
}

/** Edit adding `"$schema": "tpp://schemas/<kind>.json"` as the first property of the root object at `rootStart` ('{'). */
export function addSchemaEdit(text: string, rootStart: number, kind: PayloadKind): TextEdit {
  const eol = lineEnding(text);
  const indent = indentUnit(text);
  let j = rootStart + 1;
  while (j < text.length && /\s/.test(text[j]!)) j++;
  const empty = text[j] === '}';
  return { offset: rootStart + 1, length: 0, newText: `${eol}${indent}"$schema": ${JSON.stringify(schemaUri(kind))}${empty ? '' : ','}` };
}
