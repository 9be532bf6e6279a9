/**
 * The lines of REST Client, httpyac and the JetBrains HTTP Client that are not requests, headers or bodies
 * (docs/flows.md, The same file in REST Client or httpyac): `# @…` metadata and the constructs of the other tools.
 * Each one either does here what its tool does (`# @name`, `# @disabled`, `# @no-redirect`, `# @no-cookie-jar`,
 * `# @prompt`), changes nothing that is sent or checked (`# @title`, `# @no-log`…), or is refused by name with what to
 * write instead: a flow never runs differently from its tool without saying so. Nothing from a file is run as code.
 */

/** What a line of one of these kinds asks for. */
export type Directive =
  | { readonly kind: 'meta'; readonly key: string; readonly value?: string; readonly column: number }
  /** Not sent and not checked, as in its tool (`<> previous.json`, a JetBrains response reference). */
  | { readonly kind: 'ignore' }
  /** Refused: `message` names it and says what to write; `until` ends a block of several lines (a script). */
  | { readonly kind: 'refuse'; readonly message: string; readonly column: number; readonly until?: RegExp };

/** The words of the script refusal: every script construct says the same. */
export const SCRIPTS_NOT_RUN = 'scripts are not run: use ?? assertions (status, header, body, duration, contract) and @name references';

const META_RE = /^\s*(?:#+|\/{2,})\s*@([\w-]+)(?:(?:\s*=\s*|\s+)(.*?))?\s*$/;
/** httpyac's script block: `{{`, `{{@response`, `{{+request`… alone on a line, up to a `}}` line. */
const JS_BLOCK_RE = /^\s*\{\{(@js\s+)?(\+|@)?(request|streaming|response|after|responseLogging)?\s*$/i;
const JS_BLOCK_END = /^\s*\}\}\s*$/;
/** JetBrains' handler and pre-request script: `> {% … %}` / `< {% … %}` on one line, or from `{%` up to a `%}` line. */
const INTELLIJ_ONE_LINE = /^\s*[<>]\s+\{%.*%\}\s*$/;
const INTELLIJ_BLOCK = /^\s*[<>]\s+\{%\s*$/;
const INTELLIJ_END = /^\s*%\}\s*$/;
/** A handler script file after a request (`> ./handler.js`), as JetBrains and httpyac read it. */
const HANDLER_FILE = /^\s*>\s+[^\s{%}]+\s*$/;
const OUTPUT_REDIRECT = /^\s*>>!?\s+\S/;
const RESPONSE_REF = /^\s*<>\s*\S/;

/** The key of a meta line as both tools compare it: case and `-` ignored (`no-redirect`, httpyac's `noRedirect`). */
export const metaKey = (key: string): string => key.toLowerCase().replace(/[-_]/g, '');

/** Metadata that changes nothing sent or checked here, and may stay (output, views, logs, titles). */
const HARMLESS = new Set(['title', 'description', 'nolog', 'noresponseview', 'nostreaminglog', 'verbose', 'debug', 'jwt', 'save', 'openwith', 'extension', 'language', 'noclientcert', 'noproxy', 'responseref', 'data', 'var', 'tag']);

/** Metadata refused by name: what it does in its tool, and what to write instead. */
const REFUSED: Readonly<Record<string, string>> = {
  ref: 'runs another request first (httpyac): put the requests this one needs above it in this file, named with # @name',
  forceref: 'runs another request first (httpyac): put the requests this one needs above it in this file, named with # @name',
  import: 'reads requests of another file (httpyac): copy the requests this file needs into it',
  loop: `repeats the request with JavaScript (httpyac): ${SCRIPTS_NOT_RUN}; for a request per row of data, see # @data (docs/backfills.md)`,
  sleep: 'waits before sending (httpyac): tpp sends each request when the one before it is answered; remove it',
  timeout: 'sets the time limit of the request: tpp allows 30 s per attempt (docs/sending.md, Limits); remove it',
  connectiontimeout: 'sets the time limit of the connection (JetBrains): tpp allows 30 s per attempt; remove it',
  ratelimit: 'throttles requests (httpyac): tpp sends them one after the other; remove it',
  keepstreaming: 'keeps a stream open (httpyac): tpp reads an answer whole; remove it',
  grpcreflection: 'is for gRPC (httpyac), which tpp does not send',
  injectvariables: 'resolves the variables of a < file body (httpyac): write <@ ./file instead',
  proxy: 'sends through a proxy (httpyac): tpp sends directly; remove it',
  norejectunauthorized: "accepts any TLS certificate: tpp always checks the server's certificate; remove it",
  postredirectget: 'turns every redirect into a GET (httpyac): tpp follows redirects as REST Client does (a 303 becomes GET, the others keep the method); remove it',
  note: 'asks for a confirmation before sending (REST Client, httpyac): tpp asks nothing; remove it (the Production guard still asks in the editor)',
  noautoencoding: 'sends the URL without encoding it (JetBrains): tpp sends URLs encoded as the WHATWG URL standard says; remove it',
  useoscredentials: "signs in with the system's account (JetBrains): tpp does not; remove it",
};

/** A meta line (`# @key value`, `// @key`), or undefined. */
function metaLine(text: string): Directive | undefined {
  const m = META_RE.exec(text);
  if (!m) return undefined;
  const key = m[1] as string;
  const norm = metaKey(key);
  const column = text.indexOf('@') + 1;
  if (HARMLESS.has(norm)) return { kind: 'ignore' };
  const refused = REFUSED[norm];
  if (refused) return { kind: 'refuse', column, message: `# @${key} ${refused}.` };
  return { kind: 'meta', key: norm, ...(m[2] ? { value: m[2] } : {}), column };
}

/**
 * What a line is when it is one of the constructs above, in the state its block is in (`pre`: before the request
 * line; `headers`; `body`), or undefined for an ordinary line. Unknown `# @word` lines are comments, as both tools
 * read them.
 */
export function directiveOf(text: string, state: 'pre' | 'headers' | 'body'): Directive | undefined {
  const column = text.length - text.trimStart().length + 1;
  if (JS_BLOCK_RE.test(text)) return { kind: 'refuse', column, until: JS_BLOCK_END, message: `A {{ … }} script block (httpyac): ${SCRIPTS_NOT_RUN}.` };
  if (INTELLIJ_ONE_LINE.test(text) || INTELLIJ_BLOCK.test(text)) {
    const handler = text.trimStart().startsWith('>');
    return { kind: 'refuse', column, ...(INTELLIJ_ONE_LINE.test(text) ? {} : { until: INTELLIJ_END }), message: `A ${handler ? 'response handler > {% … %}' : 'pre-request script < {% … %}'} (JetBrains HTTP Client, httpyac): ${SCRIPTS_NOT_RUN}.` };
  }
  const meta = metaLine(text);
  if (meta) return meta;
  if (state === 'pre' && /^\s*<\s+\S/.test(text)) return { kind: 'refuse', column, message: `'${text.trim()}' before a request line is a pre-request script file (JetBrains HTTP Client): ${SCRIPTS_NOT_RUN}.` };
  if (state === 'pre') return undefined;
  if (OUTPUT_REDIRECT.test(text)) return { kind: 'refuse', column, message: `'${text.trim()}' writes the answer to a file (JetBrains HTTP Client, httpyac): tpp run writes no files; its json reporter keeps every answer (--reporter json --out <file>).` };
  if (RESPONSE_REF.test(text)) return { kind: 'ignore' };
  if (HANDLER_FILE.test(text)) return { kind: 'refuse', column, message: `'${text.trim()}' is a response handler script (JetBrains HTTP Client, httpyac): ${SCRIPTS_NOT_RUN}.` };
  if (state === 'body' && /^\s*={3}\s*(wait-for-server)?\s*$/.test(text)) return { kind: 'refuse', column, message: `'${text.trim()}' splits a streamed body (httpyac): tpp sends one body per request; remove it.` };
  if (state === 'body' && /^\s*<--->\s*$/.test(text)) return { kind: 'refuse', column, message: `'<--->' ends a streamed body (httpyac), which REST Client sends as text: remove it.` };
  return undefined;
}
