/**
 * The body of a flow request as REST Client and httpyac read it (docs/flows.md, Format): its lines after the blank
 * line (comment lines left out, blank lines around it trimmed), `< ./file` and `<@ ./file` lines at the start of a
 * line (the whole body, or parts of a multipart body), and GraphQL: REST Client's `X-Request-Type: GraphQL` header or
 * httpyac's body that starts with `query` or `mutation` — the query up to the first blank line, then its variables.
 * What one tool would send differently from the other is a problem naming it.
 */
import { bodyProblems } from './parseChecks';
import type { FlowBody, FlowBodyFile, FlowProblem, FlowRequest } from './types';

/** A body line: the file's `<`, `<@` or `<@encoding`, then a path (both tools: at the start of the line). */
const FILE_LINE_RE = /^<(?:(@)(\w*))?(?:\s+(.*?))?\s*$/;
/** httpyac's GraphQL detection: a body that starts with `query` or `mutation` (and an operation name). */
const HTTPYAC_GRAPHQL_RE = /^\s*(query|mutation)(?=[\s({]|$)(?:\s+([^\s(]+))?/;

type Header = FlowRequest['headers'][number];
type Line = { readonly text: string; readonly line: number };

/** The first header line named `name` (lower case), and its value. */
const headerLine = (headers: readonly Header[], name: string) => headers.find((h) => h.name.toLowerCase() === name);
const header = (headers: readonly Header[], name: string) => headerLine(headers, name)?.value;

/** The mime type of a Content-Type value, lower case (`multipart/form-data`). */
export const mimeOf = (type: string | undefined): string => (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** A `< file` line as a body file, or a problem; undefined when the line is text. */
function fileLine(l: Line, file: string, problems: FlowProblem[]): FlowBodyFile | undefined {
  const m = FILE_LINE_RE.exec(l.text);
  if (!m) return undefined;
  const problem = (message: string) => problems.push({ file, line: l.line, column: 1, severity: 'error', code: 'flow-body', message });
  const path = m[3] ?? '';
  if (path === '') problem(`'${m[1] ? '<@' : '<'}' needs a file path after it, e.g. <@ ./registration.json.`);
  const encoding = (m[2] ?? '').toLowerCase();
  if (encoding !== '' && encoding !== 'utf8' && encoding !== 'utf-8') problem(`<@${m[2]}: tpp reads body files as UTF-8; save the file as UTF-8 and write <@ ${path}.`);
  return { path, resolveVariables: m[1] !== undefined, line: l.line, column: 1 };
}

/** Problems of a GraphQL body as its tool would send it. */
function graphqlProblems(lines: readonly Line[], style: 'rest-client' | 'httpyac', file: string): FlowProblem[] {
  const out: FlowProblem[] = [];
  const at = (l: Line, message: string) => out.push({ file, line: l.line, column: 1, severity: 'error', code: 'flow-body', message });
  const blank = lines.findIndex((l) => l.text.trim() === '');
  const variables = blank < 0 ? [] : lines.slice(blank + 1);
  if (style === 'httpyac') {
    const name = HTTPYAC_GRAPHQL_RE.exec(lines[0]?.text ?? '')?.[2];
    if (name?.includes('{') && lines[0]) at(lines[0], name.startsWith('{') ? `An anonymous GraphQL ${/mutation/.test(lines[0].text) ? 'mutation' : 'query'}: httpyac would send '{' as its operationName; name it (query Shops {).` : `GraphQL operation '${name}': httpyac would send '${name}' as its operationName; put a space before {.`);
    const second = variables.find((l) => /^\s*(query|mutation|fragment)\b/.test(l.text));
    if (second) at(second, 'A second GraphQL block after the variables: httpyac reads it as another query or fragment; keep one query (fragments inside it) and its variables.');
  }
  const text = variables.map((l) => l.text).join('\n');
  if (variables[0] && text.trim() !== '' && !text.includes('{{')) {
    try {
      JSON.parse(text);
    } catch {
      at(variables[0], 'The GraphQL variables (after the blank line below the query) are not JSON.');
    }
  }
  return out;
}

/**
 * Whether REST Client reads the request as GraphQL: its last release (0.25.1) compares the `X-Request-Type` value with
 * `GraphQL` exactly (httpRequestParser.ts), so another spelling is sent there as a plain header and body, while its
 * later source compares with `graphql`. A spelling other than `GraphQL` is refused, naming it.
 */
function restClientGraphql(headers: readonly Header[], file: string, problems: FlowProblem[]): boolean {
  const h = headerLine(headers, 'x-request-type');
  const value = h?.value.trim();
  if (!h || value === 'GraphQL') return value === 'GraphQL';
  if (value?.toLowerCase() === 'graphql') problems.push({ file, line: h.line, column: h.column, severity: 'error', code: 'flow-body', message: `X-Request-Type: ${value}: REST Client makes a GraphQL request only of the value GraphQL as written (its release sends '${value}' as a header and the body as text); write X-Request-Type: GraphQL.` });
  return false;
}

/** The types whose bodies both tools build in their own way (CRLF, a joined form, a final line break). */
const BUILT_TYPES: ReadonlySet<string> = new Set(['multipart/form-data', 'application/x-www-form-urlencoded', 'application/x-ndjson']);

/**
 * A problem when the Content-Type names one of BUILT_TYPES not in lower case: REST Client lowercases the type before
 * comparing (mimeUtility.ts), httpyac compares it as written, so it would send the body as plain text.
 */
function contentTypeCase(headers: readonly Header[], file: string, problems: FlowProblem[]): void {
  const h = headerLine(headers, 'content-type');
  const written = h?.value.split(';')[0]?.trim() ?? '';
  if (!h || written === written.toLowerCase() || !BUILT_TYPES.has(written.toLowerCase())) return;
  problems.push({ file, line: h.line, column: h.column, severity: 'error', code: 'flow-body', message: `Content-Type: ${written}: httpyac reads this type only in lower case (it would send the body as plain text) and REST Client in any case; write ${written.toLowerCase()}.` });
}

/**
 * The body of a request from its lines (comment lines already left out) and problems found in it.
 * @param headers the request's headers (GraphQL by REST Client's header).
 * @param graphqlOff httpyac's `# @no-gql-parsing`.
 */
export function bodyOf(raw: readonly Line[], headers: readonly Header[], graphqlOff: boolean, file: string, problems: FlowProblem[]): FlowBody | undefined {
  const lines = [...raw];
  while (lines.length && (lines[0] as Line).text.trim() === '') lines.shift();
  while (lines.length && (lines[lines.length - 1] as Line).text.trim() === '') lines.pop();
  const first = lines[0];
  if (!first) return undefined;
  const files: (FlowBodyFile & { index: number })[] = [];
  lines.forEach((l, index) => {
    const f = fileLine(l, file, problems);
    if (f) files.push({ ...f, index });
  });
  if (lines.length === 1 && files[0]) return { kind: 'file', path: files[0].path, resolveVariables: files[0].resolveVariables, line: first.line, column: 1 };
  const text = lines.map((l) => l.text).join('\n');
  contentTypeCase(headers, file, problems);
  const restClient = restClientGraphql(headers, file, problems);
  const graphql = restClient ? 'rest-client' : !graphqlOff && HTTPYAC_GRAPHQL_RE.test(first.text) ? 'httpyac' : undefined;
  const body: FlowBody = { kind: 'inline', text, line: first.line, column: 1, ...(files.length > 0 ? { files } : {}), ...(graphql ? { graphql } : {}) };
  if (graphql && files[0]) problems.push({ file, line: files[0].line, column: 1, severity: 'error', code: 'flow-body', message: 'A < file line in a GraphQL body: write the query and its variables inline.' });
  else if (graphql) problems.push(...graphqlProblems(lines, graphql, file));
  else if (files.length === 0) problems.push(...bodyProblems(body, file));
  if (!graphql && mimeOf(header(headers, 'content-type')) === 'application/x-www-form-urlencoded') problems.push(...formProblems(lines, file));
  return body;
}

/**
 * Problems of a form body over several lines: REST Client joins a line that starts with `&` to the one before it and
 * keeps a line break before any other (sent as %0A); httpyac joins every line and drops the spaces around `=` and
 * `&`. Written so that both send the same (`&` at the start of each further line, no spaces around them), it is sent
 * so; otherwise the line is named.
 */
export function formProblems(lines: readonly Line[], file: string): FlowProblem[] {
  const out: FlowProblem[] = [];
  lines.forEach((l, i) => {
    if (l.text.includes('{{')) return; // judged with its values when sent
    const at = (message: string) => out.push({ file, line: l.line, column: 1, severity: 'error', code: 'flow-body', message });
    if (i > 0 && !l.text.startsWith('&')) at(`A form line that does not start with &: REST Client sends a line break before it (%0A) and httpyac none; start it with &.`);
    else if (/\s[=&]|[=&]\s|^\s|\s$/.test(l.text)) at(`Spaces around = or & in a form body: httpyac drops them and REST Client sends them (%20); remove them.`);
  });
  return out;
}
