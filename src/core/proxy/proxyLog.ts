import type { DiagnosisItem, Exchange } from '../exchange/types';
import { RequestLogEntry, type RawRequest, type RequestLog, type RequestLogLine } from '../requestLog/requestLog';
import type { ProxyEntryKind } from './proxyDiagnosis';

/**
 * Entries of `tpp proxy`'s log: the Local sandbox's request-log entry (../requestLog/requestLog.ts: masked, capped,
 * the token kept only as `Bearer [masked]`) with the environment it went to and its kind, so that the Integration
 * Log shows both logs the same way (docs/proxy.md).
 */

/** One line of `tpp proxy --log json`: the sandbox's line with `environment` and `kind`. */
export interface ProxyLogLine extends RequestLogLine {
  readonly environment: string;
  readonly kind: ProxyEntryKind;
}

/** One exchange the proxy forwarded (or answered itself when the upstream failed). */
export class ProxyLogEntry extends RequestLogEntry {
  /** Environment label (`sandbox`, `production`, …). */
  readonly environment: string;
  readonly kind: ProxyEntryKind;
  /** Why the application got no (or a cut) answer from the upstream, when so. */
  readonly problem?: string;
  /** Size of the whole answer in bytes (the raw text handed in is only its start). */
  private readonly responseBytes: number;

  constructor(raw: RawRequest, diagnosis: readonly DiagnosisItem[], nowMs: number, about: { environment: string; kind: ProxyEntryKind; problem?: string; responseBytes: number }) {
    super(raw, diagnosis, nowMs);
    this.environment = about.environment;
    this.kind = about.kind;
    this.problem = about.problem;
    this.responseBytes = about.responseBytes;
  }

  override line(): ProxyLogLine {
    // The sandbox's fields in the sandbox's order, environment and kind after the time (written out: a rest copy of
    // super.line() cost more than the rest of the line on the proxy's hot path).
    const diagnosis = this.diagnosis.map(({ rule, message }) => ({ rule, message }));
    return { time: this.time, environment: this.environment, kind: this.kind, method: this.method, path: this.path, status: this.status, ms: this.ms, partner: this.partner ?? null, diagnosis };
  }

  override exchange(): Exchange {
    const x = super.exchange();
    const response = x.response && x.response.body !== undefined ? { ...x.response, size: this.responseBytes, ...(this.responseBytes > Buffer.byteLength(x.response.body) ? { truncated: true } : {}) } : x.response;
    return { ...x, env: this.environment, source: 'proxy-log', ...(response ? { response } : {}), ...(this.problem ? { problem: this.problem } : {}) };
  }
}

/**
 * Adds entries to `log` in the order their answers ended, whatever order their diagnoses finish in: each exchange
 * takes a ticket when its answer ends, and an entry waits for the ones with earlier tickets. Work per entry is
 * constant; a diagnosis that never settles cannot happen (diagnoseProxied never throws and awaits no I/O).
 */
export class OrderedLog {
  private nextTicket = 0;
  private nextOut = 0;
  private readonly ready = new Map<number, ProxyLogEntry>();

  constructor(readonly log: RequestLog) {}

  /** A ticket for an answer that just ended. */
  take(): number {
    return this.nextTicket++;
  }

  /** Hands in the entry of `ticket`; adds it and every waiting successor to the log. */
  put(ticket: number, entry: ProxyLogEntry): void {
    if (ticket < this.nextOut || this.ready.has(ticket)) return; // handed in already: the first entry stands
    this.ready.set(ticket, entry);
    for (let e = this.ready.get(this.nextOut); e; e = this.ready.get(this.nextOut)) {
      this.ready.delete(this.nextOut);
      this.nextOut++;
      this.log.add(e);
    }
  }
}
