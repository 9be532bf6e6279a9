/**
 * A flow request made ready to send (docs/flows.md, Format and Variables): its URL, header values and body with their
 * `{{…}}` resolved, body files read, and the body and headers built as REST Client and httpyac build them
 * (bodyBuild.ts, authorization.ts). A toolkit payload file (its `$schema` a `tpp://schemas/…` address, or a name
 * ending `.tpp.json`) is read as Send Payload reads it (docs/variables.md): its top-level `$` properties (`$schema`,
 * `$registrationId`, …) are tool metadata and are not sent, and with `<@` its strings are resolved typed by the
 * contract's schema of its kind. Any other file is sent as it is, or with `<@` as its text with variables resolved.
 */
import { kindFromSchemaUri, metaOf, PAYLOAD_FILE_SUFFIX, PAYLOAD_KINDS, stripMeta } from '../contract/kinds';
import { authorizationValue } from './authorization';
import { buildInlineBody, type BodyReaders } from './bodyBuild';
import { carriedBy, carriedByHop } from './carried';
import { FlowFileAccessError } from './projectFiles';
import type { PreparedRequest } from './send';
import type { FlowPosition, FlowRequest } from './types';
import { FlowPositionError, FlowVariableError, jsonOf, resolveJsonBody, resolveText, type FlowScope } from './variables';

/** A body file that cannot be read; `position` is its `<` line. */
export class FlowBodyFileError extends FlowPositionError {
  override readonly name: string = 'FlowBodyFileError';
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Runs a read of a body file; a failure names the file and its code. */
async function reading<T>(path: string, at: FlowPosition, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof FlowFileAccessError && !err.code) throw new FlowBodyFileError(err.reason, at);
    if (err instanceof FlowBodyFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new FlowBodyFileError(`cannot read the body file ${path}${code ? ` (${code})` : err instanceof Error ? ` (${err.message})` : ''}`, at);
  }
}

/** Reads a body file through the run's reader; a failure names the file and its code. */
export function readBodyFile(path: string, at: FlowPosition, readFile: (path: string) => Promise<string>): Promise<string> {
  return reading(path, at, () => readFile(path));
}

/**
 * The readers of body files: text through `readFile`, bytes through `readBytes` (absent: the text's UTF-8 bytes, and a
 * file that is not UTF-8 text is refused rather than sent changed).
 */
function readersOf(readFile: (path: string) => Promise<string>, readBytes: ((path: string) => Promise<Uint8Array>) | undefined): BodyReaders {
  return {
    text: (path, at) => readBodyFile(path, at, readFile),
    bytes: (path, at) =>
      reading(path, at, async () => {
        if (readBytes) return readBytes(path);
        const text = await readFile(path);
        if (text.includes('\uFFFD')) throw new FlowBodyFileError(`the body file ${path} is not UTF-8 text, and its bytes cannot be read here`, at);
        return Buffer.from(text, 'utf8');
      }),
  };
}

/** The body of a `< file` / `<@ file` request: its text, its bytes, its JSON value as sent. */
async function fileBody(body: Extract<NonNullable<FlowRequest['body']>, { kind: 'file' }>, scope: FlowScope, read: BodyReaders): Promise<{ text: string; bytes?: Uint8Array; json?: { value: unknown } }> {
  if (!body.resolveVariables) {
    const bytes = await read.bytes(body.path, body);
    const text = Buffer.from(bytes).toString('utf8');
    const parsed = jsonOf(text);
    if (!parsed || !isPayloadFile(body.path, parsed.json)) return { text, ...(text.includes('\uFFFD') ? { bytes } : {}), ...(parsed ? { json: { value: parsed.json } } : {}) };
    return payloadBody(parsed.json, body, scope);
  }
  const content = await read.text(body.path, body);
  const parsed = jsonOf(content);
  if (!parsed || !isPayloadFile(body.path, parsed.json)) {
    const text = resolveText(content, body, scope);
    const json = jsonOf(text);
    return { text, ...(json ? { json: { value: json.json } } : {}) };
  }
  return payloadBody(parsed.json, body, scope);
}

/** True for a toolkit payload file: a `tpp://schemas/…` `$schema`, or a name ending `.tpp.json`. */
function isPayloadFile(path: string, json: unknown): boolean {
  if (path.endsWith(PAYLOAD_FILE_SUFFIX)) return true;
  const schema = metaOf(json).$schema;
  return isObject(json) && typeof schema === 'string' && kindFromSchemaUri(schema) !== undefined;
}

/** A payload file's body as Send Payload sends it (see the module comment). */
function payloadBody(json: unknown, body: Extract<NonNullable<FlowRequest['body']>, { kind: 'file' }>, scope: FlowScope): { text: string; json: { value: unknown } } {
  // The meta properties are dropped before resolving: the URL says which record a flow request is for, so a
  // payload file's `"$registrationId": "{{lastRegistration.id}}"` is neither sent nor needs a value.
  const schemaUri = metaOf(json).$schema;
  const kind = typeof schemaUri === 'string' ? kindFromSchemaUri(schemaUri) : undefined;
  let value = stripMeta(json);
  if (body.resolveVariables) value = resolveJsonBody(value, kind ? PAYLOAD_KINDS[kind].schema : undefined, { name: body.path, line: body.line, column: body.column }, scope);
  return { text: JSON.stringify(value, null, 2), json: { value } };
}

/** The headers as sent: values resolved, Basic credentials encoded, and the headers the body's tool adds or removes. */
function headersOf(r: FlowRequest, scope: FlowScope): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const h of r.headers) {
    const at = { line: h.line, column: h.valueColumn ?? h.column };
    let value = resolveText(h.value, at, scope);
    if (h.name.toLowerCase() === 'authorization') {
      const v = authorizationValue(value);
      if (typeof v !== 'string') throw new FlowPositionError(v.refused, at);
      value = v;
    }
    // REST Client's X-Request-Type: GraphQL marks the body; it is not sent.
    if (r.body?.kind === 'inline' && r.body.graphql === 'rest-client' && h.name.toLowerCase() === 'x-request-type') continue;
    out.push({ name: h.name, value });
  }
  if (r.graphqlMethod && !out.some((h) => h.name.toLowerCase() === 'content-type')) out.push({ name: 'content-type', value: 'application/json' });
  return out;
}

/**
 * Resolves a request's URL, headers and body.
 * @param readBytes reads a body file's bytes (a `< file` part of a multipart body); absent: its text's UTF-8 bytes.
 * @throws FlowVariableError (a reference that cannot be resolved, with its line and column), FlowPositionError (a
 *   value its two tools would send differently) or FlowBodyFileError (a body file that cannot be read).
 */
export async function prepareRequest(r: FlowRequest, scope: FlowScope, readFile: (path: string) => Promise<string>, readBytes?: (path: string) => Promise<Uint8Array>): Promise<PreparedRequest> {
  const url = resolveText(r.url, { line: r.line, column: r.urlColumn ?? r.column }, scope).trim();
  const headers = headersOf(r, scope);
  // An answer from another host than the environment's is the file's own business (carried.ts).
  const signed = (name: string) => scope.answers.get(name)?.fromEnvironment !== false;
  const carried = carriedBy(r, scope.fileVariables, signed, scope.prompts);
  const base = {
    method: r.method,
    url,
    headers,
    title: r.label,
    carried,
    carriedOnHop: (hop: { readonly crossSite: boolean; readonly keepsBody: boolean }) => carriedByHop(r, scope.fileVariables, signed, hop, scope.prompts),
    ...(r.noRedirect ? { followRedirects: false } : {}),
    ...(r.noCookieJar ? { useCookies: false } : {}),
  };
  if (!r.body) return base;
  const read = readersOf(readFile, readBytes);
  const b = r.body.kind === 'file' ? await fileBody(r.body, scope, read) : await buildInlineBody(r.body, headers.find((h) => h.name.toLowerCase() === 'content-type')?.value, scope, read);
  return { ...base, body: b.text, ...(b.bytes ? { bytes: b.bytes } : {}), ...(b.json ? { json: b.json } : {}) };
}

export { FlowVariableError };
