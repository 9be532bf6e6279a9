import { diagnosePayload } from '../diagnostics';
import { schemaUri } from '../contract';
import { ENVIRONMENTS, isEnvironmentId } from '../environments';
import { kindOfRequest, requestJson } from './endpoint';
import type { DiagnosisItem, Exchange } from './types';

/**
 * What went wrong with a request the toolkit sent, and how to fix it (../shared/spec/partner-interface.md, Errors),
 * computed once when its {@link Exchange} is built (./exchangeOf.ts) and read as `exchange.diagnosis` by the response
 * view, the history and `tpp send`:
 * - no answer: the problem (refused, unreachable, timed out, closed) and what to do;
 * - 400: one line per problem, saying which side found it: `Server and editor: …` when the server's field issue and
 *   the toolkit's payload diagnostic (of the body sent) name the same field, else `Server: …` or `Editor: …`; the
 *   server's message is left out when it only sums up its field issues;
 * - 409: the server's message (the response view puts the conflicting record in its place when it finds one).
 * Never throws.
 */
export function describeExchange(x: Exchange): DiagnosisItem[] {
  const status = x.response?.status;
  if (status === undefined) return noAnswer(x);
  if (status === 400) return onePerProblem(serverIssues(x), payloadProblems(x));
  if (status === 409) return serverIssues(x);
  return [];
}

/** `tires[0].dot` or `/tires/0/dot` → `['tires', 0, 'dot']`. */
export function parseIssuePath(p: string): (string | number)[] {
  return p
    .split(/[./[\]]+/)
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** JSON of the answer's body, `undefined` when not JSON. */
function responseJson(x: Exchange): unknown {
  try {
    return x.response?.body ? (JSON.parse(x.response.body) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** The server's message and its field issues (`issues: [{ path, message }]`, the Local sandbox's error body). */
function serverIssues(x: Exchange): DiagnosisItem[] {
  const body = responseJson(x) as { message?: unknown; error?: unknown; issues?: unknown } | undefined;
  if (!body || typeof body !== 'object') return x.response?.body ? [{ rule: 'status', message: `Server: ${x.response.body.slice(0, 300)}` }] : [];
  const out: DiagnosisItem[] = [];
  const issues = Array.isArray(body.issues) ? (body.issues as { path?: unknown; message?: unknown }[]) : [];
  const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : undefined;
  // A message that only sums up the issues ("Invalid body: a: …; b: …", the Local sandbox's) would list each twice.
  const summary = issues.length > 0 && issues.every((i) => typeof i.message === 'string' && message?.includes(i.message));
  if (message && !summary && !issues.some((i) => i.message === message)) out.push({ rule: 'status', message: `Server: ${message}` });
  for (const i of issues) {
    if (typeof i.message !== 'string') continue;
    const path = typeof i.path === 'string' ? parseIssuePath(i.path) : [];
    out.push({ rule: path.length ? path.join('.') : 'status', message: `Server: ${i.message}`, ...(path.length ? { path } : {}) });
  }
  return out;
}

/**
 * The server's items and the editor's as one line per problem: an editor item at the same field as a server item
 * takes its place, marked as found by both; the editor's others are marked as its own.
 */
function onePerProblem(server: readonly DiagnosisItem[], editor: readonly DiagnosisItem[]): DiagnosisItem[] {
  const at = (d: DiagnosisItem) => (d.path?.length ? JSON.stringify(d.path) : undefined);
  const matched = new Set<DiagnosisItem>();
  const mine = editor.map((e) => {
    const twin = server.find((s) => !matched.has(s) && at(s) !== undefined && at(s) === at(e));
    if (twin) matched.add(twin);
    return { ...e, message: `${twin ? 'Server and editor' : 'Editor'}: ${e.message}` };
  });
  return [...server.filter((s) => !matched.has(s)), ...mine];
}

/** The toolkit's payload diagnostics (docs/diagnostics.md) on the body that was sent, each at its field. */
function payloadProblems(x: Exchange): DiagnosisItem[] {
  const body = requestJson(x);
  const endpointId = x.endpoint?.id;
  if (!endpointId || body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const kind = kindOfRequest(endpointId, body);
  if (!kind) return [];
  const text = JSON.stringify({ $schema: schemaUri(kind), ...body }, null, 2);
  const found = diagnosePayload(text, { kind })?.problems ?? [];
  return found
    .filter((p) => p.path && p.path[0] !== '$schema')
    .map((p) => ({ rule: p.path?.length ? p.path.join('.') : 'payload', message: p.severity === 'error' ? p.message : `${p.message} (warning)`, code: p.code, ...(p.path?.length ? { path: [...p.path] } : {}) }));
}

/** Why no answer came and what to do. */
function noAnswer(x: Exchange): DiagnosisItem[] {
  const p = x.problem ?? 'No answer';
  const env = isEnvironmentId(x.env) ? ENVIRONMENTS[x.env].label : x.env;
  let origin = x.request.url;
  try {
    origin = new URL(x.request.url).origin;
  } catch {
    // keep the URL
  }
  const advice = /ECONNREFUSED|refused/i.test(p)
    ? `Nothing accepts connections at ${origin}: check ${env}'s base address (Configure Environment…), or that the server is running.`
    : /timed? ?out|TIMEOUT/i.test(p)
      ? `The server did not answer in time: retry later, or raise tpp.request.timeoutMs. A create may have been stored: check before sending it again.`
      : /ENOTFOUND|EAI_AGAIN|getaddrinfo/i.test(p)
        ? `The host of ${origin} cannot be found: check the base address and your network or VPN.`
        : /certificate|CERT|TLS|SSL/i.test(p)
          ? `The TLS connection to ${origin} failed: check the address (https) and any proxy that intercepts TLS.`
          : /ECONNRESET|socket|closed/i.test(p)
            ? 'The connection closed before an answer came: retry; a create may have been stored, check before sending it again.'
            : 'Check the base address and your connection, then retry.';
  return [{ rule: 'network', message: `${p}. ${advice}` }];
}
