/**
 * A flow request made ready to send (docs/flows.md, Bodies and Variables): its URL, header values and body with
 * their `{{…}}` resolved, and a body file read. As Send Payload does (docs/variables.md), a JSON payload file's
 * top-level `$` properties (`$schema`, `$registrationId`, …) are tool metadata and are not sent (`stripMeta`), and
 * with `<@` its strings are resolved typed by the contract's schema of the kind its `$schema` names.
 */
import { kindFromSchemaUri, metaOf, PAYLOAD_KINDS, stripMeta } from '../contract/kinds';
import { carriedBy } from './carried';
import { FlowFileAccessError } from './projectFiles';
import type { PreparedRequest } from './send';
import type { FlowPosition, FlowRequest } from './types';
import { FlowPositionError, FlowVariableError, jsonOf, resolveJsonBody, resolveText, type FlowScope } from './variables';

/** A body file that cannot be read; `position` is its `<` line. */
export class FlowBodyFileError extends FlowPositionError {
  override readonly name: string = 'FlowBodyFileError';
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads a body file through the run's reader; a failure names the file and its code. */
export async function readBodyFile(path: string, at: FlowPosition, readFile: (path: string) => Promise<string>): Promise<string> {
  try {
    return await readFile(path);
  } catch (err) {
    if (err instanceof FlowFileAccessError && !err.code) throw new FlowBodyFileError(err.reason, at);
    const code = (err as NodeJS.ErrnoException).code;
    throw new FlowBodyFileError(`cannot read the body file ${path}${code ? ` (${code})` : err instanceof Error ? ` (${err.message})` : ''}`, at);
  }
}

/** The body of a `< file` / `<@ file` request: its text and JSON value as sent. */
async function fileBody(body: Extract<NonNullable<FlowRequest['body']>, { kind: 'file' }>, scope: FlowScope, readFile: (path: string) => Promise<string>): Promise<{ text: string; json?: { value: unknown } }> {
  const content = await readBodyFile(body.path, body, readFile);
  const parsed = jsonOf(content);
  if (!parsed) return { text: body.resolveVariables ? resolveText(content, body, scope) : content };
  const hasMeta = isObject(parsed.json) && Object.keys(parsed.json).some((k) => k.startsWith('$'));
  if (!hasMeta && !body.resolveVariables) return { text: content, json: { value: parsed.json } };
  // The meta properties are dropped before resolving: the URL says which record a flow request is for, so a
  // payload file's `"$registrationId": "{{lastRegistration.id}}"` is neither sent nor needs a value.
  const schemaUri = metaOf(parsed.json).$schema;
  const kind = typeof schemaUri === 'string' ? kindFromSchemaUri(schemaUri) : undefined;
  let value = stripMeta(parsed.json);
  if (body.resolveVariables) value = resolveJsonBody(value, kind ? PAYLOAD_KINDS[kind].schema : undefined, { name: body.path, line: body.line, column: body.column }, scope);
  return { text: JSON.stringify(value, null, 2), json: { value } };
}

/**
 * Resolves a request's URL, headers and body.
 * @throws FlowVariableError (a reference that cannot be resolved, with its line and column) or FlowBodyFileError
 *   (a body file that cannot be read).
 */
export async function prepareRequest(r: FlowRequest, scope: FlowScope, readFile: (path: string) => Promise<string>): Promise<PreparedRequest> {
  const url = resolveText(r.url, { line: r.line, column: r.urlColumn ?? r.column }, scope).trim();
  const headers = r.headers.map((h) => ({ name: h.name, value: resolveText(h.value, { line: h.line, column: h.valueColumn ?? h.column }, scope) }));
  // An answer from another host than the environment's is the file's own business (carried.ts).
  const carried = carriedBy(r, scope.fileVariables, (name) => scope.answers.get(name)?.fromEnvironment !== false);
  const base = { method: r.method, url, headers, title: r.label, carried };
  if (!r.body) return base;
  if (r.body.kind === 'file') {
    const b = await fileBody(r.body, scope, readFile);
    return { ...base, body: b.text, ...(b.json ? { json: b.json } : {}) };
  }
  const text = resolveText(r.body.text, r.body, scope);
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
  const parsed = !type || /json/i.test(type) ? jsonOf(text) : undefined;
  return { ...base, body: text, ...(parsed ? { json: { value: parsed.json } } : {}) };
}

export { FlowVariableError };
