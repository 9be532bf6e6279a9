/**
 * Shapes of the editor's Local sandbox client (./embedded.ts): its addresses, life cycle and options.
 */

import type { Exchange } from '../exchange/types';

/** Addresses and identity of the running Local sandbox. */
export interface LocalSandboxInfo {
  /** e.g. http://127.0.0.1:43117 */
  readonly origin: string;
  /** origin + /api/v3: the Local base address and JWT `aud`. */
  readonly v3BaseUrl: string;
  /** The origin: the v2 base address and v2 JWT `aud`. */
  readonly v2BaseUrl: string;
  /** origin + /api/v1. */
  readonly eligibilityBaseUrl: string;
  /** The generated Partner ID of the Local environment (JWT `iss`). */
  readonly partnerId: string;
  /** The v2 {company_name} segment of the Local partner. */
  readonly companyName: string;
  /**
   * The admin token of this sandbox process's control API (`/__tpp/`), made at its start and valid until it stops: a
   * secret, given to the user only when asked for (Copy Local Control Token), never logged.
   */
  readonly controlToken: string;
}

/** Life cycle of the sandbox process: not started (or stopped), starting, answering, or died unexpectedly. */
export type SandboxState = 'stopped' | 'starting' | 'running' | 'crashed';

/** The state with, when 'crashed', the reason (how it ended and the last error lines of its log). */
export interface SandboxStatus {
  readonly state: SandboxState;
  readonly reason?: string;
  /** Process id of the sandbox process while it is starting or running. */
  readonly pid?: number;
  /** When 'crashed' because the chosen port (`tpp.local.port`) is held by another program: that port. */
  readonly portInUse?: number;
}

/** Options of {@link EmbeddedSandbox}. */
export interface EmbeddedSandboxOptions {
  /** Path of the child entry: dist/sandbox-child.js (tests: src/core/sandbox/child.ts with `execArgv`). */
  readonly childModule: string;
  /** Path of the server module the child loads (default: sandbox.js beside the child entry); read at each start. */
  readonly serverModule?: string;
  /** Node options of the child (default none: the editor's own, e.g. --inspect, are not inherited). */
  readonly execArgv?: readonly string[];
  /** Partner ID of the Local environment. */
  readonly partnerId: string;
  /** Data directory; absent = in memory. */
  readonly dataDir?: string;
  /**
   * The port to listen on, read at each start (setting `tpp.local.port`): a port > 0 is the user's choice, so when
   * another program holds it the start fails with {@link SandboxStatus.portInUse} set, never moving elsewhere; 0 or
   * absent = any free port (the same one again on restarts while it is free).
   */
  readonly port?: () => number;
  /** The Local environment's public key (SPKI PEM), or undefined when it has no key pair yet. */
  readonly publicKey: () => Promise<string | undefined>;
  /** The Local eligibility token, if set. */
  readonly eligibilityToken?: () => Promise<string | undefined>;
  /** The sandbox's log lines (one per request) and its standard error. */
  readonly log?: (line: string) => void;
  /** Called on every state change. */
  readonly onStateChange?: (status: SandboxStatus) => void;
  /** Receives the request log (any client's requests, diagnosed, masked) in batches over the private IPC channel. */
  readonly onExchanges?: (records: readonly Exchange[]) => void;
  /** Limit for the process to report ready, in ms (default 60,000). */
  readonly startTimeoutMs?: number;
  /** Limit of each request to the process, in ms (default 15,000; loading sample data: 10× that). */
  readonly requestTimeoutMs?: number;
}
