import type { DiagnosisItem, Exchange } from '../exchange/types';
import { maskSecrets } from '../log/mask';
import { formatId, nextIdCount } from '../exchange/id';
import { maskHeaders } from '../log/mask';
import { cut, maskQuery } from './requestLogMask';

/**
 * One entry of the Local sandbox's request log (./requestLog.ts): the cheap fields of an answered request, set when
 * its answer has gone out, and its whole {@link Exchange}, masked and capped, built only when asked for.
 */

/** Characters of a request body kept in an entry (the rest is cut; `truncated` is not set for requests). */
export const REQUEST_BODY_CAP = 32 * 1024;
/** Characters of a response body kept in an entry (`response.truncated` says when cut). */
export const RESPONSE_BODY_CAP = 16 * 1024;
/** What an entry holds besides its URL and bodies (fields, both header objects), in {@link RequestLogEntry.bytes}. */
const ENTRY_OVERHEAD = 1024;

/**
 * A fault the sandbox injected in place of a request's answer (docs/testing-your-application.md, Faults; spec:
 * Errors): scheduled through `POST /__tpp/faults` (`by: 'schedule'`, with the schedule entry's `id`) or drawn by
 * `--fault-rate` (`by: 'fault-rate'`). `fault` is the status answered, or `timeout` / `close` when no answer was sent.
 */
export interface InjectedFault {
  readonly by: 'schedule' | 'fault-rate';
  readonly id?: number;
  /** A status; no answer (`timeout`, `close`); a garbled real answer (`truncated-json`, `wrong-content-type`); or `delay`: the real answer, `delayMs` late. */
  readonly fault: number | 'timeout' | 'close' | 'truncated-json' | 'wrong-content-type' | 'delay';
  /** Milliseconds the answer was held back first (a scheduled `delayMs`). */
  readonly delayMs?: number;
  /** `before`: nothing was processed; `after-commit`: the write was stored and only its answer replaced. */
  readonly when: 'before' | 'after-commit';
  /** The client closed the connection while the sandbox held the request (its own timeout): no answer was sent. */
  readonly clientClosed?: true;
}

/** What the sandbox hands the log about one answered request (raw: masked when the exchange is built). */
export interface RawRequest {
  readonly method: string;
  /** Absolute URL as called (origin from the Host header, path and query). */
  readonly url: string;
  /** Path and query as received. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Request body text, when one was read (absent for a rejected token: the body is never read then). */
  readonly body?: string;
  /** Status answered; 0 when no answer was sent (a `timeout` or `close` fault). */
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, unknown>>;
  /** Response body text (JSON), when there was one. */
  readonly responseBody?: string;
  /** Milliseconds from the request's arrival to the end of the answer. */
  readonly ms: number;
  /**
   * The request's arrival on the server's clock, ms since epoch (the sandbox's clock: a frozen clock's instant);
   * absent: the entry's time minus {@link ms}.
   */
  readonly atMs?: number;
  /** Partner ID: the verified `iss`, or for a refused token the `iss` it claimed, when readable. */
  readonly partner?: string;
  /** The fault that answered it, when one did. */
  readonly fault?: InjectedFault;
}

/**
 * One line of `tpp sandbox --log json`; the control API's journal and `tpp proxy --log json` use the same field names.
 */
export interface RequestLogLine {
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  readonly partner: string | null;
  readonly diagnosis: readonly { readonly rule: string; readonly message: string }[];
  /** Present when an injected fault answered the request (status 0: none was sent). */
  readonly fault?: InjectedFault;
}

/** `T` with its properties writable, for an object filled in place before it is handed out. */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

const PID36 = process.pid.toString(36);

/** One request the sandbox answered. */
export class RequestLogEntry {
  /** Milliseconds and per-process counter of {@link id}, formatted only when read (most entries never are). */
  private readonly idMs: number;
  private readonly idCount: number;
  /** ISO 8601 UTC time the request arrived. */
  readonly time: string;
  readonly method: string;
  /** Path and query as received, secrets in the query masked. */
  readonly path: string;
  readonly status: number;
  /** Milliseconds, one decimal. */
  readonly ms: number;
  readonly partner: string | undefined;
  /** The fault that answered the request, when one did. */
  readonly fault: InjectedFault | undefined;
  private readonly raw: RawRequest;
  /** Bytes of an answer longer than {@link RESPONSE_BODY_CAP}, whose text is kept cut. */
  private readonly cutAnswerBytes: number | undefined;
  /** Estimate of the memory this entry holds (its URL, bodies, and a fixed allowance for the rest), in bytes. */
  readonly bytes: number;

  constructor(
    raw: RawRequest,
    /** What went wrong and how to fix it; empty for a success. */
    readonly diagnosis: readonly DiagnosisItem[],
    nowMs: number,
  ) {
    // Only what the exchange shows is held: the log may keep 10,000 entries (the control API's journal), and a
    // body may be 1 MiB, an answer 16 MiB.
    const answer = raw.responseBody;
    this.cutAnswerBytes = answer !== undefined && answer.length > RESPONSE_BODY_CAP ? Buffer.byteLength(answer) : undefined;
    this.raw =
      (raw.body?.length ?? 0) > REQUEST_BODY_CAP || this.cutAnswerBytes !== undefined
        ? { ...raw, body: raw.body === undefined ? undefined : cut(raw.body, REQUEST_BODY_CAP), responseBody: answer === undefined ? undefined : cut(answer, RESPONSE_BODY_CAP) }
        : raw;
    this.bytes = ENTRY_OVERHEAD + raw.url.length + (this.raw.body?.length ?? 0) + (this.raw.responseBody?.length ?? 0);
    this.idMs = nowMs;
    this.idCount = nextIdCount();
    this.time = new Date(raw.atMs ?? nowMs - raw.ms).toISOString();
    this.method = raw.method;
    this.path = /[?=]|eyJ|-----/.test(raw.path) ? maskQuery(raw.path) : raw.path;
    this.status = raw.status;
    this.ms = Math.round(raw.ms * 10) / 10;
    this.partner = raw.partner;
    this.fault = raw.fault;
  }

  /** Time-ordered unique id: milliseconds in base 36, then a per-process counter, then the process. */
  get id(): string {
    return formatId(this.idMs, this.idCount, PID36);
  }

  /** The `--log json` line of this entry. */
  line(): RequestLogLine {
    const line: RequestLogLine = { time: this.time, method: this.method, path: this.path, status: this.status, ms: this.ms, partner: this.partner ?? null, diagnosis: this.diagnosis.map(({ rule, message }) => ({ rule, message })) };
    return this.fault ? { ...line, fault: this.fault } : line;
  }

  /** The request body as {@link exchange} shows it (masked, cut at its cap), without building the whole exchange. */
  requestBody(): string | undefined {
    return this.raw.body === undefined ? undefined : maskSecrets(this.raw.body);
  }

  /**
   * The whole exchange (source `sandbox-log`, environment `local`), masked and capped, built anew on each call: the
   * editor's child asks once per entry and the journal only when read, and an exchange kept in each of 10,000 entries
   * was old-generation garbage on every request (a cached read with the editor's request log cost 0.01 ms more).
   */
  exchange(): Exchange {
    const raw = this.raw;
    const request: Writable<Exchange['request']> = { method: raw.method, url: maskQuery(raw.url), headers: maskHeaders(raw.headers) };
    // The constructor already cut both bodies to their caps.
    const body = this.requestBody();
    if (body !== undefined) request.body = body;
    const response: Writable<NonNullable<Exchange['response']>> = { status: raw.status, headers: maskHeaders(raw.responseHeaders) };
    const resText = raw.responseBody;
    if (resText !== undefined) {
      response.body = maskSecrets(resText);
      response.size = this.cutAnswerBytes ?? Buffer.byteLength(resText);
      if (this.cutAnswerBytes !== undefined) response.truncated = true;
    }
    // Filled in the order the fields were always written (the JSON of an exchange keeps it).
    const x = { id: this.id, env: 'local', source: 'sandbox-log', time: this.time } as Writable<Exchange>;
    if (this.partner) x.partner = this.partner;
    x.request = request;
    // No answer was sent (a timeout or close fault): an exchange without a response, as for a client's network error.
    if (raw.status > 0) x.response = response;
    else x.problem = 'No answer: the connection was closed by an injected fault';
    x.durationMs = this.ms;
    x.attempts = 1;
    if (this.diagnosis.length) x.diagnosis = this.diagnosis;
    return x;
  }
}
