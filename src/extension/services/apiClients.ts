import * as vscode from 'vscode';
import { ApiResponse, CallOptions, isAbortError, NetworkError, PolicyError } from '../../core/client';
import { clientFor, type ClientEnvironment, type SentReport, type ToolkitClient } from '../../core/client/clientFor';
import type { BodyOf, ParamsOf, ResponseOf } from '../../core/contract/endpointTypes';
import { ENDPOINTS } from '../../core/contract';
import { changesData } from '../../core/contract/methods';
import type { BaseKind, EndpointId } from '../../core/contract/types';
import { ENVIRONMENTS, EnvironmentId, isEnvironmentId } from '../../core/environments';
import { HistoryEntry, storableBody } from '../../core/history/history';
import { TokenMinter } from '../../core/jwt/mint';
import type { JwtService } from './jwtService';
import { audienceOf, NotReadyError } from './jwtService';
import { Logger } from '../log';
import { EnvironmentSettings } from './environmentSettings';
import { KeyStore, signingKeyOf } from './keyStore';
import type { HistoryModel } from './historyModel';
import type { LocalSandbox } from './localSandbox';
import type { Exchange } from '../../core/exchange/types';
import { EDITOR_READ_USER_AGENT, EDITOR_SEND_USER_AGENT } from './integrationLog';
import { EditorDiagnosisReads, withEditorDiagnosis } from './editorDiagnosis';

/** A successful data-changing request: which environment and endpoint (the registrations model drops what it touched). */
export interface DataChange {
  readonly env: EnvironmentId;
  readonly endpointId: EndpointId;
  /** The request's path parameters (e.g. `{ id }` of the registration a claim or cancellation was for). */
  readonly params?: Readonly<Record<string, string | number>>;
}

/** Where an environment's requests go. */
export interface EnvironmentTarget {
  readonly env: EnvironmentId;
  /** Base address per endpoint base (v3 ending in /api/v3, v2 host, eligibility ending in /api/v1); only those set. */
  readonly baseUrls: Partial<Record<BaseKind, string>>;
  /** {company_name} of version 2 paths; `''` when not set. */
  readonly companyName: string;
  /** {program} of the eligibility lookup; `''` when not set. */
  readonly eligibilityProgram: string;
}

/** An answer together with the history entry it produced. */
export interface SentRequest<T = unknown> {
  readonly response: ApiResponse<T>;
  readonly entry: HistoryEntry;
  /** The request and its answer as the response view shows them (masked). */
  readonly exchange: Exchange;
}

/** Path and query of a URL (for history rows), e.g. `/api/v3/verify-token`. */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** A history row's outcome of a call that got no answer: `cancelled`, the network code, the policy, or the error's name. */
function shortError(err: unknown): string {
  if (isAbortError(err)) return 'cancelled';
  if (err instanceof NetworkError) return err.code;
  if (err instanceof PolicyError) return err.reason;
  return (err as { name?: string } | undefined)?.name ?? 'error';
}

/** Endpoints that read; everything else changes data (and is guarded on Production). */
export function isDataChanging(endpointId: EndpointId): boolean {
  return changesData(ENDPOINTS[endpointId].method);
}

/**
 * Builds the partner API client per environment and sends every request through it: base addresses from the
 * settings (Local: from the embedded sandbox, started on first use), a fresh JWT per attempt signed with the
 * environment's key (v3 via {@link JwtService}; v2 with the v2 host as audience), the provider's token for the
 * eligibility lookup, retry and timeout settings. Every request but the tree's background reads lands in the
 * {@link HistoryModel}; a successful data-changing request fires {@link onDidChangeData}.
 */
export class ApiClients implements vscode.Disposable {
  // Created on first use: the minter lives in dist/core.js, which is not loaded at activation.
  private minter: TokenMinter | undefined;
  private readonly dataEmitter = new vscode.EventEmitter<DataChange>();
  /** The last partner JWT sent per environment: memory only (the 401 checklist), never stored or logged. */
  private readonly lastTokens = new Map<EnvironmentId, string>();
  /** The exchange of each failed request, by the error thrown (the response view shows it). */
  private readonly failed = new WeakMap<object, Exchange>();
  /** Fires after a data-changing request succeeded (the registrations model drops what it touched). */
  readonly onDidChangeData = this.dataEmitter.event;
  /** The reads of the editor's part of a description: a 409's lookups (quiet) and a 401's JWT checklist. */
  private readonly diagnosisReads: EditorDiagnosisReads = {
    list: (env, id, query) => this.send(env, id, {}, undefined, { query, quiet: true }).then((r) => r.response.body),
    read: (env, id, registrationId) => this.send(env, id, { id: registrationId }, undefined, { quiet: true }).then((r) => r.response.body),
    inspect: (env, token) => this.jwt.inspect(env, token),
  };

  constructor(
    private readonly settings: EnvironmentSettings,
    private readonly keys: KeyStore,
    private readonly jwt: JwtService,
    private readonly log: Logger,
    private readonly history: HistoryModel,
    private readonly localSandbox: LocalSandbox,
  ) {}

  private get v2Minter(): TokenMinter {
    return (this.minter ??= new TokenMinter());
  }

  /**
   * Base addresses of `env`. Local starts the embedded sandbox if needed. Throws {@link NotReadyError} when the
   * v3 address of a remote environment is not set (v2 and eligibility are optional and checked per call).
   */
  async target(env: EnvironmentId): Promise<EnvironmentTarget> {
    if (env === 'local') {
      const info = await this.localSandbox.ensureStarted();
      return {
        env,
        baseUrls: { v3: info.v3BaseUrl, v2: info.v2BaseUrl, eligibility: info.eligibilityBaseUrl },
        companyName: info.companyName,
        eligibilityProgram: 'local',
      };
    }
    const remote = this.settings.remote(env);
    const extras = this.settings.remoteExtras(env);
    const label = ENVIRONMENTS[env].label;
    if (!remote?.baseUrl) throw new NotReadyError(`${label} has no base address: set tpp.${env}.baseUrl to the address ending in /api/v3.`);
    const baseUrls: Partial<Record<BaseKind, string>> = { v3: audienceOf(remote.baseUrl) };
    if (extras?.v2BaseUrl) baseUrls.v2 = audienceOf(extras.v2BaseUrl);
    if (extras?.eligibilityBaseUrl) baseUrls.eligibility = audienceOf(extras.eligibilityBaseUrl);
    return { env, baseUrls, companyName: extras?.v2CompanyName ?? '', eligibilityProgram: extras?.eligibilityProgram ?? '' };
  }

  /** A fresh version 2 token: the environment's key and Partner ID, the v2 host as audience. */
  private async mintV2(env: EnvironmentId, v2Base: string): Promise<string> {
    const rec = await this.jwt.record(env);
    const { iss } = await this.jwt.target(env);
    return this.v2Minter.mint(signingKeyOf(rec), { iss, aud: v2Base, lifetimeSeconds: this.jwt.lifetimeSeconds() });
  }

  /**
   * A fresh version 2 token of `env` for a request the caller sends itself (a flow's request to the version 2 host).
   * @throws NotReadyError when `env` has no version 2 address; the key and Partner ID errors of the JWT service.
   */
  async v2Token(env: EnvironmentId): Promise<string> {
    const target = await this.target(env);
    if (!target.baseUrls.v2) throw new NotReadyError(`${ENVIRONMENTS[env].label} has no v2 address: set tpp.${env}.v2BaseUrl.`);
    return this.mintV2(env, target.baseUrls.v2);
  }

  /**
   * Tells the views that data changed on `change.env` through a client of the editor's that is not this one (a
   * backfill's rows, once when its run ends): the trees redraw what it names.
   */
  announce(change: DataChange): void {
    this.dataEmitter.fire(change);
  }

  /** The last partner JWT sent to `env` in this session (memory only; for the 401 checklist of the response view). */
  lastToken(env: EnvironmentId): string | undefined {
    return this.lastTokens.get(env);
  }

  /** The exchange of a request that failed with `err` (thrown by {@link send}), if it was one. */
  failedExchange(err: unknown): Exchange | undefined {
    return err !== null && typeof err === 'object' ? this.failed.get(err) : undefined;
  }

  /**
   * `x` with the editor's part of its description (./editorDiagnosis.ts: a 401's JWT checklist of `token`, by
   * default the last token sent to its environment; a 409's conflicting record). Never throws.
   */
  withEditorDiagnosis(x: Exchange, token: string | undefined = isEnvironmentId(x.env) ? this.lastTokens.get(x.env) : undefined): Promise<Exchange> {
    return withEditorDiagnosis(this.diagnosisReads, x, token);
  }

  private remember(env: EnvironmentId, token: Promise<string>): Promise<string> {
    return token.then((t) => (this.lastTokens.set(env, t), t));
  }

  /**
   * Sends one request to `env` and records it in the history (spec: Endpoints). `company_name` (v2) and `program`
   * (eligibility) path parameters are filled from the environment when not given. `quiet` leaves the request out
   * of the history (the tree's per-row metadata reads, which would push everything else out of the 200 kept).
   *
   * @param pathParams the endpoint's `:name` parameters, e.g. `{ id }`; `{}` when it has none.
   * @param body the request body the contract accepts for this endpoint; `undefined` for GET.
   * @returns the answer (body typed `ResponseOf<E>`, parsed by the contract) and its history entry (id `''` when quiet).
   * @throws the client's errors (ApiError, AuthError for 401, NetworkError, MalformedResponseError,
   *   PolicyError, CancelledError on cancellation, ClientConfigError), NotReadyError when the environment
   *   lacks a key, Partner ID or address.
   */
  async send<E extends EndpointId>(
    env: EnvironmentId,
    endpointId: E,
    pathParams: ParamsOf<E>,
    body: BodyOf<E>,
    options: CallOptions<E> & { quiet?: boolean; title?: string } = {},
  ): Promise<SentRequest<ResponseOf<E>>> {
    const def = ENDPOINTS[endpointId];
    const label = ENVIRONMENTS[env].label;
    const target = await this.target(env);
    const params: Record<string, string | number> = { ...(pathParams as Readonly<Record<string, string | number>>) };
    if (def.pathParams.includes('company_name') && !params.company_name) {
      if (!target.companyName) throw new NotReadyError(`${label} has no version 2 company name: set tpp.${env}.v2CompanyName (or $companyName in the file).`);
      params.company_name = target.companyName;
    }
    if (def.pathParams.includes('program') && !params.program) {
      if (!target.eligibilityProgram) throw new NotReadyError(`${label} has no eligibility program segment: set tpp.${env}.eligibilityProgram.`);
      params.program = target.eligibilityProgram;
    }
    if (!target.baseUrls[def.base]) {
      const setting = def.base === 'v2' ? 'v2BaseUrl' : def.base === 'eligibility' ? 'eligibilityBaseUrl' : 'baseUrl';
      throw new NotReadyError(`${label} has no ${def.base} address: set tpp.${env}.${setting}.`);
    }
    const eligibilityToken = def.base === 'eligibility' ? await this.keys.eligibilityToken(env) : undefined;
    if (def.base === 'eligibility' && !eligibilityToken)
      throw new NotReadyError(`The eligibility lookup needs the token issued by the provider: run "Tire Protection: Set Eligibility Token…" for ${label}.`);
    // Fail early (before any request) when the environment cannot sign.
    if (def.base !== 'eligibility') await this.jwt.target(env);
    const { quiet, title, signal, ...callOptions } = options;
    let entry: HistoryEntry | undefined;
    const client = await this.clientFor(env, { quiet: quiet ?? false, target, onRecorded: (e) => (entry = e) });
    const sent = await client.send({ kind: 'call', endpointId, params, body, ...(callOptions.query ? { query: callOptions.query as Record<string, unknown> } : {}), ...(callOptions.storeNumber ? { storeNumber: callOptions.storeNumber } : {}), ...(title ? { title } : {}) }, { ...(signal ? { signal } : {}) });
    if (sent.response && entry) return { response: sent.response as ApiResponse<ResponseOf<E>>, entry, exchange: sent.exchange };
    const err = sent.error ?? new Error('No answer.');
    if (err !== null && typeof err === 'object') this.failed.set(err, sent.exchange);
    throw err;
  }

  /**
   * The client of `env` (core's client/clientFor.ts, the toolkit's one way to send) as the editor sends: the
   * environment's addresses, Partner ID and fresh tokens (remembered in memory for the 401 checklist), the user's
   * retry and timeout settings of this moment, and hooks that describe a failure as the editor does, record every
   * request in the history (unless `quiet`) and fire {@link onDidChangeData} after a successful write. The editor's
   * sends, flows and their Test Explorer runs all use it.
   * @throws NotReadyError when `env` has no address.
   */
  async clientFor(env: EnvironmentId, o: { quiet?: boolean; target?: EnvironmentTarget; onRecorded?: (entry: HistoryEntry) => void } = {}): Promise<ToolkitClient> {
    const target = o.target ?? (await this.target(env));
    const label = ENVIRONMENTS[env].label;
    const iss = await this.jwt.target(env).then((t) => t.iss, () => undefined);
    const eligibilityToken = await this.keys.eligibilityToken(env);
    const req = this.settings.requests();
    const quiet = o.quiet ?? false;
    const environment: ClientEnvironment = {
      id: env,
      baseUrl: target.baseUrls.v3 ?? '',
      ...(target.baseUrls.v2 ? { v2BaseUrl: target.baseUrls.v2 } : {}),
      ...(target.baseUrls.eligibility ? { eligibilityBaseUrl: target.baseUrls.eligibility } : {}),
      ...(iss ? { partnerId: iss } : {}),
      token: () => this.remember(env, this.jwt.mint(env)),
      ...(target.baseUrls.v2 ? { v2Token: () => this.remember(env, this.mintV2(env, target.baseUrls.v2 as string)) } : {}),
      ...(eligibilityToken ? { eligibilityToken: () => eligibilityToken } : {}),
    };
    const limits = { retry: { maxAttempts: req.maxAttempts, maxTotalMs: req.maxTotalMs }, timeoutMs: req.timeoutMs, userAgent: quiet ? EDITOR_READ_USER_AGENT : EDITOR_SEND_USER_AGENT };
    return clientFor(environment, limits, {
      onEvent: (e) => this.log.info(`[${label}] ${e.type} ${e.method} ${e.url}${e.type === 'retry' ? ` (attempt ${e.attempt}, waiting ${e.delayMs} ms: ${e.reason})` : ''}`),
      // Described in full before it is kept or shown: the history and the response view read it as it is.
      ...(quiet ? {} : { describe: (x: Exchange) => this.withEditorDiagnosis(x) }),
      onExchange: (r) => {
        const entry = this.recordSent(env, r, quiet);
        o.onRecorded?.(entry);
        if (r.ok && r.call && isDataChanging(r.call.endpointId)) this.dataEmitter.fire({ env, endpointId: r.call.endpointId, params: r.call.params });
      },
    });
  }

  /** A request's history entry (recorded unless `quiet`): its replay when it was a contract call. */
  private recordSent(env: EnvironmentId, r: SentReport, quiet: boolean): HistoryEntry {
    const x = r.exchange;
    const c = r.call;
    const body = c?.body !== undefined ? storableBody(c.body) : undefined;
    const replay = c ? { endpointId: c.endpointId, ...(Object.keys(c.params).length ? { params: c.params } : {}), ...(c.query ? { query: c.query } : {}), ...(body !== undefined ? { bodyJson: body } : {}) } : undefined;
    const status = x.response?.status;
    return this.record({ env, time: x.time, method: x.request.method, url: x.request.url, status, error: status === undefined ? shortError(r.error) : undefined, durationMs: x.durationMs, attempts: x.attempts, ...(replay ? { replay: replay as HistoryEntry['replay'] } : {}), exchange: x }, quiet);
  }

  /** Records a request in the history unless `quiet` (then only the entry is built, with no id). */
  private record(
    e: { env: EnvironmentId; time: string; method: string; url: string; status?: number; error?: string; durationMs: number; attempts: number; replay?: HistoryEntry['replay']; exchange: Exchange },
    quiet = false,
  ): HistoryEntry {
    if (quiet) {
      this.history.noteQuiet(e.env, e.status, e.error, e.time);
      return { ...e, id: '', path: pathOf(e.url) };
    }
    return this.history.record({ ...e, path: pathOf(e.url) });
  }

  dispose(): void {
    this.dataEmitter.dispose();
    this.minter?.forget();
  }
}
