/**
 * An inline body as REST Client and httpyac send it, by its Content-Type (docs/flows.md, Format; the bytes are checked
 * against httpyac's in test/unit/flows/compat): GraphQL as `{"query","operationName","variables"}`, a multipart or any
 * body with `< file` lines with each file's bytes, a multipart/form-data body's lines joined with CRLF whether or not
 * a part is a file (httpyac joins them so, and REST Client's line ending for that type is CRLF), a form body over several `&` lines joined and URL-encoded (httpyac's rule, encodeurl's encoding), NDJSON
 * with its final line break, and any other text as written.
 */
import type { FlowBody, FlowPosition } from './types';
import { mimeOf } from './parseBody';
import { FlowPositionError, resolveText, type FlowScope } from './variables';

type Inline = Extract<FlowBody, { kind: 'inline' }>;

/** How body files are read: text (for `<@`), bytes (for `<`). */
export interface BodyReaders {
  readonly text: (path: string, at: FlowPosition) => Promise<string>;
  readonly bytes: (path: string, at: FlowPosition) => Promise<Uint8Array>;
}

/** A body as sent: its text, its bytes when it holds a file's bytes, its JSON value when it is JSON. */
export interface BuiltBody {
  readonly text: string;
  readonly bytes?: Uint8Array;
  readonly json?: { readonly value: unknown };
}

// encodeurl 2.0's rule (REST Client and httpyac encode a form body with it): characters a URL may not hold are
// percent-encoded, `%XX` sequences already there are kept, a lone surrogate becomes U+FFFD.
const ENCODE_CHARS_RE = /(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]+|%+(?![0-9A-Fa-f]{2})){1,1024}/g;
const SURROGATE_RE = /([\uD800-\uDBFF][\uDC00-\uDFFF])|[\uD800-\uDFFF]/g;
/** A form body encoded as encodeurl encodes it. */
export const encodeFormText = (s: string): string => s.replace(SURROGATE_RE, (_, pair: string | undefined) => pair ?? '\uFFFD').replace(ENCODE_CHARS_RE, encodeURI);

const jsonValue = (text: string): { value: unknown } | undefined => {
  try {
    return text.trim() === '' ? undefined : { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
};

/** The lines of `text` with their positions in the flow file. */
const linesOf = (body: Inline) => body.text.split('\n').map((text, i) => ({ text, at: { line: body.line + i, column: 1 } }));

/** A GraphQL body: the query up to the first blank line, then its variables as JSON, as that tool builds it. */
function graphqlBody(body: Inline, scope: FlowScope): BuiltBody {
  const lines = linesOf(body);
  const blank = lines.findIndex((l) => l.text.trim() === '');
  const queryLines = blank < 0 ? lines : lines.slice(0, blank);
  const variableLines = blank < 0 ? [] : lines.slice(blank + 1);
  const query = queryLines.map((l) => resolveText(l.text, l.at, scope)).join('\n');
  const variablesText = variableLines.map((l) => resolveText(l.text, l.at, scope)).join('\n');
  let variables: unknown;
  if (variablesText.trim() !== '') {
    try {
      variables = JSON.parse(variablesText);
    } catch {
      throw new FlowPositionError('the GraphQL variables (after the blank line below the query) are not JSON with their values', variableLines[0]?.at ?? body);
    }
  }
  const payload =
    body.graphql === 'rest-client'
      ? // REST Client: operationName of a named `query` only, variables {} when none.
        { query, operationName: /^\s*query\s+([^@{(\s]+)/i.exec(query)?.[1], variables: variables ?? {} }
      : // httpyac: the name after query or mutation, variables only when given.
        { query, ...(/^\s*(?:query|mutation)\s+([^\s(]+)/.exec(query)?.[1] ? { operationName: /^\s*(?:query|mutation)\s+([^\s(]+)/.exec(query)?.[1] } : {}), ...(variables !== undefined ? { variables } : {}) };
  const text = JSON.stringify(payload);
  return { text, json: { value: JSON.parse(text) as unknown } };
}

/** A body with `< file` lines: each file in its place (bytes for `<`, resolved text for `<@`), joined as httpyac joins them. */
async function bodyWithFiles(body: Inline, eol: string, scope: FlowScope, read: BodyReaders): Promise<BuiltBody> {
  const files = new Map((body.files ?? []).map((f) => [f.index, f]));
  const pieces: Uint8Array[] = [];
  let pending: string[] = [];
  const flush = (trailing: boolean) => {
    if (pending.length > 0) pieces.push(Buffer.from(pending.join(eol) + (trailing ? eol : ''), 'utf8'));
    pending = [];
  };
  for (const [i, l] of linesOf(body).entries()) {
    const f = files.get(i);
    if (!f) {
      pending.push(resolveText(l.text, l.at, scope));
      continue;
    }
    flush(true);
    pieces.push(f.resolveVariables ? Buffer.from(resolveText(await read.text(f.path, f), f, scope), 'utf8') : await read.bytes(f.path, f));
    pending.push(''); // the file is followed by a line break when text follows it
  }
  if (pending.length > 1 || pending[0] !== '') flush(false);
  const bytes = Buffer.concat(pieces);
  return { text: bytes.toString('utf8'), bytes };
}

/** A multipart/form-data body of text parts only: its lines joined with CRLF, none after the last (both tools). */
const multipartText = (body: Inline, scope: FlowScope): BuiltBody => ({ text: linesOf(body).map((l) => resolveText(l.text, l.at, scope)).join('\r\n') });

/**
 * A form body as both tools send it when they agree (parseBody.ts, formProblems): its lines joined, URL-encoded.
 * @throws FlowPositionError when the resolved values make the tools disagree (spaces around = or &).
 */
function formBody(body: Inline, scope: FlowScope): BuiltBody {
  const lines = linesOf(body).map((l) => ({ ...l, text: resolveText(l.text, l.at, scope) }));
  for (const [i, l] of lines.entries()) {
    if (i > 0 && !l.text.startsWith('&')) throw new FlowPositionError('a form line that does not start with & (with its values): REST Client sends a line break before it (%0A) and httpyac none; start it with &', l.at);
    if (/\s[=&]|[=&]\s|^\s|\s$/.test(l.text)) throw new FlowPositionError('spaces around = or & in the form body (with its values): httpyac drops them and REST Client sends them (%20); remove them', l.at);
  }
  const text = encodeFormText(lines.map((l) => l.text).join(''));
  return { text };
}

/**
 * The inline body of a request as sent (see the module comment).
 * @param contentType the request's resolved Content-Type, if any.
 * @throws FlowVariableError, FlowPositionError or FlowBodyFileError naming the line.
 */
export async function buildInlineBody(body: Inline, contentType: string | undefined, scope: FlowScope, read: BodyReaders): Promise<BuiltBody> {
  if (body.graphql) return graphqlBody(body, scope);
  const mime = mimeOf(contentType);
  if (body.files && body.files.length > 0) return bodyWithFiles(body, mime === 'multipart/form-data' ? '\r\n' : '\n', scope, read);
  if (mime === 'multipart/form-data') return multipartText(body, scope);
  if (mime === 'application/x-www-form-urlencoded') return formBody(body, scope);
  const text = resolveText(body.text, body, scope) + (mime === 'application/x-ndjson' ? '\n' : '');
  const json = !contentType || /json/i.test(contentType) ? jsonValue(text) : undefined;
  return { text, ...(json ? { json } : {}) };
}
