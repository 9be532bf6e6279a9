/**
 * Shapes shared by the client's modules (spec: Errors; Authentication): what the transport is given and
 * answers, its events, the repeat policy of a call, and the parsed answer. Types only, so the modules that
 * use them do not import each other.
 */
import type { Dispatcher } from 'undici';

/** undici's dispatcher type, for the modules that take one: they import it from here, not from undici. */
export type { Dispatcher };
import type { IncomingHttpHeaders } from 'node:http';
import type { EndpointId } from '../contract/types';
import type { Clock, RetrySettings } from './backoff';

/** Something the transport did, for logs and progress (never holds a token or header). */
export type TransportEvent =
  | { readonly type: 'retry'; readonly method: string; readonly url: string; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  | { readonly type: 'redirect'; readonly method: string; readonly url: string; readonly location: string; readonly status: number }
  | { readonly type: 'check'; readonly method: string; readonly url: string; readonly attempt: number; readonly landed: boolean | 'failed' };

/** Settings shared by every call of one client. */
export interface TransportOptions {
  /** undici dispatcher (Agent, Pool, MockAgent…); undici's global dispatcher when omitted. */
  readonly dispatcher?: Dispatcher;
  /**
   * Time limit of one attempt (request, redirect hops and body), in milliseconds. Default 30 000. An attempt is
   * cut shorter when less than this is left of the call's `retry.maxTotalMs`.
   */
  readonly timeoutMs?: number;
  /**
   * Largest response body read, in bytes (default 16 MiB, `DEFAULT_MAX_RESPONSE_BYTES` of attempt.ts). A larger answer is
   * not read whole: reading stops at the limit (or at once when Content-Length says so) and the call fails with
   * ResponseTooLargeError.
   */
  readonly maxResponseBytes?: number;
  readonly retry?: Partial<RetrySettings>;
  /** Redirect hops followed per attempt. Default 5. */
  readonly maxRedirects?: number;
  readonly userAgent?: string;
  /** Random source in [0, 1) for jitter (tests make it deterministic). */
  readonly random?: () => number;
  /** The deadline's clock and the waits between attempts (`REAL_CLOCK` of backoff.ts by default; tests move their own). */
  readonly clock?: Clock;
  readonly onEvent?: (event: TransportEvent) => void;
}

/** Outcome of an invoice-number check run before re-sending a create whose first attempt may have landed. */
export type CheckOutcome =
  | { readonly landed: false }
  | {
      readonly landed: true;
      /** The body to hand back as the create's result (e.g. `{ id }`). */
      readonly body: unknown;
      /** The URL of the list read that found the record (masked). */
      readonly checkUrl: string;
      /** The record found. */
      readonly record: unknown;
    };

/**
 * May the request be sent again after a failure that may have reached the server (a network error after
 * sending, a timeout, and for creates also a 5xx)?
 * - `safe`: yes (GET; v2 POSTs, whose resend updates).
 * - `unsafe`: no — the error is reported with `outcomeUnknown` and `howToCheck` (shops, parts, transactions, PATCH,
 *   DELETE, v2 claims and sales), also after a 5xx answer, which may come after the write was committed.
 * - `check`: only after `check()` reports that the first attempt did not land; if it did, its record is the
 *   result (`recovered`). 5xx answers to such a create are checked the same way before a resend, and so is a
 *   409/400 answer to a resend (the first attempt may have landed after the check, e.g. from a server queue).
 * A failure before anything was sent (connection refused, DNS, connect timeout) and 429 are always retried.
 */
export type RepeatPolicy =
  | { readonly kind: 'safe' }
  | { readonly kind: 'unsafe'; /** How the user can find out whether it landed (one sentence). */ readonly howToCheck?: string }
  | {
      readonly kind: 'check';
      /** How the user can find out whether it landed when the check cannot tell. */
      readonly howToCheck?: string;
      /**
       * May it be sent again after a timeout or dropped connection when the check found nothing? Only when the
       * server refuses a duplicate by itself (registrations: 409 on the same invoice number), since the first
       * request may still be queued. After a 5xx answer the server is done with it, and a create is sent again.
       */
      readonly resendAfterLostConnection?: boolean;
      /** Finds the record of the create; `deadlineAt` (a time of the call's clock) is the create's own ceiling. */
      readonly check: (signal: AbortSignal | undefined, deadlineAt: number | undefined) => Promise<CheckOutcome>;
    };

/** One header line as a file writes it. */
export interface WrittenHeader {
  readonly name: string;
  readonly value: string;
}

/**
 * Cookies kept across the requests of a run (docs/flows.md, a cookie jar per file run), as got's `cookieJar` (REST
 * Client's and httpyac's HTTP client) reads and fills it: before each request and redirect hop, then from each answer.
 */
export interface CookieJarLike {
  /**
   * The Cookie header for a request to `url`, or undefined when none applies.
   * @throws Error when the request must not carry them (the call fails with that error, nothing sent).
   */
  cookieHeader(url: URL): Promise<string | undefined>;
  /** Keeps the `Set-Cookie` lines of an answer from `url`. */
  store(url: URL, setCookie: readonly string[]): Promise<void>;
}

/** A redirect about to be followed. */
export interface RedirectHop {
  readonly from: URL;
  readonly to: URL;
  readonly status: number;
  /** The method of the hop (a 303 makes it GET). */
  readonly method: string;
  /** True when the hop carries the body again (307, 308, and 301/302 of a method other than GET or HEAD). */
  readonly keepsBody: boolean;
  /** Another host or port (got's rule): the written Authorization, Cookie and Host headers are not sent there. */
  readonly crossSite: boolean;
}

/**
 * How a request as written follows redirects: as got 11 does for REST Client and httpyac — 300, 301, 302, 303, 304,
 * 307 and 308 answers with a Location, a 303 to anything but GET or HEAD becomes GET without a body, at most `max`
 * hops (default 10), and another site gets neither Authorization, Cookie nor Host as written.
 */
export interface RedirectPolicy {
  /** False: the 3xx answer is the answer (`# @no-redirect`). */
  readonly follow: boolean;
  readonly max?: number;
  /** Asked before each hop: undefined to follow it, else why not (the call fails with a PolicyError saying so). */
  readonly beforeHop?: (hop: RedirectHop) => Promise<string | undefined>;
}

export interface TransportRequest {
  readonly method: string;
  /** Absolute URL; must pass the address policy (https, or http to loopback). */
  readonly url: string;
  /** JSON-serialisable body, sent with Content-Type: application/json; undefined = no body. */
  readonly body?: unknown;
  /**
   * Returns the bearer token; called once per attempt and per redirect hop. Errors it throws propagate as-is.
   * Absent: no Authorization header is added (a request as written that has its own, or none).
   */
  readonly token?: () => string | Promise<string>;
  /**
   * A request sent as written (a flow's request outside the contract, docs/flows.md: How requests are sent): these
   * headers (a repeated name on lines of its own, as httpyac sends it; a written Content-Length is left to the
   * transport, as REST Client does) and this body exactly, any http(s) address, redirects as `redirects` says. The
   * transport adds only `Authorization: Bearer <token>` when `token` is given, and only at the first URL's origin.
   * Absent: a contract call (JSON body, the client's headers, the address policy, same-origin redirects).
   */
  readonly asWritten?: {
    readonly headers: readonly WrittenHeader[];
    /** The body as sent: text (UTF-8) or bytes (a multipart body with a file's bytes). */
    readonly body?: string | Uint8Array;
    /** Redirects followed as REST Client and httpyac follow them (got's rules); absent: not followed. */
    readonly redirects?: RedirectPolicy;
  };
  /** Headers a contract call carries besides the client's own (a flow's written headers; the client's Accept, User-Agent win only when absent). */
  readonly extraHeaders?: readonly WrittenHeader[];
  /** The cookie jar of the run: its cookies go with every hop, and every answer's Set-Cookie is kept in it. */
  readonly cookies?: CookieJarLike;
  readonly signal?: AbortSignal;
  readonly repeat: RepeatPolicy;
  /**
   * A ceiling shared with an enclosing call, as a time of the clock (TransportOptions.clock): the duplicate check of a create runs
   * under the create's own `maxTotalMs`. The earlier of this and `retry.maxTotalMs` wins.
   */
  readonly deadlineAt?: number;
}

/** The answer that ended the call (a success, a non-retryable status, or the last retryable one). */
export interface RawExchange {
  readonly method: string;
  /** Final URL (after redirects), secrets masked. */
  readonly url: string;
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  readonly attempts: number;
  /** Milliseconds from the call's start to its end. */
  readonly durationMs: number;
  /** True when the status is retryable but the budget (attempts, total time) ran out. */
  readonly retriesExhausted: boolean;
  /** Set when an earlier attempt of a create turned out to have landed (found by the invoice check). */
  readonly recovered?: Extract<CheckOutcome, { landed: true }>;
  /** A 5xx answer to a write that is not repeated: it may have been committed before the failure. */
  readonly outcomeUnknown?: boolean;
  /** With `outcomeUnknown`: how to find out whether the write landed. */
  readonly howToCheck?: string;
}

/** A successful answer, parsed with the contract. */
export interface ApiResponse<T = unknown> {
  readonly endpointId: EndpointId;
  readonly method: string;
  /** Final URL after same-origin redirects (secrets masked). */
  readonly url: string;
  readonly status: number;
  /** The spec's name of the status, e.g. `Created`. */
  readonly statusName: string;
  readonly meaning: string;
  readonly headers: IncomingHttpHeaders;
  /**
   * Body parsed with the endpoint's response schema (undefined for 204 / no body). When the only objection is
   * unknown properties, the JSON as received is returned (unknown fields tolerated).
   */
  readonly body: T;
  /** Body exactly as received (for a recovered create: the synthesised `{ "id": … }`). */
  readonly rawBody: string;
  /** Milliseconds from the call's start to its end, retries and backoff included. */
  readonly durationMs: number;
  readonly attempts: number;
  /**
   * Set when a create's answer was lost (network error, timeout, 5xx) but the invoice-number check found that it
   * had landed: `body` is then `{ id }` of the record found, and nothing was sent twice.
   */
  readonly recovered?: { readonly checkUrl: string; readonly record: unknown };
}
