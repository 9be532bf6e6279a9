import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { runCli } from '../../../src/cli/cli';
import type { EndpointDef } from '../../../src/core/contract';
import { BASE_PREFIX } from '../../../src/core/sandbox/server';
import { request, type Client, type Reply } from './helpers';

/**
 * The exported OpenAPI document (`tpp openapi --format json`, all three interfaces, run in-process) read by a JSON
 * Schema 2020-12 validator (ajv), for the tests that hold the document and the Local sandbox together: does an answer
 * match its operation (status declared, body, Retry-After), and does the document accept a request (query, body)?
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is read as plain JSON
type Json = Record<string, any>;
const BASE = 'https://tpp.invalid/openapi';
/** Headers of an answer that the document speaks about; others (Allow, Content-Length, …) are HTTP's. */
const CHECKED_HEADERS = ['Retry-After'];

/** `/registrations/:id` → `/registrations/{id}` (the document's path template). */
export const templateOf = (def: EndpointDef): string => def.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** A request to the Local sandbox: path under the endpoint's base (parameters filled), query and JSON body. */
export interface Req {
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** How {@link send} departs from a well-formed request. */
export interface SendOptions {
  readonly method?: string;
  /** `null`: no Authorization header. */
  readonly token?: string | null;
  readonly rawBody?: string;
  readonly contentType?: string;
}

/** Sends `req` to the endpoint `def` of the sandbox `c` is bound to, signed for its base (the eligibility token there). */
export async function send(c: Client, eligibilityToken: string, def: EndpointDef, req: Req, opts: SendOptions = {}): Promise<Reply> {
  const qs = new URLSearchParams(req.query ?? {}).toString();
  const url = `${c.sb.origin}${BASE_PREFIX[def.base]}${req.path}${qs ? `?${qs}` : ''}`;
  const token = opts.token !== undefined ? opts.token : def.base === 'eligibility' ? eligibilityToken : c.token(def.base === 'v3' ? 'v3' : 'v2');
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  const payload = opts.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  return request(opts.method ?? def.method, url, headers, payload);
}

export class OpenApiCheck {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  private constructor(readonly doc: Json) {
    // The e-mail `format` is an annotation here: its `pattern` beside it is the check.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, formats: { email: true } });
    this.ajv.addSchema({ $id: BASE, components: doc.components });
  }

  /** The document `tpp openapi --format json` prints (all three interfaces). */
  static async load(): Promise<OpenApiCheck> {
    let out = '';
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => true } };
    const code = await runCli(['openapi', '--format', 'json'], io);
    if (code !== 0) throw new Error(`tpp openapi exited ${code}`);
    return new OpenApiCheck(JSON.parse(out) as Json);
  }

  private validator(schema: unknown): ValidateFunction {
    const text = JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`);
    let v = this.compiled.get(text);
    if (!v) this.compiled.set(text, (v = this.ajv.compile(JSON.parse(text) as Json)));
    return v;
  }

  /** `value` against `schema`: '' when valid, else ajv's errors. */
  private errors(schema: unknown, value: unknown): string {
    const v = this.validator(schema);
    return v(value) ? '' : this.ajv.errorsText(v.errors, { separator: '; ' });
  }

  /** The operation of `def` (several endpoints told apart by the body share one). */
  op(def: EndpointDef, method = def.method): Json | undefined {
    return this.doc.paths[templateOf(def)]?.[method.toLowerCase()] as Json | undefined;
  }

  /**
   * What does not match in an answer to a request for `def`: an undeclared status, a body other than declared (not
   * JSON, failing the schema, or present where none is declared), a Retry-After not declared or not its schema.
   * A 405 (another method on the path) is read against the path's operations. Empty when the answer matches.
   */
  answerProblems(def: EndpointDef, reply: Reply): string[] {
    const item = this.doc.paths[templateOf(def)] as Json;
    const op = reply.status === 405 ? (Object.values(item).find((o) => o && typeof o === 'object' && 'responses' in o) as Json) : this.op(def);
    const declared = op?.responses?.[String(reply.status)] as Json | undefined;
    if (!declared) return [`status ${reply.status} is not declared (declared: ${Object.keys(op?.responses ?? {}).join(', ')})`];
    const problems: string[] = [];
    const media = declared.content?.['application/json'] as Json | undefined;
    if (media) {
      if (!/^application\/json\b/.test(reply.headers.get('content-type') ?? '')) problems.push(`content-type ${reply.headers.get('content-type')}, declared application/json`);
      if (reply.json === undefined) problems.push(`body is not JSON: ${reply.text.slice(0, 200)}`);
      else {
        const e = this.errors(media.schema, reply.json);
        if (e) problems.push(`body: ${e}: ${reply.text.slice(0, 300)}`);
      }
    } else if (reply.text !== '') problems.push(`a body where none is declared: ${reply.text.slice(0, 200)}`);
    for (const name of CHECKED_HEADERS) {
      const value = reply.headers.get(name);
      if (value === null) continue;
      const header = declared.headers?.[name] as Json | undefined;
      if (!header) problems.push(`header ${name}: ${value} is not declared on ${reply.status}`);
      else if (this.errors(header.schema, value)) problems.push(`header ${name}: ${this.errors(header.schema, value)}`);
    }
    return problems;
  }

  /** Why the document refuses a request for `def` (its query parameters and body); empty when it accepts it. */
  requestProblems(def: EndpointDef, req: Req): string[] {
    const op = this.op(def);
    if (!op) return [`no operation ${def.method} ${templateOf(def)}`];
    const problems: string[] = [];
    for (const p of (op.parameters ?? []) as Json[]) {
      if (p.in !== 'query') continue;
      const value = req.query?.[p.name as string];
      if (value === undefined) {
        if (p.required) problems.push(`query ${p.name}: required`);
        continue;
      }
      const e = this.errors(p.schema, value);
      if (e) problems.push(`query ${p.name}: ${e}`);
    }
    const media = op.requestBody?.content?.['application/json'] as Json | undefined;
    if (media) {
      const e = req.body === undefined ? 'required' : this.errors(media.schema, req.body);
      if (e) problems.push(`body: ${e}`);
    }
    return problems;
  }
}
