import { ENDPOINTS } from '../../core/contract';
import type { DiagnosisItem, Exchange, ExchangeEndpoint } from '../../core/exchange/types';
import { EnvironmentId, isEnvironmentId } from '../../core/environments';
import type { ApiClients } from '../services/apiClients';
import type { JwtService } from '../services/jwtService';
import { requestJson } from '../../core/exchange/endpoint';

/** What the diagnosis uses: the client (conflict lookups, the last token sent) and the JWT inspection. */
export interface DiagnoseServices {
  readonly api: Pick<ApiClients, 'send' | 'lastToken'>;
  readonly jwt: Pick<JwtService, 'inspect'>;
}

/**
 * What went wrong with an exchange and how to fix it (../shared/spec/partner-interface.md, Errors; Authentication):
 * the description its producer computed (`exchange.diagnosis`, completed by core/exchange/complete.ts for a request
 * the toolkit sent that arrives without one; the sandbox's or proxy's own for a logged one), and what only the
 * editor can add:
 * - 401 of a request the toolkit sent: the JWT checklist (the same as Inspect JWT) of the last token sent to the
 *   environment (kept in memory only);
 * - 409: what the request conflicts with (a registration create: the registration with that invoice and store
 *   number; a claim or cancellation: its registration), each with the record to open, in place of the server's
 *   message (the server's own words stay in the response body).
 * Never throws: a failing lookup is left out.
 */
export async function diagnoseExchange(services: DiagnoseServices, x: Exchange): Promise<DiagnosisItem[]> {
  const out: DiagnosisItem[] = [...(x.diagnosis ?? [])];
  const status = x.response?.status;
  const env = isEnvironmentId(x.env) ? x.env : undefined;
  if (status === 401 && env && x.source === 'client' && !out.some((d) => d.status)) return [...out, ...(await jwtChecklist(services, env))];
  const endpoint = status === 409 && env ? x.endpoint : undefined;
  if (env && endpoint) {
    const found = await conflicts(services, env, endpoint, requestJson(x));
    if (found.length) return [...out.filter((d) => d.rule !== 'status'), ...found];
  }
  return out;
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

/** The records a 409 to a request of `endpoint` with the JSON `sent` conflicts with. */
async function conflicts(services: DiagnoseServices, env: EnvironmentId, endpoint: ExchangeEndpoint, sent: unknown): Promise<DiagnosisItem[]> {
  const body = (sent && typeof sent === 'object' ? sent : {}) as Record<string, unknown>;
  const { id: endpointId, params } = endpoint;
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
