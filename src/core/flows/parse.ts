/**
 * The parser of flow files (docs/flows.md, Format): the `.http` format of REST Client, httpyac and JetBrains.
 * Requests are separated by `###` lines; `#` and `//` start comments (also inside a body: both tools leave them
 * out); `# @name reg` names a request and the other `# @…` lines are directives.ts's; the request line is
 * `[METHOD] URL [HTTP/1.1]` (requestLine.ts), continued by query lines (`?page=2`, `&pageSize=10`); headers follow
 * until a blank line, then the body until the next `###` (parseBody.ts). `@name = value` lines outside requests define
 * file variables; `?? …` lines after the request line are assertions (assertGrammar.ts). A construct of another tool
 * that tpp does not run as that tool does is a problem naming it. Parsing never throws and reads nothing but the
 * text: what it cannot read is a {@link FlowProblem} with its line and column.
 */
import { parseAssertion } from './assertGrammar';
import { authorizationProblem } from './authorization';
import { declaredVariables } from './declared';
import { directiveOf } from './directives';
import { bodyOf } from './parseBody';
import { staticReferenceProblems } from './parseChecks';
import { PATH_LINE_RE, QUERY_LINE_RE, requestLine, urlLineProblem } from './requestLine';
import type { FlowAssertion, FlowFile, FlowPosition, FlowProblem, FlowPrompt, FlowRequest } from './types';

export { FLOW_METHODS } from './requestLine';

const SEPARATOR_RE = /^\s*#{3,}(.*)$/;
const COMMENT_RE = /^\s*(#|\/\/)/;
const VARIABLE_RE = /^\s*@([A-Za-z_][\w-]*)\s*=\s*(.*?)\s*$/;
const HEADER_RE = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*?)\s*$/;
const REQUEST_NAME_RE = /^[A-Za-z_][\w-]*$/;

type Header = FlowRequest['headers'][number];
type Variable = FlowFile['variables'][number];

/** What one block (the lines between two separators) holds while it is read. */
interface Block {
  readonly title?: string;
  name?: string;
  nameLine?: number;
  request?: { method: string; url: string; line: number; column: number; urlColumn: number; graphql?: boolean };
  headers: Header[];
  bodyLines: { text: string; line: number }[];
  assertions: FlowAssertion[];
  state: 'pre' | 'headers' | 'body';
  lastLine: number;
  /** Inside a refused block of several lines (a script): the line that ends it. */
  skipUntil?: RegExp;
  disabled?: FlowPosition;
  noRedirect?: boolean;
  noCookieJar?: boolean;
  noGraphql?: boolean;
  prompts: FlowPrompt[];
}

type Problem = (message: string, column?: number, code?: string, severity?: 'error' | 'warning') => void;

/** Turns the finished block into a request, or into nothing when it holds none. */
function finishBlock(block: Block, index: number, file: string, problems: FlowProblem[]): FlowRequest | undefined {
  const r = block.request;
  if (!r) {
    if (block.name !== undefined) problems.push({ file, line: block.nameLine ?? 1, column: 1, severity: 'warning', code: 'flow-syntax', message: `@name ${block.name} names no request: a request line (METHOD URL) should follow it.` });
    return undefined;
  }
  const body = bodyOf(block.bodyLines, block.headers, block.noGraphql === true, file, problems);
  const label = block.title ?? block.name ?? `${r.method} ${r.url}`;
  return {
    index,
    line: r.line,
    column: r.column,
    method: r.method,
    url: r.url,
    urlColumn: r.urlColumn,
    ...(block.name !== undefined ? { name: block.name } : {}),
    ...(block.title ? { title: block.title } : {}),
    headers: block.headers,
    ...(body ? { body } : {}),
    assertions: block.assertions,
    endLine: block.lastLine,
    label,
    ...(block.disabled ? { disabled: block.disabled } : {}),
    ...(block.noRedirect ? { noRedirect: true } : {}),
    ...(block.noCookieJar ? { noCookieJar: true } : {}),
    ...(block.prompts.length > 0 ? { prompts: block.prompts } : {}),
    ...(r.graphql ? { graphqlMethod: true } : {}),
  };
}

/** Applies a `# @key value` line to its block. */
function applyMeta(block: Block, key: string, value: string | undefined, line: number, column: number, problem: Problem): void {
  if (key === 'name') {
    const name = value ?? '';
    if (!REQUEST_NAME_RE.test(name)) problem(name ? `'${name}' is not a request name (letters, digits, _ and -, starting with a letter).` : '@name needs a name after it, e.g. # @name reg.', column);
    else {
      block.name = name;
      block.nameLine = line;
    }
  } else if (key === 'disabled') {
    if (value !== undefined) problem(`# @disabled ${value}: a condition after @disabled is JavaScript in httpyac, and scripts are not run; write # @disabled alone to skip the request.`, column, 'flow-unsupported');
    else block.disabled = { line, column };
  } else if (key === 'noredirect') block.noRedirect = true;
  else if (key === 'nocookiejar') block.noCookieJar = true;
  else if (key === 'nogqlparsing') block.noGraphql = true;
  else if (key === 'prompt') {
    const [name = '', ...rest] = (value ?? '').split(/\s+/);
    if (!REQUEST_NAME_RE.test(name)) problem(name ? `# @prompt ${name}: '${name}' is not a variable name.` : '# @prompt needs the name of the variable it asks for, e.g. # @prompt password.', column);
    else block.prompts.push({ name, ...(rest.length > 0 ? { description: rest.join(' ') } : {}), line, column });
  }
}

/** Reads a line of the header block: a header, a line continuing the URL, a comment. */
function headerLine(block: Block, text: string, line: number, problem: Problem): void {
  const request = block.request;
  if (request && (QUERY_LINE_RE.test(text) || PATH_LINE_RE.test(text))) {
    const bad = urlLineProblem(text);
    if (bad) return problem(bad, text.length - text.trimStart().length + 1);
    request.url += text.trim();
    return;
  }
  if (COMMENT_RE.test(text)) return;
  const h = HEADER_RE.exec(text);
  if (!h) return problem(`'${text.trim()}' is not a header (Name: value); leave a blank line before the body.`, text.length - text.trimStart().length + 1, 'flow-header');
  const colon = text.indexOf(':');
  const value = h[2] as string;
  if (value.endsWith(',')) problem(`The header ${h[1]} ends with ',': httpyac drops the comma and REST Client sends it; write the value without it.`, text.length, 'flow-header');
  const auth = (h[1] as string).toLowerCase() === 'authorization' ? authorizationProblem(value) : undefined;
  if (auth) problem(auth, text.indexOf(value, colon + 1) + 1, 'flow-unsupported');
  block.headers.push({ name: h[1] as string, value, line, column: text.indexOf(h[1] as string) + 1, valueColumn: (value ? text.indexOf(value, colon + 1) : colon + 1) + 1 });
}

/** Reads a line before the request line: a name, a variable, a comment, or the request line. */
function preLine(block: Block, text: string, line: number, variables: Variable[], problem: Problem): void {
  if (COMMENT_RE.test(text)) return;
  const variable = VARIABLE_RE.exec(text);
  if (variable) {
    variables.push({ name: variable[1] as string, value: variable[2] as string, line, column: text.indexOf('@') + 1 });
    return;
  }
  if (/^\s*@[\w.-]+\s*:=/.test(text)) return problem("A lazy variable (httpyac's @name := value): write @name = value; a file variable is resolved when first used and keeps its value.", text.indexOf('@') + 1, 'flow-unsupported');
  if (/^\s*@global\./.test(text)) return problem("A global variable (httpyac's @global.name = value): write @name = value in each file that uses it.", text.indexOf('@') + 1, 'flow-unsupported');
  if (text.trimStart().startsWith('@')) return problem('A file variable is @name = value, e.g. @shop = 1042.', text.indexOf('@') + 1);
  if (text.trimStart().startsWith('??')) return problem('An assertion (??) goes after the request line of its request.', text.indexOf('??') + 1, 'flow-assertion');
  const req = requestLine(text);
  if (typeof req === 'string') return problem(req, text.length - text.trimStart().length + 1);
  block.request = { method: req.method, url: req.url, line, column: text.length - text.trimStart().length + 1, urlColumn: req.urlOffset + 1, ...(req.graphql ? { graphql: true } : {}) };
  block.state = 'headers';
}

/** Reads one line of a block in its current state. */
function readLine(block: Block, text: string, line: number, file: string, variables: Variable[], problems: FlowProblem[]): void {
  const problem: Problem = (message, column = 1, code = 'flow-syntax', severity = 'error') => void problems.push({ file, line, column, severity, code, message });
  const blank = text.trim() === '';
  if (!blank) block.lastLine = line;
  if (block.skipUntil) {
    if (block.skipUntil.test(text)) block.skipUntil = undefined;
    return;
  }
  const assertion = text.trimStart().startsWith('??');
  if (assertion && block.state !== 'pre') return addAssertion(block, text, line, file, problems);
  if (blank) {
    if (block.state === 'headers') block.state = 'body';
    else if (block.state === 'body' && block.assertions.length === 0) block.bodyLines.push({ text, line });
    return;
  }
  const directive = directiveOf(text, block.state);
  if (directive?.kind === 'ignore') return;
  if (directive?.kind === 'refuse') {
    problem(directive.message, directive.column, 'flow-unsupported');
    if (directive.until) block.skipUntil = directive.until;
    return;
  }
  if (directive?.kind === 'meta') return applyMeta(block, directive.key, directive.value, line, directive.column, problem);
  if (block.state === 'pre') return preLine(block, text, line, variables, problem);
  if (block.state === 'headers') return headerLine(block, text, line, problem);
  if (COMMENT_RE.test(text)) return; // REST Client and httpyac leave comment lines out of a body
  if (block.assertions.length > 0) return problem('Text after the assertions: a body goes before the ?? lines of its request.', 1, 'flow-body');
  block.bodyLines.push({ text, line });
}

function addAssertion(block: Block, text: string, line: number, file: string, problems: FlowProblem[]): void {
  const parsed = parseAssertion(text, line);
  if ('assertion' in parsed) block.assertions.push(parsed.assertion);
  else problems.push({ file, line, column: parsed.column, severity: 'error', code: parsed.code ?? 'flow-assertion', message: parsed.problem });
}

/**
 * Parses a flow file (docs/flows.md, Format).
 * @param text the file's text (any line endings).
 * @param file the name problems and results carry (a path, or a URI string in the editor).
 * @returns the variables, requests and problems found; never throws. Problems with `severity: 'error'` mean the
 *   file must not run (`tpp run` exits 2 before sending anything).
 */
export function parseFlow(text: string, file: string): FlowFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const variables: Variable[] = [];
  const requests: FlowRequest[] = [];
  const problems: FlowProblem[] = [];
  const newBlock = (title?: string): Block => ({ ...(title ? { title } : {}), headers: [], bodyLines: [], assertions: [], state: 'pre', lastLine: 0, prompts: [] });
  let block = newBlock();
  const close = () => {
    const request = finishBlock(block, requests.length, file, problems);
    if (request) requests.push(request);
  };
  lines.forEach((textLine, i) => {
    const sep = block.skipUntil ? null : SEPARATOR_RE.exec(textLine);
    if (sep) {
      close();
      block = newBlock((sep[1] as string).trim() || undefined);
      block.lastLine = i + 1;
      return;
    }
    readLine(block, textLine, i + 1, file, variables, problems);
  });
  close();
  problems.push(...staticReferenceProblems(requests, variables, file));
  const { declared, problems: declaredProblems } = declaredVariables(lines, file);
  problems.push(...declaredProblems);
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { file, variables, ...(declared.length ? { declared } : {}), requests, problems };
}

