/**
 * Sends payload files without an editor (`tpp send`, scripts, tests): read each file, resolve its variables (a
 * hook), route it with {@link routePayload} (the editor's routing), send it with the partner client (retries,
 * duplicate-safe creates, a fresh JWT per request: spec: Authentication 7), and collect one result per file.
 * Files are sent one after the other, in the order given. Nothing here prompts: a file that does not say which
 * record it is for is an error naming what is missing.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Dispatcher } from '../client/types';
import { ENDPOINTS } from '../contract/endpoints';
import { kindFromFileName, kindFromSchemaUri, metaOf, schemaUri } from '../contract/kinds';
import type { BaseKind, EndpointId, PayloadKind } from '../contract/types';
import type { Exchange } from '../exchange/types';
import { importPrivateKeyPem } from '../jwt/keys';
import { TokenMinter } from '../jwt/mint';
import type { RetrySettings } from '../client/backoff';
import { clientFor, type ToolkitClient } from '../client/clientFor';
import { ApiError, MalformedResponseError, NetworkError, ResponseTooLargeError } from '../client/errors';
import { PayloadRefused, routePayload, type RouteNeed } from '../client/route';
import type { TransportEvent } from '../client/types';

/** What the variable hooks see besides the payload: the `--var name=value` pairs and where requests go. */
export interface SendScope {
  readonly vars: Readonly<Record<string, string>>;
  /** The version 3 base address requests go to. */
  readonly baseUrl: string;
}

/** Options of {@link sendFiles}. Addresses: see `deriveBaseUrls` (../environments.ts). */
export interface SendFilesOptions {
  readonly baseUrls: { readonly v3: string; readonly v2?: string; readonly eligibility?: string };
  /** The Partner ID (JWT `iss`). */
  readonly partnerId: string;
  /** PKCS#8 (or SEC1) PEM of the partner's ECDSA private key; the JWT alg follows from its curve. */
  readonly privateKeyPem: string;
  /** The provider-issued token of the eligibility lookup. */
  readonly eligibilityToken?: string;
  /** `{company_name}` of version 2 paths when a file has no `$companyName` (default: the Partner ID, as on the Local sandbox). */
  readonly companyName?: string;
  /** `--var name=value` pairs, handed to the hooks in {@link SendScope}. */
  readonly vars?: Readonly<Record<string, string>>;
  /** Resolves variables in a file's JSON value before routing; an Error it throws makes the file a usage failure (exit 2). */
  readonly resolve?: (value: unknown, kind: PayloadKind, scope: SendScope) => unknown;
  /** Called after each 2xx with the file's resolved value (meta properties included) and the answer's body (captures such as `lastRegistration.id`). */
  readonly capture?: (kind: PayloadKind, sentBody: unknown, responseBody: unknown, scope: SendScope) => void;
  /** Environment id written into each Exchange (default `cli`). */
  readonly env?: string;
  readonly retry?: Partial<RetrySettings>;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly dispatcher?: Dispatcher;
  readonly onEvent?: (event: TransportEvent) => void;
  /** Called as each file finishes (for output while the rest is sent). */
  readonly onResult?: (result: FileResult) => void;
  /** Reads a file as text (default: node:fs, UTF-8). */
  readonly readText?: (path: string) => string;
}

/** The outcome of one file. `exitCode`: 0 a 2xx answer, 1 a 4xx/5xx answer, 2 not sendable or no answer. */
export interface FileResult {
  readonly file: string;
  readonly kind?: PayloadKind;
  readonly endpointId?: EndpointId;
  readonly exitCode: 0 | 1 | 2;
  /** One line: what happened. */
  readonly message: string;
  /** Absent when nothing was sent. */
  readonly exchange?: Exchange;
}

/** Result of {@link sendFiles}: one result per file, in order, and the process exit code (the worst of them). */
export interface SendFilesResult {
  readonly results: readonly FileResult[];
  readonly exitCode: 0 | 1 | 2;
}

/** A file's payload kind: its `$schema`, else a name ending `.<kind>.tpp.json`. */
export function kindOf(value: unknown, file: string): PayloadKind | undefined {
  const schema = metaOf(value).$schema;
  if (typeof schema === 'string') return kindFromSchemaUri(schema);
  return kindFromFileName(basename(file));
}

/** What a file must add to say which record it is for. */
function missingText(file: string, need: RouteNeed): string {
  if (need.need === 'shop') return `Not sent: ${file} does not say which shop it is for: add "$uniqueId": "<the shop's uniqueId>".`;
  const by = need.byInvoice ? ' (or "$invoiceNumber", with "$storeNumber" when the invoice number is not unique)' : '';
  return `Not sent: ${file} does not say which ${need.product} registration it is for: add "$registrationId": "<its _id>"${by}.`;
}

const worst = (a: 0 | 1 | 2, b: 0 | 1 | 2): 0 | 1 | 2 => (a > b ? a : b);

/**
 * Sends `files` in order (see the module comment) and reports each.
 * @returns one result per file and the exit code: 0 when every request answered 2xx, 1 when one answered 4xx/5xx
 *   (or a file broke the contract), 2 when a file could not be sent (unreadable, not JSON, no kind, no record named,
 *   a variable that failed, a bad key) or no answer came (unreachable server, timeout). After an unreachable server
 *   the remaining files are not tried.
 * @throws never for a file's problem (each is a result); KeyError/MintError only through `privateKeyPem` checks
 *   done before anything is sent.
 */
export async function sendFiles(files: readonly string[], options: SendFilesOptions): Promise<SendFilesResult> {
  const baseUrls = { v3: options.baseUrls.v3, ...(options.baseUrls.v2 ? { v2: options.baseUrls.v2 } : {}), ...(options.baseUrls.eligibility ? { eligibility: options.baseUrls.eligibility } : {}) };
  const ctx: SendContext = {
    options,
    client: clientOf(options),
    baseUrls,
    scope: { vars: options.vars ?? {}, baseUrl: options.baseUrls.v3 },
    readText: options.readText ?? ((p: string) => readFileSync(p, 'utf8')),
  };
  const results: FileResult[] = [];
  let exitCode: 0 | 1 | 2 = 0;
  for (const file of files) {
    const r = ctx.unreachable ? { file, exitCode: 2 as const, message: `Not sent: ${basename(file)}: ${ctx.unreachable}` } : await sendFile(file, ctx);
    results.push(r);
    exitCode = worst(exitCode, r.exitCode);
    options.onResult?.(r);
  }
  return { results, exitCode };
}

/**
 * The client of a `tpp send` run (client/clientFor.ts): a fresh JWT per attempt signed with the key, `aud` the
 * version 3 base, or the version 2 host for version 2 calls (spec: Authentication).
 * @throws KeyError for a key that cannot be used, before anything is sent.
 */
function clientOf(options: SendFilesOptions): ToolkitClient {
  const key = importPrivateKeyPem(options.privateKeyPem);
  const minter = new TokenMinter();
  const { v3, v2, eligibility } = options.baseUrls;
  const env = {
    id: options.env ?? 'cli',
    baseUrl: v3,
    ...(v2 ? { v2BaseUrl: v2 } : {}),
    ...(eligibility ? { eligibilityBaseUrl: eligibility } : {}),
    partnerId: options.partnerId,
    token: () => minter.mint(key, { iss: options.partnerId, aud: v3 }),
    ...(v2 ? { v2Token: () => minter.mint(key, { iss: options.partnerId, aud: v2 }) } : {}),
    ...(options.eligibilityToken ? { eligibilityToken: () => options.eligibilityToken as string } : {}),
  };
  const limits = { ...(options.retry ? { retry: options.retry } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}), ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}), userAgent: 'tpp-send' };
  return clientFor(env, limits, options.onEvent ? { onEvent: options.onEvent } : {});
}

/** What every file of one {@link sendFiles} call shares; `unreachable` is set once the server did not answer. */
interface SendContext {
  readonly options: SendFilesOptions;
  readonly client: ToolkitClient;
  readonly baseUrls: Partial<Record<BaseKind, string>>;
  readonly scope: SendScope;
  readonly readText: (path: string) => string;
  unreachable?: string;
}

/** A file read, resolved and routed: what is sent. */
interface Prepared {
  readonly kind: PayloadKind;
  readonly value: unknown;
  readonly route: Extract<ReturnType<typeof routePayload>, { route: unknown }>['route'];
}

/** Reads, resolves and routes one file: what to send, or the result saying why it is not sent. */
function prepareFile(file: string, ctx: SendContext): Prepared | FileResult {
  const name = basename(file);
  let value: unknown;
  try {
    value = JSON.parse(ctx.readText(file)) as unknown;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { file, exitCode: 2, message: err instanceof SyntaxError ? `Not sent: ${name} is not valid JSON (${err.message}).` : `Not sent: cannot read ${file}${code ? ` (${code})` : ''}.` };
  }
  const kind = kindOf(value, file);
  if (!kind) return { file, exitCode: 2, message: `Not sent: ${name} has no "$schema": "tpp://schemas/<kind>.json" line naming a payload kind (or a name ending .<kind>.tpp.json).` };
  try {
    if (ctx.options.resolve) value = ctx.options.resolve(value, kind, ctx.scope);
  } catch (err) {
    return { file, kind, exitCode: 2, message: `Not sent: ${name}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && metaOf(value).$schema === undefined) value = { $schema: schemaUri(kind), ...(value as object) };
  let routed: ReturnType<typeof routePayload>;
  try {
    routed = routePayload(value, name);
  } catch (err) {
    const invalid = err instanceof PayloadRefused && / does not match /.test(err.message);
    return { file, kind, exitCode: invalid ? 1 : 2, message: err instanceof Error ? err.message : String(err) };
  }
  if ('missing' in routed) return { file, kind, exitCode: 2, message: missingText(name, routed.missing) };
  return { kind, value, route: routed.route };
}

/** Sends one file and says how it went; a server that did not answer marks `ctx.unreachable`. */
async function sendFile(file: string, ctx: SendContext): Promise<FileResult> {
  const prepared = prepareFile(file, ctx);
  if (!('route' in prepared)) return prepared;
  const { kind, value, route } = prepared;
  const { options, baseUrls } = ctx;
  const name = basename(file);
  const def = ENDPOINTS[route.endpointId];
  const params: Record<string, string> = { ...route.params };
  if (def.pathParams.includes('company_name') && !params.company_name) params.company_name = options.companyName ?? options.partnerId;
  if (!baseUrls[def.base]) return { file, kind, endpointId: route.endpointId, exitCode: 2, message: `Not sent: ${name} goes to a ${def.base} address and none is set.` };
  const sent = await ctx.client.send({ kind: 'call', endpointId: route.endpointId, params, body: route.body, ...(route.query ? { query: route.query } : {}), title: `Send ${name}` });
  const { exchange, response } = sent;
  if (response) {
    try {
      options.capture?.(kind, value, response.body, ctx.scope);
    } catch {
      // a capture that fails must not turn a stored record into a failure
    }
    return { file, kind, endpointId: route.endpointId, exitCode: 0, exchange, message: `${name}: ${response.status} ${response.statusName}${response.recovered ? ' (recovered: the first attempt was stored)' : ''}` };
  }
  const err = sent.error;
  if (err instanceof NetworkError && !err.outcomeUnknown && !err.timedOut) ctx.unreachable = `the server did not answer an earlier request (${err.code})`;
  return { file, kind, endpointId: route.endpointId, exitCode: err instanceof ApiError || err instanceof MalformedResponseError || err instanceof ResponseTooLargeError ? 1 : 2, exchange, message: `${name}: ${err instanceof Error ? err.message : String(err)}` };
}
