/**
 * Typed errors of the partner API client (spec: Errors). None of them ever holds a token or a request
 * header: they carry the method and URL (the query string is masked with `maskSecrets`), the status with
 * the spec's name and meaning, the response body, and how many attempts were made.
 *
 * Callers tell them apart with `instanceof` (`err instanceof AuthError`, `err instanceof NetworkError`): the
 * extension reaches every class through the one copy of this module in dist/core.js, so identity holds there.
 */
import type { core as zcore } from 'zod';
import { maskSecrets } from '../log/mask';
import { describeStatus } from './status';

/** What every client error says about the call it belongs to. */
export interface CallInfo {
  /** HTTP method, e.g. `POST`. */
  readonly method: string;
  /** Absolute URL of the last request made (after same-origin redirects), secrets in it masked. */
  readonly url: string;
  /** Attempts made, counting the first (a redirect hop is not a new attempt; an invoice check is not either). */
  readonly attempts: number;
  /** Wall time from the call's start to the error, in milliseconds. */
  readonly durationMs: number;
}

function plural(n: number): string {
  return `${n} attempt${n === 1 ? '' : 's'}`;
}

/**
 * The server answered with a status that is not a success (after retries where the spec allows them).
 * `statusName` and `meaning` are the spec's Errors table row (e.g. 409 → `Conflict`, "State conflict: …").
 */
export class ApiError extends Error implements CallInfo {
  override readonly name: string = 'ApiError';
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly statusName: string;
  readonly meaning: string;
  /** Response body parsed as JSON, or the raw text when it is not JSON, or `undefined` when empty. */
  readonly body: unknown;
  /** Response body exactly as received (UTF-8 text). */
  readonly rawBody: string;
  readonly attempts: number;
  readonly durationMs: number;
  /** True when the status was retryable (429, 5xx) and the retry budget (attempts or total time) ran out. */
  readonly retriesExhausted: boolean;
  /**
   * True for a 5xx answer to a write that is not repeated (claims without a service invoice number, shops, parts,
   * transactions, PATCH, DELETE): the server may have committed it before failing. `howToCheck` says how to find out.
   */
  readonly outcomeUnknown: boolean;
  readonly howToCheck?: string;
  /** Response headers, when known. */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;

  constructor(
    init: CallInfo & {
      status: number;
      body: unknown;
      rawBody: string;
      retriesExhausted?: boolean;
      outcomeUnknown?: boolean;
      howToCheck?: string;
      headers?: Readonly<Record<string, string | string[] | undefined>>;
    },
  ) {
    const info = describeStatus(init.status);
    const url = maskSecrets(init.url);
    const detail = detailOf(init.body);
    super(
      `${init.method} ${url} answered ${init.status} ${info.name}: ${info.meaning}` +
        (detail ? ` Server said: ${detail}` : '') +
        ` (${plural(init.attempts)}${init.retriesExhausted ? ', retries exhausted' : ''})` +
        (init.outcomeUnknown ? `. Outcome unknown: the server may have stored it before failing, so it was not sent again. ${init.howToCheck ?? ''}`.trimEnd() : ''),
    );
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    if (init.howToCheck !== undefined) this.howToCheck = init.howToCheck;
    if (init.headers !== undefined) this.headers = init.headers;
    this.method = init.method;
    this.url = url;
    this.status = init.status;
    this.statusName = info.name;
    this.meaning = info.meaning;
    this.body = init.body;
    this.rawBody = init.rawBody;
    this.attempts = init.attempts;
    this.durationMs = init.durationMs;
    this.retriesExhausted = init.retriesExhausted ?? false;
  }
}

/**
 * 401 Unauthorized (spec: Authentication; Errors): the server rejected the token (wrong key, unknown Partner ID,
 * `aud`/`iss`/`iat`/`exp` out of rule). An {@link ApiError} with `status` 401, so it is also an ApiError.
 */
export class AuthError extends ApiError {
  override readonly name: string = 'AuthError';
}

/**
 * The error for a non-success answer: {@link AuthError} for 401, {@link ApiError} otherwise.
 * @param init as for the ApiError constructor.
 */
export function apiErrorFor(init: ConstructorParameters<typeof ApiError>[0]): ApiError {
  return init.status === 401 ? new AuthError(init) : new ApiError(init);
}

/** A short server message from an error body (`{error}`, `{message}` or short text), masked. */
function detailOf(body: unknown): string | undefined {
  let text: string | undefined;
  if (typeof body === 'string') text = body.trim();
  else if (body && typeof body === 'object') {
    const rec = body as Record<string, unknown>;
    const value = rec.message ?? rec.error ?? rec.Message;
    if (typeof value === 'string') text = value;
  }
  if (!text) return undefined;
  return maskSecrets(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/**
 * The server answered with a success status but the body does not match the contract (not JSON, or JSON
 * that fails the endpoint's response schema beyond unknown properties, which are tolerated). The raw body
 * and the zod issues are kept for display.
 */
export class MalformedResponseError extends Error implements CallInfo {
  override readonly name = 'MalformedResponseError';
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly rawBody: string;
  /** zod issues (empty when the body is not JSON at all; then `notJson` is true). */
  readonly issues: readonly zcore.$ZodIssue[];
  readonly notJson: boolean;
  readonly attempts: number;
  readonly durationMs: number;

  constructor(init: CallInfo & { status: number; rawBody: string; issues: readonly zcore.$ZodIssue[]; notJson: boolean }) {
    const url = maskSecrets(init.url);
    const first = init.issues[0];
    const what = init.notJson
      ? init.rawBody.trim() === ''
        ? 'an empty body where the contract expects one'
        : 'a body that is not JSON'
      : `a body that does not match the contract (${init.issues.length} problem${init.issues.length === 1 ? '' : 's'}` +
        (first ? `; first: ${first.path.length ? first.path.join('.') : '(root)'}: ${first.message}` : '') +
        ')';
    super(`${init.method} ${url} answered ${init.status} with ${what}`);
    this.method = init.method;
    this.url = url;
    this.status = init.status;
    this.rawBody = init.rawBody;
    this.issues = init.issues;
    this.notJson = init.notJson;
    this.attempts = init.attempts;
    this.durationMs = init.durationMs;
  }
}

/**
 * No answer: connection refused or reset, a per-attempt timeout, a TLS failure. `outcomeUnknown` is true when
 * the request may have reached the server and its effect is unknown (a POST/PATCH that is not retried after a
 * network error, or a create whose invoice-number check could not be completed): check before resending.
 */
export class NetworkError extends Error implements CallInfo {
  override readonly name = 'NetworkError';
  readonly method: string;
  readonly url: string;
  /** The system or undici error code, e.g. `ECONNRESET`, `UND_ERR_SOCKET`, or `TIMEOUT` for the attempt timer. */
  readonly code: string;
  readonly timedOut: boolean;
  readonly outcomeUnknown: boolean;
  readonly attempts: number;
  readonly durationMs: number;

  /** With `outcomeUnknown`: how to find out whether the request took effect. */
  readonly howToCheck?: string;

  constructor(
    init: CallInfo & { code: string; timedOut: boolean; outcomeUnknown: boolean; detail: string; cause?: unknown; howToCheck?: string },
  ) {
    const url = maskSecrets(init.url);
    super(
      `${init.method} ${url} failed: ${maskSecrets(init.detail)} (${plural(init.attempts)})` +
        (init.outcomeUnknown ? `. The request may have reached the server; check whether it took effect before sending it again.${init.howToCheck ? ` ${init.howToCheck}` : ''}` : ''),
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    if (init.howToCheck !== undefined) this.howToCheck = init.howToCheck;
    this.method = init.method;
    this.url = url;
    this.code = init.code;
    this.timedOut = init.timedOut;
    this.outcomeUnknown = init.outcomeUnknown;
    this.attempts = init.attempts;
    this.durationMs = init.durationMs;
  }
}

/**
 * The answer's body is larger than the client reads (`maxResponseBytes`, default 16 MiB): reading stopped at the
 * limit, or did not start when Content-Length announced more. Not repeated; the status is known.
 */
export class ResponseTooLargeError extends Error implements CallInfo {
  override readonly name = 'ResponseTooLargeError';
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** Content-Length when `declared`, else the bytes received when reading stopped (more were coming). */
  readonly sizeBytes: number;
  readonly declared: boolean;
  readonly limitBytes: number;
  readonly attempts: number;
  readonly durationMs: number;

  constructor(init: CallInfo & { status: number; sizeBytes: number; declared: boolean; limitBytes: number }) {
    const url = maskSecrets(init.url);
    const size = init.declared ? `a body of ${bytes(init.sizeBytes)} (Content-Length)` : `a body of more than ${bytes(init.limitBytes)} (reading stopped at ${bytes(init.sizeBytes)})`;
    super(`${init.method} ${url} answered ${init.status} with ${size}, over the limit of ${bytes(init.limitBytes)} (option maxResponseBytes); the answer was not read`);
    this.method = init.method;
    this.url = url;
    this.status = init.status;
    this.sizeBytes = init.sizeBytes;
    this.declared = init.declared;
    this.limitBytes = init.limitBytes;
    this.attempts = init.attempts;
    this.durationMs = init.durationMs;
  }
}

/** `52,428,800 bytes (50.0 MiB)`. */
function bytes(n: number): string {
  return `${n.toLocaleString('en-US')} bytes (${(n / 1024 / 1024).toFixed(1)} MiB)`;
}

/** Why a request was refused before anything was sent. */
export type PolicyReason = 'insecure-url' | 'cross-origin-redirect' | 'too-many-redirects' | 'redirect-without-location' | 'redirect-refused' | 'cookies-refused';

/**
 * A request refused by the client's address policy (plain http off loopback, a redirect to another origin,
 * too many redirects). Nothing was sent to the refused address, and no Authorization header left the origin.
 */
export class PolicyError extends Error {
  override readonly name = 'PolicyError';
  readonly reason: PolicyReason;
  readonly method: string;
  /** The refused (or redirecting) URL, secrets masked. */
  readonly url: string;
  /** For redirects: the refused target. */
  readonly location?: string;
  readonly status?: number;

  constructor(init: { reason: PolicyReason; method: string; url: string; message: string; location?: string; status?: number }) {
    super(maskSecrets(init.message));
    this.reason = init.reason;
    this.method = init.method;
    this.url = maskSecrets(init.url);
    if (init.location !== undefined) this.location = maskSecrets(init.location);
    if (init.status !== undefined) this.status = init.status;
  }
}

/**
 * The caller cancelled (AbortSignal / VS Code cancellation token). Its `name` is `AbortError`, as for DOM
 * aborts, so generic cancellation checks recognise it.
 */
export class CancelledError extends Error {
  override readonly name = 'AbortError';
  readonly method: string;
  readonly url: string;
  readonly attempts: number;

  constructor(init: { method: string; url: string; attempts: number }) {
    super(`${init.method} ${maskSecrets(init.url)} was cancelled`);
    this.method = init.method;
    this.url = maskSecrets(init.url);
    this.attempts = init.attempts;
  }
}

/** True for a cancellation of any origin (our CancelledError, a DOMException AbortError, undici's). */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** The client was asked for something its settings cannot do (no base address for the endpoint, a missing path parameter, no eligibility token). */
export class ClientConfigError extends Error {
  override readonly name = 'ClientConfigError';
}
