/**
 * `{{…}}` references of flow files (docs/flows.md, Variables), REST Client's forms: a dynamic value (`{{$guid}}`,
 * `{{$randomInt 1 5}}`), a request reference (`{{reg.response.body.$._id}}`, `{{reg.response.headers.Location}}`)
 * or a name (file variable, `--var`, or an environment address such as `{{baseUrl}}`). Syntax only; values are
 * variables.ts's.
 */
import { splitReference } from '../variables/syntax';
import { SCRIPTS_NOT_RUN } from './directives';
import type { FlowPosition } from './types';

/** One reference in a text, with its offsets (UTF-16) in that text. */
export interface FlowRef {
  /** As written, braces included. */
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  readonly ref: ParsedRef;
}

/** What a reference names. */
export type ParsedRef =
  | { readonly kind: 'dynamic'; readonly name: string; readonly args: readonly string[] }
  | { readonly kind: 'response'; readonly request: string; readonly part: 'body' | 'headers'; readonly path: string }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'invalid'; readonly reason: string };

const REF_RE = /\{\{([^{}]*)\}\}/g;
const NAME_RE = /^[A-Za-z_][\w-]*$/;
const ROW_RE = /^row\.[^{}\s](?:[^{}]*[^{}\s])?$/;
const RESPONSE_RE = /^([A-Za-z_][\w-]*)\.(response|request)\.(body|headers)(?:\.(.*))?$/s;

/** Classifies the text between the braces. */
export function parseRef(inner: string): ParsedRef {
  const t = inner.trim();
  if (t.startsWith('$')) return { kind: 'dynamic', ...splitReference(t) };
  const m = RESPONSE_RE.exec(t);
  if (m) {
    if (m[2] === 'request') return { kind: 'invalid', reason: `${m[1]}.request… is not supported in flows: read the answer, ${m[1]}.response.body.<JSONPath> or ${m[1]}.response.headers.<Name>` };
    const path = m[4] ?? '';
    if (path === '') return { kind: 'invalid', reason: `${t} needs a path after it: ${m[3] === 'body' ? `${t}.$.id (JSONPath) or ${t}.* (the whole body)` : `${t}.Location (a header name)`}` };
    return { kind: 'response', request: m[1] as string, part: m[3] as 'body' | 'headers', path };
  }
  if (NAME_RE.test(t)) return { kind: 'name', name: t };
  // Backfill hook (docs/backfills.md): a data row's value, {{row.<column>}}; a request named row is read above.
  if (ROW_RE.test(t)) return { kind: 'name', name: t };
  if (!t) return { kind: 'invalid', reason: 'empty {{}}' };
  const property = /^([A-Za-z_][\w-]*)\.([\w.]+)$/.exec(t);
  const hint = property ? `; to read the answer of the request named ${property[1]}, write {{${property[1]}.response.body.$.${property[2]}}}` : '';
  return { kind: 'invalid', reason: `'${t}' is not a variable name, a $dynamic value or a request reference (reg.response.body.$.id): httpyac would run it as JavaScript, and ${SCRIPTS_NOT_RUN}${hint}` };
}

/** The references in `text`, in order. */
export function flowRefs(text: string): FlowRef[] {
  if (!text.includes('{{')) return [];
  const out: FlowRef[] = [];
  for (const m of text.matchAll(REF_RE)) out.push({ raw: m[0], start: m.index, end: m.index + m[0].length, ref: parseRef(m[1] as string) });
  return out;
}

/** The 1-based position of `offset` in `text`, which starts at `base` (line breaks move to the next line, column 1). */
export function positionIn(text: string, offset: number, base: FlowPosition): FlowPosition {
  let line = base.line;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return line === base.line ? { line, column: base.column + offset } : { line, column: offset - lineStart + 1 };
}

/** An unmatched `{{` in `text` (a reference never closed), as an offset, or -1. */
export function unclosedRef(text: string): number {
  const open = text.lastIndexOf('{{');
  if (open < 0) return -1;
  return text.indexOf('}}', open) < 0 ? open : -1;
}
