import * as vscode from 'vscode';
import { EnvironmentId } from '../../core/environments';
import { baseUrlProblem } from './environmentChecklist';

export { baseUrlProblem };

/** Settings of one remote environment (`tpp.<env>.*`, application scope). */
export interface RemoteSettings {
  /** v3 base address, ending in /api/v3; `''` when not set. */
  baseUrl: string;
  /** Partner ID returned by the administrator; `''` when not set. */
  partnerId: string;
}

/** Addresses of a remote environment besides v3 (`tpp.<env>.v2BaseUrl`, ...); `''` when not set. */
export interface RemoteExtraSettings {
  /** {legacy_base_url}: host of the version 2 record interface. */
  v2BaseUrl: string;
  /** {company_name} of /v2/partners/{company_name}. */
  v2CompanyName: string;
  /** {rsa_base_url}: the retired eligibility lookup, ending in /api/v1. */
  eligibilityBaseUrl: string;
  /** {program} path segment of the eligibility lookup. */
  eligibilityProgram: string;
}

/** Request behaviour shared by all environments (`tpp.registrations.pageSize`, `tpp.retry.*`, `tpp.request.timeoutMs`). */
export interface RequestSettings {
  /** Registrations per tree page (1..1000; default 50). */
  pageSize: number;
  /** Attempts per request, counting the first (default 5). */
  maxAttempts: number;
  /** Budget of one request with its retries, in milliseconds (default 30 000). */
  maxTotalMs: number;
  /** Time limit of one attempt, in milliseconds (default 30 000). */
  timeoutMs: number;
}

/**
 * Reads and writes the per-environment settings. They are application-scoped in package.json, so a
 * workspace's settings cannot redirect requests; writes always go to the user (global) target.
 */
export class EnvironmentSettings implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor() {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('tpp')) this.emitter.fire();
    });
  }

  /** Settings of a remote environment; the Local sandbox has none (`undefined`). */
  remote(env: EnvironmentId): RemoteSettings | undefined {
    if (env === 'local') return undefined;
    const config = vscode.workspace.getConfiguration(`tpp.${env}`);
    return { baseUrl: config.get<string>('baseUrl', '').trim(), partnerId: config.get<string>('partnerId', '').trim() };
  }

  /** v2 and eligibility addresses of a remote environment; `undefined` for Local (the sandbox provides them). */
  remoteExtras(env: EnvironmentId): RemoteExtraSettings | undefined {
    if (env === 'local') return undefined;
    const c = vscode.workspace.getConfiguration(`tpp.${env}`);
    const s = (k: string) => c.get<string>(k, '').trim();
    return { v2BaseUrl: s('v2BaseUrl'), v2CompanyName: s('v2CompanyName'), eligibilityBaseUrl: s('eligibilityBaseUrl'), eligibilityProgram: s('eligibilityProgram') };
  }

  /** Page size, retry budget and timeout; out-of-range values fall back to their defaults. */
  requests(): RequestSettings {
    const c = vscode.workspace.getConfiguration('tpp');
    const int = (k: string, def: number, min: number, max: number) => {
      const v = c.get<number>(k, def);
      return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : def;
    };
    return {
      pageSize: int('registrations.pageSize', 50, 1, 1000),
      maxAttempts: int('retry.maxAttempts', 5, 1, 20),
      maxTotalMs: int('retry.maxTotalMs', 30_000, 0, 600_000),
      timeoutMs: int('request.timeoutMs', 30_000, 1000, 600_000),
    };
  }

  async setPartnerId(env: Exclude<EnvironmentId, 'local'>, partnerId: string): Promise<void> {
    await vscode.workspace.getConfiguration(`tpp.${env}`).update('partnerId', partnerId, vscode.ConfigurationTarget.Global);
  }

  /**
   * Stores the v3 base address (`tpp.<env>.baseUrl`, application scope, user settings) without a trailing slash.
   * @throws Error when `baseUrl` is not an http(s) address ending in `/api/v3` (spec: Base addresses).
   */
  async setBaseUrl(env: Exclude<EnvironmentId, 'local'>, baseUrl: string): Promise<void> {
    const problem = baseUrlProblem(baseUrl);
    if (problem) throw new Error(problem);
    await vscode.workspace.getConfiguration(`tpp.${env}`).update('baseUrl', baseUrl.trim().replace(/\/+$/, ''), vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

