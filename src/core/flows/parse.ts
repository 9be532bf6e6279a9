/**
 * The parser of flow files (docs/flows.md, Format): the `.http` format of REST Client, httpyac and JetBrains.
 * Requests are separated by `###` lines; `#` and `//` start comments; `# @name reg` names a request; the request
 * line is `[METHOD] URL [HTTP/1.1]` (GET when the method is left out, as REST Client does); headers follow until a
 * blank line, then the body until the next `###`: inline text, `< ./file` (sent as is) or `<@ ./file` (variables
 * resolved). `@name = value` lines outside requests define file variables; `?? …` lines after the request line
 * are assertions (assertGrammar.ts). Parsing never throws and reads nothing but the text: what it cannot read is a
 * {@link FlowProblem} with its line and column.
 */
import { parseAssertion } from './assertGrammar';
import { declaredVariables } from './declared';
import { bodyProblems, staticReferenceProblems } from './parseChecks';
import type { FlowAssertion, FlowBody, FlowFile, FlowProblem, FlowRequest } from './types';

/** Methods a request line may start with (RFC 9110 and PATCH). */
export const FLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'] as const;

const SEPARATOR_RE = /^\s*#{3,}(.*)$/;
const COMMENT_RE = /^\s*(#|\/\/)/;
const NAME_META_RE = /^\s*(?:#|\/\/)\s*@name(?:\s*=\s*|\s+)(\S*)\s*$/;
const VARIABLE_RE = /^\s*@([A-Za-z_][\w-]*)\s*=\s*(.*?)\s*$/;
const HEADER_RE = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s?(.*?)\s*$/;
const REQUEST_NAME_RE = /^[A-Za-z_][\w-]*$/;
const HTTP_VERSION_RE = /\s+HTTP\/\d(?:\.\d)?$/;
const FILE_BODY_RE = /^\s*<(@\S*)?(?:\s+(.*?))?\s*$/;

type Header = FlowRequest['headers'][number];
type Variable = FlowFile['variables'][number];

/** What one block (the lines between two separators) holds while it is read. */
interface Block {
  readonly title?: string;
  name?: string;
  nameLine?: number;
  request?: { method: string; url: string; line: number; column: number; urlColumn: number };
  headers: Header[];
  bodyLines: { text: string; line: number }[];
  assertions: FlowAssertion[];
  state: 'pre' | 'headers' | 'body';
  lastLine: number;
}

/** A stand-in for a space inside {{…}} while a request line is split (a character no request line holds). */
const HIDDEN_SPACE = '\u0001';
const unmask = (s: string): string => s.split(HIDDEN_SPACE).join(' ');

/** Reads the request line: `[METHOD] URL [HTTP/x.y]`; a string is the problem. */
function requestLine(text: string): { method: string; url: string; urlOffset: number } | string {
  const indent = text.length - text.trimStart().length;
  // Spaces inside {{…}} ({{$randomInt 1 5}}) belong to the URL: hidden while the line is split, then given back.
  const trimmed = text.trim().replace(/\{\{[^{}]*\}\}/g, (m) => m.replace(/\s/g, HIDDEN_SPACE)).replace(HTTP_VERSION_RE, '');
  const parts = /^(\S+)(?:\s+(\S.*))?$/.exec(trimmed);
  if (!parts) return 'A request line is METHOD URL, e.g. GET {{baseUrl}}/verify-token.';
  const first = parts[1] as string;
  const isUrl = (s: string) => /^(https?:\/\/|\{\{)/i.test(s);
  if (parts[2] === undefined) {
    if (isUrl(first)) return { method: 'GET', url: unmask(first), urlOffset: indent };
    return (FLOW_METHODS as readonly string[]).includes(first.toUpperCase()) ? `The request line '${first}' has no URL after the method.` : `'${first}' is not a request line: write METHOD URL, e.g. GET {{baseUrl}}/verify-token (the URL starts with http://, https:// or {{).`;
  }
  const method = first.toUpperCase();
  if (!(FLOW_METHODS as readonly string[]).includes(method)) {
    return isUrl(first) ? `A URL holds no spaces: '${unmask(trimmed)}' (encode a space as %20).` : `Unknown method '${first}' (use ${FLOW_METHODS.join(', ')}).`;
  }
  const masked = (parts[2] as string).trim();
  const url = unmask(masked);
  if (!isUrl(url)) return `The URL '${url}' must start with http://, https:// or a variable such as {{baseUrl}}.`;
  if (/\s/.test(masked)) return `A URL holds no spaces: '${url}' (encode a space as %20).`;
  return { method, url, urlOffset: text.indexOf(url, indent + first.length) };
}

/** Turns the finished block into a request, or into nothing when it holds none. */
function finishBlock(block: Block, index: number, file: string, problems: FlowProblem[]): FlowRequest | undefined {
  const r = block.request;
  if (!r) {
    if (block.name !== undefined) problems.push({ file, line: block.nameLine ?? 1, column: 1, severity: 'warning', code: 'flow-syntax', message: `@name ${block.name} names no request: a request line (METHOD URL) should follow it.` });
    return undefined;
  }
  let body: FlowBody | undefined;
  const lines = block.bodyLines;
  while (lines.length && (lines[0] as { text: string }).text.trim() === '') lines.shift();
  while (lines.length && (lines[lines.length - 1] as { text: string }).text.trim() === '') lines.pop();
  const firstBody = lines[0];
  if (firstBody) {
    const fileRef = FILE_BODY_RE.exec(firstBody.text);
    const column = firstBody.text.length - firstBody.text.trimStart().length + 1;
    if (fileRef) {
      const path = fileRef[2] ?? '';
      if (path === '') problems.push({ file, line: firstBody.line, column, severity: 'error', code: 'flow-body', message: `'${fileRef[1] ? '<@' : '<'}' needs a file path after it, e.g. <@ ./registration.json.` });
      const extra = lines[1];
      if (extra) problems.push({ file, line: extra.line, column: 1, severity: 'error', code: 'flow-body', message: `Nothing may follow a '< file' body in the same request (line ${firstBody.line} names the body file).` });
      body = { kind: 'file', path, resolveVariables: fileRef[1] !== undefined, line: firstBody.line, column };
    } else {
      body = { kind: 'inline', text: lines.map((l) => l.text).join('\n'), line: firstBody.line, column: 1 };
      problems.push(...bodyProblems(body, file));
    }
  }
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
  };
}

/** Reads one line of a block in its current state. */
function readLine(block: Block, text: string, line: number, file: string, variables: Variable[], problems: FlowProblem[]): void {
  const problem = (message: string, column = 1, code = 'flow-syntax'): void => void problems.push({ file, line, column, severity: 'error', code, message });
  const blank = text.trim() === '';
  if (!blank) block.lastLine = line;
  const assertion = text.trimStart().startsWith('??');
  if (block.state === 'body') {
    if (assertion) addAssertion(block, text, line, file, problems);
    else if (block.assertions.length > 0 && !blank && !COMMENT_RE.test(text)) problem('Text after the assertions: a body goes before the ?? lines of its request.', 1, 'flow-body');
    else if (block.assertions.length === 0) block.bodyLines.push({ text, line });
    return;
  }
  if (block.state === 'headers') {
    if (blank) block.state = 'body';
    else if (assertion) addAssertion(block, text, line, file, problems);
    else if (COMMENT_RE.test(text)) return;
    else {
      const h = HEADER_RE.exec(text);
      if (!h) problem(`'${text.trim()}' is not a header (Name: value); leave a blank line before the body.`, text.length - text.trimStart().length + 1, 'flow-header');
      else {
        const colon = text.indexOf(':');
        const value = h[2] as string;
        block.headers.push({ name: h[1] as string, value, line, column: text.indexOf(h[1] as string) + 1, valueColumn: (value ? text.indexOf(value, colon + 1) : colon + 1) + 1 });
      }
    }
    return;
  }
  if (blank) return;
  const name = NAME_META_RE.exec(text);
  if (name) {
    const value = name[1] as string;
    if (!REQUEST_NAME_RE.test(value)) problem(value ? `'${value}' is not a request name (letters, digits, _ and -, starting with a letter).` : '@name needs a name after it, e.g. # @name reg.', text.indexOf('@name') + 1);
    else {
      block.name = value;
      block.nameLine = line;
    }
    return;
  }
  if (COMMENT_RE.test(text)) return;
  const variable = VARIABLE_RE.exec(text);
  if (variable) {
    variables.push({ name: variable[1] as string, value: variable[2] as string, line, column: text.indexOf('@') + 1 });
    return;
  }
  if (text.trimStart().startsWith('@')) return problem('A file variable is @name = value, e.g. @shop = 1042.', text.indexOf('@') + 1);
  if (assertion) return problem('An assertion (??) goes after the request line of its request.', text.indexOf('??') + 1, 'flow-assertion');
  const req = requestLine(text);
  if (typeof req === 'string') return problem(req, text.length - text.trimStart().length + 1);
  block.request = { method: req.method, url: req.url, line, column: text.length - text.trimStart().length + 1, urlColumn: req.urlOffset + 1 };
  block.state = 'headers';
}

function addAssertion(block: Block, text: string, line: number, file: string, problems: FlowProblem[]): void {
  const parsed = parseAssertion(text, line);
  if ('assertion' in parsed) block.assertions.push(parsed.assertion);
  else problems.push({ file, line, column: parsed.column, severity: 'error', code: 'flow-assertion', message: parsed.problem });
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
  const newBlock = (title?: string): Block => ({ ...(title ? { title } : {}), headers: [], bodyLines: [], assertions: [], state: 'pre', lastLine: 0 });
  let block = newBlock();
  const close = () => {
    const request = finishBlock(block, requests.length, file, problems);
    if (request) requests.push(request);
  };
  lines.forEach((textLine, i) => {
    const sep = SEPARATOR_RE.exec(textLine);
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
