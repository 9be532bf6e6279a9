/**
 * The request-log entry of one exchange through `tpp proxy` (docs/proxy.md): what was sent and answered, its
 * problem, and its diagnosis (proxyDiagnosis.ts), put into the log in the order the answers ended (proxyLog.ts).
 */
import type { KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { matchEndpoints } from '../contract';
import { decodeJsonPart } from '../jwt/inspectDecode';
import { REQUEST_BODY_CAP, RESPONSE_BODY_CAP, type RawRequest } from '../requestLog/requestLog';
import { cut } from '../requestLog/requestLogMask';
import { bodyText, KEEP_BYTES, type Forwarded } from './forward';
import { diagnoseAnswer, diagnosedFromRequest, diagnoseProxied, undiagnosed, type ProxyEntryKind } from './proxyDiagnosis';
import { ProxyLogEntry, type OrderedLog } from './proxyLog';
import type { Route } from './targets';

/** What every entry of one proxy shares: where it listens, what it forwards to and checks with, and the log. */
export interface EntryContext {
  readonly host: string;
  /** The port it listens on (0 until it does). */
  port: number;
  readonly environment: string;
  readonly timeoutMs: number;
  readonly keys: ReadonlyMap<string, KeyObject>;
  readonly ordered: OrderedLog;
  readonly missingKeyHint?: string;
}

/** One exchange whose answer has ended: its place in the log's order (`ticket`), end time (ms since the epoch) and duration. */
export interface EndedExchange {
  readonly ticket: number;
  readonly end: number;
  readonly ms: number;
  readonly req: IncomingMessage;
  readonly route: Route | undefined;
  readonly f: Forwarded;
  readonly ownProblem?: string;
}

/** What the application is told when the upstream failed before answering (a 502 body), or the entry's problem. */
export function failureText(route: Route, f: NonNullable<Forwarded['failure']>, timeoutMs: number, bytes: number): string {
  const where = new URL(route.url).origin;
  if (f.midBody) return `tpp proxy: ${where} closed the connection after ${bytes} bytes of its answer (${f.code}); the application got a cut answer and its connection was closed.`;
  if (/TIMEOUT/i.test(f.code)) return `tpp proxy: ${where} did not answer within ${timeoutMs / 1000} s (${f.code}); nothing was resent.`;
  return `tpp proxy: ${where} did not answer (${f.code}); nothing was resent. Check the --target address and your network.`;
}

/**
 * The `iss` a token claims, when readable (never the token); decodes the claims part only. Every exchange's line
 * names it, so it is found with indexOf rather than a regular expression over the whole header.
 */
function claimedIss(authorization: string | undefined): string | undefined {
  if (authorization === undefined || !/^Bearer\s/i.test(authorization)) return undefined;
  const dot = authorization.indexOf('.');
  if (dot < 0) return undefined;
  const end = authorization.indexOf('.', dot + 1);
  const iss = decodeJsonPart(authorization.slice(dot + 1, end < 0 ? undefined : end).trim())?.iss;
  return typeof iss === 'string' ? iss.slice(0, 200) : undefined;
}

/**
 * Builds the exchange's entry and puts it into the log, in its place in the order of the answers. A success (and
 * 429, 5xx) is checked for drift at once; only a 4xx awaits its diagnosis (the JWT checklist, the payload
 * diagnostics), and the entries after it wait for it in OrderedLog, not the answers.
 */
export function buildEntry(ctx: EntryContext, exchange: EndedExchange): void {
const { ticket, end, ms, req, route, f, ownProblem } = exchange;
const { host, port, environment, timeoutMs, keys, ordered } = ctx;
  const reqText = f.requestBody?.toString('utf8');
  const resText = bodyText(f.responseBody, f.responseHeaders['content-encoding'], f.responseBytes);
  const authorization = req.headers.authorization;
  const raw: RawRequest = {
    method: req.method ?? 'GET',
    url: route?.url ?? `http://${host}:${port}${req.url ?? ''}`,
    path: req.url ?? '',
    headers: req.headers,
    // Only what an entry shows is held until its exchange is built (requestLog.ts caps), as a copy: a slice would keep
    // the whole body alive; the diagnosis reads all.
    ...(reqText !== undefined ? { body: cut(reqText, REQUEST_BODY_CAP) } : {}),
    status: f.status,
    responseHeaders: f.responseHeaders,
    ...(resText !== undefined ? { responseBody: cut(resText, RESPONSE_BODY_CAP + 1) } : {}),
    ms,
    partner: claimedIss(authorization),
  };
  let problem = ownProblem;
  if (f.failure && f.failure.code !== 'BODY_TOO_LARGE' && route) problem = failureText(route, f.failure, timeoutMs, f.responseBytes);
  if (f.clientGone && route) problem = `tpp proxy: the application closed its connection before the answer from ${new URL(route.url).origin} ended; the request there was cancelled (not resent).`;
  const put = ({ kind, diagnosis }: { kind: ProxyEntryKind; diagnosis: ProxyLogEntry['diagnosis'] }): void => {
    if (route && f.responseBytes > KEEP_BYTES) diagnosis = [...diagnosis, { rule: 'size', message: `The answer was ${(f.responseBytes / 1048576).toFixed(1)} MB: the proxy forwarded all of it, but checks only answers up to ${KEEP_BYTES / 1048576} MB against the contract (the toolkit's own client reads at most 16 MB).` }];
    if (f.failure?.midBody) kind = 'proxy-error';
    if (problem) diagnosis = [{ rule: 'upstream', message: problem }, ...diagnosis];
    ordered.put(ticket, new ProxyLogEntry(raw, diagnosis, end, { environment, kind, problem, responseBytes: f.responseBytes }));
  };
  if (!route || (f.failure && !f.failure.midBody)) return put({ kind: 'proxy-error', diagnosis: [] });
  const matches = matchEndpoints(raw.method, route.relPath).filter((m) => m.def.base === route.base);
  const group = matches.map((m) => m.def);
  if (!diagnosedFromRequest(f.status)) return put(diagnoseAnswer({ status: f.status, group, responseBody: resText }));
  void diagnoseProxied({ status: f.status, method: raw.method, route, group, params: matches[0]?.params ?? {}, authorization, userAgent: req.headers['user-agent'], body: reqText, responseBody: resText, nowSeconds: Math.floor(end / 1000), keys, proxyPort: port, missingKeyHint: ctx.missingKeyHint })
    .then(put)
    .catch((err: unknown) => put({ kind: 'request', diagnosis: [undiagnosed(f.status, err)] }));
}
