import type { Exchange } from '../exchange/types';

/**
 * Messages between the editor and the Local sandbox's child process (src/core/sandbox/child.ts) over the Node IPC
 * channel of `child_process.fork`. The parent sends one `start`, then any number of `request`s; the child answers
 * `ready` (or `startFailed`), one `response` per request (same `id`), and `log` lines at any time; asked to, it also
 * pushes the entries of its request log (`exchanges`, batched). The IPC channel is private to the two processes: no
 * other process can read the log (a local-only channel, not an endpoint). The child exits when the parent
 * disconnects.
 */

/** What the child needs to start the sandbox (sent over IPC, not argv: the eligibility token is a secret). */
export interface ChildStartOptions {
  /** Data directory; absent = in memory. Another process holding it ('DataDirInUse') = in memory, with a log line. */
  readonly dataDir?: string;
  /** TCP port on 127.0.0.1 to listen on; 0 or absent = a free port. A port in use falls back to a free one. */
  readonly port?: number;
  /**
   * The port is the user's choice (`tpp.local.port`): when another program holds it the start fails with a
   * `PortInUse` error instead of moving to a free port, so an application configured for it never loses it silently.
   */
  readonly strictPort?: boolean;
  /** The Local eligibility token (`apikey` of the retired lookup), if set. */
  readonly eligibilityToken?: string;
  /** Keep a request log (./requestLog.ts) and push its entries to the parent as `exchanges` messages. */
  readonly requestLog?: { readonly limit?: number };
  /** The control API's admin token, made per start by the editor (a secret: sent over IPC, never in argv or env). */
  readonly adminToken?: string;
}

/**
 * V8 options of a process that serves the sandbox (the editor's child, and `tpp sandbox`'s, src/cli/commands/sandboxProcess.ts),
 * also those of the process that sends a backfill's rows (src/cli/runnerProcess.ts: undici's HTTP parser is WebAssembly too).
 * `--liftoff-only`: PGlite's WebAssembly compiled by the baseline compiler (Liftoff) only; optimising it again with
 * TurboFan cost 70-90 MiB of resident memory that is never given back, for no throughput gained on its queries.
 * `--max-semi-space-size=4 --heap-growing-percent=20`: a young generation of at most 4 MiB a half instead of 16, and an
 * old generation let grow by 20 % between full collections instead of V8's up to 4x: under load the heap was 110-140
 * MiB committed for 50-60 MiB alive, now 55-75 (measured in docs/sandbox.md, Storage; CPU per request the same within
 * the noise). Given before the caller's own (tests add tsx).
 */
export const CHILD_EXEC_ARGV: readonly string[] = ['--liftoff-only', '--max-semi-space-size=4', '--heap-growing-percent=20'];

/**
 * Environment of a process that serves the sandbox, over the caller's: glibc keeps at most 2 malloc arenas instead of
 * one per thread (V8's and libuv's workers; about 5 MiB fewer resident). Ignored elsewhere than glibc. A value the
 * user set is kept.
 */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { MALLOC_ARENA_MAX: '2', ...env };
}

/** Longest wait of a request-log entry in the child before it is pushed, in milliseconds (entries are batched). */
export const EXCHANGE_BATCH_MS = 25;
/** Most entries in one `exchanges` message. */
export const EXCHANGE_BATCH_MAX = 200;

/** Sends `msg` to the parent over IPC; a parent that went away is ignored (its 'disconnect' ends the child). */
export function sendToParent(msg: unknown): void {
  if (!process.connected || !process.send) return;
  try {
    process.send(msg);
  } catch {
    // the parent went away: 'disconnect' ends this process
  }
}

/**
 * A subscriber of a request log (the sandbox's or the proxy's) that pushes each entry's masked exchange to the parent
 * in `exchanges` messages: together at most {@link EXCHANGE_BATCH_MS} after the first, {@link EXCHANGE_BATCH_MAX} a message.
 * An entry's exchange is built (masked, capped) when its batch is sent, not while the next answers wait. `send`:
 * the parent's IPC channel (npm run bench:sandbox passes one that only serialises, as process.send does).
 */
export function exchangePusher(send: (msg: ChildMessage) => void = sendToParent): (entry: { exchange(): Exchange }) => void {
  const batch: { exchange(): Exchange }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    while (batch.length) send({ type: 'exchanges', records: batch.splice(0, EXCHANGE_BATCH_MAX).map((e) => e.exchange()) });
  };
  return (entry) => {
    batch.push(entry);
    timer ??= setTimeout(flush, EXCHANGE_BATCH_MS);
  };
}

/** A method of the running sandbox callable from the parent, with its parameters (see SandboxHandle). */
export type ChildRequestCall =
  | { readonly method: 'registerPartner'; readonly params: readonly [id: string, spkiPem: string, name: string] }
  | { readonly method: 'setEligibilityToken'; readonly params: readonly [token: string | undefined] }
  | { readonly method: 'loadSampleData'; readonly params: readonly [partnerId: string, count: number | undefined] };

/** Parent → child. */
export type ParentMessage =
  | { readonly type: 'start'; readonly options: ChildStartOptions }
  | ({ readonly type: 'request'; readonly id: number } & ChildRequestCall);

/** An error crossing the process boundary: its `name` (e.g. 'DataDirInUse') and message. */
export interface ChildError {
  readonly name: string;
  readonly message: string;
}

/** The running sandbox's addresses (spec {sandbox_url} = v3BaseUrl). */
export interface ChildReady {
  readonly type: 'ready';
  /** e.g. http://127.0.0.1:43117 */
  readonly origin: string;
  readonly v3BaseUrl: string;
  readonly v2BaseUrl: string;
  readonly eligibilityBaseUrl: string;
  /** True when the data directory was asked for but is held by another process, so data is kept in memory. */
  readonly inMemory: boolean;
}

/** Child → parent. */
export type ChildMessage =
  | ChildReady
  | { readonly type: 'startFailed'; readonly error: ChildError }
  | { readonly type: 'log'; readonly line: string }
  /** Request-log entries (masked, capped; source `sandbox-log`), oldest first. */
  | { readonly type: 'exchanges'; readonly records: readonly Exchange[] }
  | { readonly type: 'response'; readonly id: number; readonly ok: true; readonly result?: unknown }
  | { readonly type: 'response'; readonly id: number; readonly ok: false; readonly error: ChildError };

/** `err` as a {@link ChildError} (anything thrown becomes an Error-like name and message). */
export function childErrorOf(err: unknown): ChildError {
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}
