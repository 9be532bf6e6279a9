/**
 * Checks of a parsed flow file that need the whole file (docs/flows.md, Problems): bodies whose brackets never
 * close, references to requests that do not exist or run later, malformed `{{…}}`, dynamic values with bad
 * arguments, two requests with one name, and file variables that refer to each other in a circle.
 */
import { flowDynamicProblem } from './flowDynamic';
import { flowRefs, positionIn, unclosedRef } from './refs';
import type { FlowBody, FlowFile, FlowPosition, FlowProblem, FlowRequest } from './types';

/**
 * A body that starts as JSON (`{` or `[`) and whose brackets are not closed before the next `###` or the end of the
 * file: an unclosed body. Strings are skipped; `{{…}}` inside them do not count.
 */
export function bodyProblems(body: Extract<FlowBody, { kind: 'inline' }>, file: string): FlowProblem[] {
  const text = body.text;
  if (!/^\s*[[{]/.test(text)) return [];
  const stack: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' && text[i + 1] === '{' && text.indexOf('}}', i) > 0) i = text.indexOf('}}', i) + 1;
    else if (c === '{' || c === '[') stack.push(i);
    else if (c === '}' || c === ']') stack.pop();
  }
  if (stack.length === 0 && !inString) return [];
  const at = positionIn(text, stack[stack.length - 1] ?? text.lastIndexOf('"'), body);
  const what = inString ? 'a string' : `'${text[stack[stack.length - 1] as number]}'`;
  return [{ file, ...at, severity: 'error', code: 'flow-body', message: `The body is not closed: ${what} opened at line ${at.line}, column ${at.column} has no end before the next ### or the end of the file.` }];
}

/** Every text of a request that may hold references, with where it starts. */
export function textsOf(r: FlowRequest): { text: string; at: FlowPosition }[] {
  const out = [{ text: r.url, at: { line: r.line, column: r.urlColumn ?? r.column } }];
  for (const h of r.headers) out.push({ text: h.value, at: { line: h.line, column: h.valueColumn ?? h.column } });
  if (r.body?.kind === 'inline') out.push({ text: r.body.text, at: r.body });
  for (const a of r.assertions) if (a.expected !== undefined) out.push({ text: a.expected, at: { line: a.line, column: a.expectedColumn ?? a.column } });
  return out;
}

/** Problems of the references in one text; `index` is the request it belongs to (Infinity for file variables). */
function refProblems(text: string, at: FlowPosition, index: number, names: ReadonlyMap<string, number>, file: string): FlowProblem[] {
  const out: FlowProblem[] = [];
  const push = (offset: number, message: string, code: string) => out.push({ file, ...positionIn(text, offset, at), severity: 'error', code, message });
  const open = unclosedRef(text);
  if (open >= 0) push(open, `'{{' is not closed with '}}'.`, 'flow-syntax');
  for (const r of flowRefs(text)) {
    const ref = r.ref;
    if (ref.kind === 'invalid') push(r.start, `${r.raw}: ${ref.reason}.`, 'flow-syntax');
    else if (ref.kind === 'dynamic') {
      const bad = flowDynamicProblem(ref.name, ref.args);
      if (bad) push(r.start, `${r.raw}: ${bad}.`, 'flow-unknown-variable');
    } else if (ref.kind === 'response') {
      const target = names.get(ref.request);
      if (target === undefined) push(r.start, `${r.raw}: there is no request named ${ref.request} in this file (name one with # @name ${ref.request}).`, 'flow-unknown-request');
      else if (target >= index) push(r.start, `${r.raw}: request ${ref.request} ${target === index ? 'is this request' : 'runs after this one'}; a reference reads the answer of a request above it.`, 'flow-unknown-request');
    }
  }
  return out;
}

/** File variables that refer to each other in a circle (`@a = {{b}}`, `@b = {{a}}`). */
function cycleProblems(variables: FlowFile['variables'], file: string): FlowProblem[] {
  const byName = new Map(variables.map((v) => [v.name, v]));
  const uses = (name: string): string[] => {
    const v = byName.get(name);
    return v ? flowRefs(v.value).flatMap((r) => (r.ref.kind === 'name' && byName.has(r.ref.name) ? [r.ref.name] : [])) : [];
  };
  const state = new Map<string, 'open' | 'done'>();
  const out: FlowProblem[] = [];
  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'open') {
      const v = byName.get(name) as FlowFile['variables'][number];
      const circle = [...path.slice(path.indexOf(name)), name].join(' → ');
      out.push({ file, line: v.line, column: v.column, severity: 'error', code: 'flow-variable-cycle', message: `The variables refer to each other in a circle: ${circle}.` });
      return;
    }
    state.set(name, 'open');
    for (const next of uses(name)) visit(next, [...path, name]);
    state.set(name, 'done');
  };
  for (const v of byName.keys()) visit(v, []);
  return out;
}

/**
 * Problems of references and names across the file: see the module comment.
 * @returns problems with severity `error`, in no particular order (parseFlow sorts them).
 */
export function staticReferenceProblems(requests: readonly FlowRequest[], variables: FlowFile['variables'], file: string): FlowProblem[] {
  const names = new Map<string, number>();
  const out: FlowProblem[] = [];
  for (const r of requests) {
    if (r.name === undefined) continue;
    if (names.has(r.name)) out.push({ file, line: r.line, column: r.column, severity: 'error', code: 'flow-duplicate-name', message: `Two requests are named ${r.name}: references to it would be ambiguous; rename one.` });
    else names.set(r.name, r.index);
  }
  for (const r of requests) for (const t of textsOf(r)) out.push(...refProblems(t.text, t.at, r.index, names, file));
  for (const v of variables) {
    const at = { line: v.line, column: v.column + v.name.length + 1 };
    out.push(...refProblems(v.value, at, Number.POSITIVE_INFINITY, names, file));
  }
  out.push(...cycleProblems(variables, file));
  return out;
}
