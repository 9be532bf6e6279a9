/** The Local sandbox's options and handle (see `startSandbox` in ./server.ts). */
import type { OpsContext } from './ops/common';
import type { AdminOptions } from './control/security';
import type { FaultOptions } from './realism';
import type { RequestLog, RequestLogOptions } from '../requestLog/requestLog';
import type { SampleSummary } from './seed';

/** A partner to register at start: Partner ID, SPKI PEM public key, optional v2 name segment. */
export interface PartnerSpec {
  readonly id: string;
  readonly spkiPem: string;
  readonly name?: string;
}

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** Port (default 0: a free port). */
  readonly port?: number;
  /** Time to receive a whole request, in milliseconds (default `REQUEST_TIMEOUT_MS` of control/security.ts, 30 000). */
  readonly requestTimeoutMs?: number;
  /** Data directory of the embedded database; absent (and no `database`) = in memory. */
  readonly dataDir?: string;
  /** PostgreSQL server URL (`postgres://user@host:port/db`): the records live in its `tpp` schema. */
  readonly database?: string;
  /** Partners to register at start. */
  readonly partners?: readonly PartnerSpec[];
  /** Sample registrations to bulk-load for each partner of `partners` before listening (0 = none). */
  readonly seedCount?: number;
  /** The dedicated eligibility-lookup token; when absent every eligibility call answers 401. */
  readonly eligibilityToken?: string;
  /** Per-partner rate limit in requests per second (absent or 0 = off). */
  readonly rateLimitPerSecond?: number;
  /** Fault injection (off by default). */
  readonly faults?: FaultOptions;
  /** Program term in months (default 36). */
  readonly termMonths?: number;
  /** Called with one line per request (method, path, status, milliseconds); tokens and keys are masked. */
  readonly log?: (line: string) => void;
  /** Clock in milliseconds since epoch (tests). */
  readonly now?: () => number;
  /**
   * The waits of injected faults, in milliseconds: a slow answer of `faults`, a scheduled fault's `delayMs`, a
   * `timeout` fault's hold (a timer by default; tests pass one they control).
   */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Keep a request log with a diagnosis of each failure (./requestLog.ts); off when absent. */
  readonly requestLog?: RequestLogOptions;
  /** The control API under /__tpp/ (control/routes.ts): on by default on a loopback host only. */
  readonly admin?: AdminOptions;
  /** Version the control API's health answers (default `dev`). */
  readonly version?: string;
  /**
   * Tests only: answer every authenticated request with this status, one the spec lists for no endpoint (the
   * contract-drift check of `tpp proxy`, docs/proxy.md). Never set by the CLI or the editor.
   */
  readonly driftStatusForTests?: number;
}

/** A running sandbox. */
export interface SandboxHandle {
  /** e.g. http://127.0.0.1:43117 */
  readonly origin: string;
  /** {sandbox_url}: origin + /api/v3 (the v3 JWT aud). */
  readonly v3BaseUrl: string;
  /** {legacy_base_url}: the origin (the v2 JWT aud). */
  readonly v2BaseUrl: string;
  /** {rsa_base_url}: origin + /api/v1. */
  readonly eligibilityBaseUrl: string;
  /** The operations' context (database, clock), for seeding and benchmarks. */
  readonly context: OpsContext;
  /** The request log, when {@link SandboxOptions.requestLog} asked for one. */
  readonly requestLog?: RequestLog;
  /**
   * Registers (or replaces) a partner's public key. `name` (default: the Partner ID, or the name it had) is the v2
   * path segment and the verify-token name. Rejects when the PEM is not a P-256/P-384/P-521 SPKI public key.
   */
  registerPartner(id: string, spkiPem: string, name?: string): Promise<void>;
  /** Health of the control API answers `ready` from now on (see {@link AdminOptions.starting}). */
  setReady(): void;
  /** Sets (or with undefined, removes) the dedicated eligibility-lookup token. */
  setEligibilityToken(token: string | undefined): void;
  /** Bulk-loads sample data for a registered partner (`count` registrations). Rejects when the partner is unknown. */
  loadSampleData(partnerId: string, count?: number): Promise<SampleSummary>;
  /** Stops listening, closes connections and the database. Safe to call twice. */
  close(): Promise<void>;
}
