import { diagnosePayload } from '../../core/diagnostics';
import { ENDPOINTS, schemaUri } from '../../core/contract';
import type { EndpointId } from '../../core/contract/types';
import type { DiagnosisItem, Exchange } from '../../core/exchange/types';
import { ENVIRONMENTS, EnvironmentId, isEnvironmentId } from '../../core/environments';
import type { ApiClients } from '../services/apiClients';
import type { JwtService } from '../services/jwtService';
import { endpointOfExchange, kindOfRequest, paramsOfExchange, requestJson } from '../../core/exchange/endpoint';

/** What the diagnosis uses: the client (conflict lookups, the last token sent) and the JWT inspection. */
export interface DiagnoseServices {
  readonly api: Pick<ApiClients, 'send' | 'lastToken'>;
  readonly jwt: Pick<JwtService, 'inspect'>;
}

/**
 * What went wrong with an exchange and how to fix it (../shared/spec/partner-interface.md, Errors; Authentication):
 * - 400: the server's message and field issues, plus the toolkit's payload diagnostics run on the body that was sent;
 * - 401: the JWT checklist (the same as Inspect JWT) of the last token sent to the environment (kept in memory only);
 * - 409: what the request conflicts with (a registration create: the registration with that invoice and store
 *   number; a claim or cancellation: its registration), each with the record to open;
 * - no answer: the problem (refused, unreachable, timed out) and what to do.
 * Items the producer already attached (`exchange.diagnosis`) come first. Never throws: a failing lookup is left out.
 */
export async function diagnoseExchange(services: DiagnoseServices, x: Exchange): Promise<DiagnosisItem[]> {
  const out: DiagnosisItem[] = [...(x.diagnosis ?? [])];
  const status = x.response?.status;
  const env = isEnvironmentId(x.env) ? x.env : undefined;
  const endpointId = endpointOfExchange(x);
  if (status === undefined) out.push(...noAnswer(x));
  else if (status === 400) out.push(...serverIssues(x), ...payloadProblems(x, endpointId));
  else if (status === 401 && env && x.source === 'client' && !out.some((d) => d.status)) out.push(...(await jwtChecklist(services, env)));
  else if (status === 409 && env && endpointId) {
    // The conflict once: the record found says what the server's message says, with a button to open it (the
    // server's own words stay in the response body below).
    const found = await conflicts(services, env, x, endpointId);
    out.push(...(found.length ? found : serverIssues(x)));
  }
  return out;
}

/** JSON of the answer's body, `undefined` when not JSON. */
function responseJson(x: Exchange): unknown {
  try {
    return x.response?.body ? (JSON.parse(x.response.body) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** `tires[0].dot` or `/tires/0/dot` → `['tires', 0, 'dot']`. */
export function parseIssuePath(p: string): (string | number)[] {
  return p
    .split(/[./[\]]+/)
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The server's message and its field issues (`issues: [{ path, message }]`, the Local sandbox's error body). */
function serverIssues(x: Exchange): DiagnosisItem[] {
  const body = responseJson(x) as { message?: unknown; error?: unknown; issues?: unknown } | undefined;
  if (!body || typeof body !== 'object') return x.response?.body ? [{ rule: 'status', message: `Server: ${x.response.body.slice(0, 300)}` }] : [];
  const out: DiagnosisItem[] = [];
  const issues = Array.isArray(body.issues) ? (body.issues as { path?: unknown; message?: unknown }[]) : [];
  const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : undefined;
  if (message && !issues.some((i) => i.message === message)) out.push({ rule: 'status', message: `Server: ${message}` });
  for (const i of issues) {
    if (typeof i.message !== 'string') continue;
    const path = typeof i.path === 'string' ? parseIssuePath(i.path) : [];
    out.push({ rule: path.length ? path.join('.') : 'status', message: `Server: ${i.message}`, ...(path.length ? { path } : {}) });
  }
  return out;
}

/** The toolkit's payload diagnostics on the body that was sent (errors and warnings, each at its field). */
function payloadProblems(x: Exchange, endpointId: EndpointId | undefined): DiagnosisItem[] {
  const body = requestJson(x);
  if (!endpointId || body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const kind = kindOfRequest(endpointId, body);
  if (!kind) return [];
  const text = JSON.stringify({ $schema: schemaUri(kind), ...body }, null, 2);
  const found = diagnosePayload(text, { kind })?.problems ?? [];
  return found
    .filter((p) => p.path && p.path[0] !== '$schema')
    .map((p) => ({ rule: p.path?.length ? p.path.join('.') : 'payload', message: `${p.severity === 'error' ? 'Error' : 'Warning'}: ${p.message}`, code: p.code, ...(p.path?.length ? { path: [...p.path] } : {}) }));
}

/** The JWT checklist of the last token sent to `env`, failing rules first. */
async function jwtChecklist(services: DiagnoseServices, env: EnvironmentId): Promise<DiagnosisItem[]> {
  const token = services.api.lastToken(env);
  if (!token) return [{ rule: 'token', message: 'The token that was sent is no longer in memory (tokens are never stored): run Inspect JWT… to check a fresh one.' }];
  try {
    const inspection = await services.jwt.inspect(env, token);
    const order = { fail: 0, skip: 1, pass: 2 } as const;
    return [...inspection.checks]
      .sort((a, b) => order[a.status] - order[b.status])
      .map((c) => ({ rule: c.id, message: `${c.rule}${c.detail ? ` — ${c.detail}` : ''}`, status: c.status }));
  } catch (err) {
    return [{ rule: 'token', message: `The token could not be inspected: ${err instanceof Error ? err.message : String(err)}` }];
  }
}

/** The records a 409 conflicts with. */
async function conflicts(services: DiagnoseServices, env: EnvironmentId, x: Exchange, endpointId: EndpointId): Promise<DiagnosisItem[]> {
  const body = (requestJson(x) ?? {}) as Record<string, unknown>;
  const params = paramsOfExchange(x, endpointId);
  const list = async (id: 'listTireProtectionRegistrations' | 'listMotorClubRegistrations', query: Record<string, string>) => {
    try {
      const r = await services.api.send(env, id, {}, undefined, { query, quiet: true });
      const results = (r.response.body as { results?: unknown } | undefined)?.results;
      const rows = Array.isArray(results) ? (results as unknown[]) : [];
      return rows.filter((row): row is Record<string, unknown> => !!row && typeof row === 'object' && typeof (row as { _id?: unknown })._id === 'string');
    } catch {
      return [];
    }
  };
  const invoice = typeof body.invoiceNumber === 'string' ? body.invoiceNumber : undefined;
  const store = typeof body.storeNumber === 'string' ? body.storeNumber : undefined;
  if (endpointId === 'createTireProtectionRegistration' && invoice) {
    const rows = await list('listTireProtectionRegistrations', { invoiceNumber: invoice, ...(store ? { storeNumber: store } : {}) });
    return rows.map((r) => ({
      rule: 'conflict',
      message: `A registration with invoice ${invoice}${store ? ` and store ${store}` : ''} already exists (${String(r._id)}).`,
      record: { kind: 'tire-protection', id: String(r._id), label: `Invoice ${invoice}${store ? ` · store ${store}` : ''}`, invoiceNumber: invoice },
    }));
  }
  if (endpointId === 'createMotorClubRegistration' && invoice) {
    const rows = await list('listMotorClubRegistrations', { invoiceNumber: invoice });
    return rows.map((r) => ({ rule: 'conflict', message: `A motor-club registration with invoice ${invoice} already exists (${String(r._id)}).`, record: { kind: 'motor-club', id: String(r._id), label: `Invoice ${invoice}`, invoiceNumber: invoice } }));
  }
  if (params.id) {
    const kind = ENDPOINTS[endpointId].product === 'motor-club' ? 'motor-club' : 'tire-protection';
    return [{ rule: 'conflict', message: `The request conflicts with the state of registration ${params.id} (cancelled, expired or no tires left).`, record: { kind, id: params.id, label: `Registration ${params.id}` } }];
  }
  return [];
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
