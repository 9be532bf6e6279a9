import type { EndpointId, EndpointResource } from '../contract/types';

/**
 * One HTTP exchange as the toolkit shows it: a request the extension sent (response view, history), or a request
 * any client sent to the Local sandbox (Integration Log, `tpp sandbox --log json`). Shared by the producers
 * (client, history, sandbox log) and the response view, so each renders the same way. Plain JSON: it crosses the
 * sandbox's process boundary and is stored in history. A request the toolkit sends is built once, by `exchangeOf`
 * (./exchangeOf.ts), with its endpoint and its description.
 *
 * Secrets: tokens in headers, URLs and bodies are masked before an exchange is built (`maskSecrets`); a full
 * token or a private key never appears in one (Developers' guide: Secrets).
 */

/** One finding that explains a failure (spec rule broken by the request, and the fix). */
export interface DiagnosisItem {
  /**
   * What was broken: a JWT claim or header field (`iat`, `aud`, `alg`, `iss`, `exp`, `typ`, `signature`…), or the
   * JSON path of a payload field (`TiresCovered`, `Registrations[0].invoiceNumber`), or a general rule
   * (`status`, `fault`, `conflict`, `not-found`).
   */
  readonly rule: string;
  /** One sentence: what is wrong and how to fix it. */
  readonly message: string;
  /** Diagnostic code when it comes from the payload checker (docs/diagnostics.md), e.g. `money-decimals`. */
  readonly code?: string;
  /** JSON path segments of the payload field, when `rule` names one (for links back to the payload file). */
  readonly path?: readonly (string | number)[];
  /** A record the request conflicts with or refers to (409: the existing registration). */
  readonly record?: { readonly kind: 'tire-protection' | 'motor-club' | 'registration'; readonly id: string; readonly label?: string; readonly invoiceNumber?: string };
  /** Outcome of a checklist rule (401: the JWT checklist lists passed and skipped rules too); absent = a problem. */
  readonly status?: 'pass' | 'fail' | 'skip';
}

/** The endpoint of an exchange, in the terms of the endpoint table (../shared/spec/partner-interface.md, Endpoints). */
export interface ExchangeEndpoint {
  /** Endpoint id, e.g. `createTireProtectionClaim`. */
  readonly id: EndpointId;
  /** Path parameters as sent, by name (`{ id: '65f…' }`); `{}` when the path has none. */
  readonly params: Readonly<Record<string, string>>;
  /** What the endpoint acts on, from the table's row (`registration`, `claim`, `shop`, …). */
  readonly resource: EndpointResource;
}

/** Headers as received or sent, names lower-case, values masked. */
export type ExchangeHeaders = Readonly<Record<string, string>>;

/** A request and its answer (or why there was none). Times ISO 8601 UTC, durations in milliseconds. */
export interface Exchange {
  /** Unique id (time-ordered). */
  readonly id: string;
  /** Environment id (`local`, `sandbox`, `production`). */
  readonly env: string;
  /**
   * Where it was seen: sent by the extension or `tpp send`, logged by the Local sandbox from any client, or logged by
   * `tpp proxy` in front of Sandbox or Production (docs/proxy.md).
   */
  readonly source: 'client' | 'sandbox-log' | 'proxy-log';
  /** ISO 8601 time the request started. */
  readonly time: string;
  /** What was done, e.g. "Send tire-protection-registration.json"; absent for logged requests. */
  readonly title?: string;
  /**
   * The contract endpoint when known: named by the producer, or (logged requests, history lines of an earlier
   * version, which kept only `endpointId`) matched from method and URL.
   */
  readonly endpoint?: ExchangeEndpoint;
  /** Partner ID (`iss`) of the request, when known. */
  readonly partner?: string;
  readonly request: {
    readonly method: string;
    /** Absolute URL (masked). */
    readonly url: string;
    readonly headers?: ExchangeHeaders;
    /** Body as sent (text, masked), absent without a body. */
    readonly body?: string;
    /** True when `body` was cut at the size cap (history keeps 64 KB of each body). */
    readonly truncated?: boolean;
  };
  /** Absent when no answer came. */
  readonly response?: {
    readonly status: number;
    readonly headers?: ExchangeHeaders;
    /** Body as received (text, masked; cut at the size cap, see `truncated`). */
    readonly body?: string;
    /** Size of the body as received, in bytes. */
    readonly size?: number;
    readonly truncated?: boolean;
  };
  /** Wall time, retries included, in milliseconds. */
  readonly durationMs: number;
  /** Attempts made (1 = no retry). */
  readonly attempts: number;
  /** Why there was no answer, or a contract problem of the answer (masked). */
  readonly problem?: string;
  /**
   * What went wrong and how to fix it, computed once by the producer (client: `describeExchange`, ./describe.ts;
   * Local sandbox and proxy: the JWT checklist or the payload diagnostics); the editor's send path adds what needs
   * the editor (401: the checklist of the token sent; 409: the conflicting record). Readers render it as it is.
   */
  readonly diagnosis?: readonly DiagnosisItem[];
  /**
   * Set when a create's answer was lost (5xx or timeout) but the client's duplicate check found the record it had
   * stored: `response` is then the record's `{ "id": … }` and nothing was sent twice. `checkUrl` is the read that
   * found it (masked).
   */
  readonly recovered?: { readonly checkUrl: string };
}
