import { ENDPOINTS } from '../../core/contract';
import type { DiagnosisItem, Exchange, ExchangeEndpoint } from '../../core/exchange/types';
import { EnvironmentId, isEnvironmentId } from '../../core/environments';
import { requestJson } from '../../core/exchange/endpoint';
import type { JwtInspection } from '../../core/jwt/inspect';

/** The list endpoints a 409's lookup reads (spec: Tire-protection registrations, Motor-club registrations). */
export type ConflictListId = 'listTireProtectionRegistrations' | 'listMotorClubRegistrations';

/** The reads of one registration a 409's lookup makes (spec: Tire-protection registrations, Motor-club registrations). */
export type ConflictReadId = 'getTireProtectionRegistration' | 'getMotorClubRegistration';

/** What the editor's part of a diagnosis reads: quiet requests (the 409 lookup) and the JWT checklist. */
export interface EditorDiagnosisReads {
  /** One list request to `env` kept out of the history; resolves to the answer's body. */
  readonly list: (env: EnvironmentId, id: ConflictListId, query: Record<string, string>) => Promise<unknown>;
  /** One read of registration `id` in `env`, kept out of the history; resolves to the answer's body. */
  readonly read: (env: EnvironmentId, id: ConflictReadId, registrationId: string) => Promise<unknown>;
  /** The checklist of `token` against `env` (JwtService.inspect). */
  readonly inspect: (env: EnvironmentId, token: string) => Promise<JwtInspection>;
}

/**
 * `x` with what only the editor can add to its description (../shared/spec/partner-interface.md, Errors;
 * Authentication), added by the send path as the request is sent, so the response view renders the exchange as it is:
 * - 401 of a request the toolkit sent: the JWT checklist (the same as Inspect JWT) of `token`, the token sent
 *   (memory only: it is never stored; the checklist holds no part of it), failing rules first;
 * - 409: what the request conflicts with (a registration create: the registration with that invoice and store
 *   number, read by one list request; a claim or cancellation: its registration, read once for its invoice number,
 *   the name the rest of the editor gives it), each with the record to open, in place of the server's message (the
 *   server's own words stay in the response body).
 * Returns `x` itself when there is nothing to add. Never throws: a failing lookup is left out.
 */
export async function withEditorDiagnosis(reads: EditorDiagnosisReads, x: Exchange, token: string | undefined): Promise<Exchange> {
  const out: DiagnosisItem[] = [...(x.diagnosis ?? [])];
  const status = x.response?.status;
  const env = isEnvironmentId(x.env) ? x.env : undefined;
  if (status === 401 && env && x.source === 'client' && !out.some((d) => d.status)) return { ...x, diagnosis: [...out, ...(await jwtChecklist(reads, env, token))] };
  const endpoint = status === 409 && env ? x.endpoint : undefined;
  if (!env || !endpoint) return x;
  const found = await conflicts(reads, env, endpoint, requestJson(x));
  // The looked-up records take the place of the server's words: its status line, and a conflict it named without a record.
  return found.length ? { ...x, diagnosis: [...out.filter((d) => d.rule !== 'status' && !(d.rule === 'conflict' && !d.record)), ...found] } : x;
}

/** The JWT checklist of `token`, failing rules first. */
async function jwtChecklist(reads: EditorDiagnosisReads, env: EnvironmentId, token: string | undefined): Promise<DiagnosisItem[]> {
  if (!token) return [{ rule: 'token', message: 'The token that was sent is no longer in memory (tokens are never stored): run Inspect JWT… to check a fresh one.' }];
  try {
    const inspection = await reads.inspect(env, token);
    const order = { fail: 0, skip: 1, pass: 2 } as const;
    return [...inspection.checks]
      .sort((a, b) => order[a.status] - order[b.status])
      .map((c) => ({ rule: c.id, message: `${c.rule}${c.detail ? ` — ${c.detail}` : ''}`, status: c.status }));
  } catch (err) {
    return [{ rule: 'token', message: `The token could not be inspected: ${err instanceof Error ? err.message : String(err)}` }];
  }
}

/** The registrations (rows with an `_id`) of one list request; none when it fails. */
async function listRows(reads: EditorDiagnosisReads, env: EnvironmentId, id: ConflictListId, query: Record<string, string>): Promise<Record<string, unknown>[]> {
  try {
    const results = ((await reads.list(env, id, query)) as { results?: unknown } | undefined)?.results;
    const rows = Array.isArray(results) ? (results as unknown[]) : [];
    return rows.filter((row): row is Record<string, unknown> => !!row && typeof row === 'object' && typeof (row as { _id?: unknown })._id === 'string');
  } catch {
    return [];
  }
}

/** The records a 409 to a request of `endpoint` with the JSON `sent` conflicts with. */
async function conflicts(reads: EditorDiagnosisReads, env: EnvironmentId, endpoint: ExchangeEndpoint, sent: unknown): Promise<DiagnosisItem[]> {
  const body = (sent && typeof sent === 'object' ? sent : {}) as Record<string, unknown>;
  const { id: endpointId, params } = endpoint;
  const invoice = typeof body.invoiceNumber === 'string' ? body.invoiceNumber : undefined;
  const store = typeof body.storeNumber === 'string' ? body.storeNumber : undefined;
  if (endpointId === 'createTireProtectionRegistration' && invoice) {
    const rows = await listRows(reads, env, 'listTireProtectionRegistrations', { invoiceNumber: invoice, ...(store ? { storeNumber: store } : {}) });
    return rows.map((r) => ({
      rule: 'conflict',
      message: `A registration with invoice ${invoice}${store ? ` and store ${store}` : ''} already exists (${String(r._id)}).`,
      record: { kind: 'tire-protection', id: String(r._id), label: `Invoice ${invoice}${store ? ` · store ${store}` : ''}`, invoiceNumber: invoice },
    }));
  }
  if (endpointId === 'createMotorClubRegistration' && invoice) {
    const rows = await listRows(reads, env, 'listMotorClubRegistrations', { invoiceNumber: invoice });
    return rows.map((r) => ({ rule: 'conflict', message: `A motor-club registration with invoice ${invoice} already exists (${String(r._id)}).`, record: { kind: 'motor-club', id: String(r._id), label: `Invoice ${invoice}`, invoiceNumber: invoice } }));
  }
  if (params.id) return [await stateConflict(reads, env, ENDPOINTS[endpointId].product === 'motor-club' ? 'motor-club' : 'tire-protection', params.id)];
  return [];
}

/**
 * A claim or cancellation refused by the state of registration `id`: named by its invoice number, as the tree, the
 * pickers and a create's conflict name it, with its cancellation date when it is cancelled (one quiet read; by its id
 * when that read fails).
 */
async function stateConflict(reads: EditorDiagnosisReads, env: EnvironmentId, kind: 'tire-protection' | 'motor-club', id: string): Promise<DiagnosisItem> {
  let record: Record<string, unknown> = {};
  try {
    const body = await reads.read(env, kind === 'motor-club' ? 'getMotorClubRegistration' : 'getTireProtectionRegistration', id);
    if (body && typeof body === 'object') record = body as Record<string, unknown>;
  } catch {
    // named by its id below
  }
  const invoice = typeof record.invoiceNumber === 'string' && record.invoiceNumber ? record.invoiceNumber : undefined;
  const cancelled = typeof record.cancelledOn === 'string' && record.cancelledOn ? record.cancelledOn : undefined;
  const name = invoice ? `registration ${invoice}` : `registration ${id}`;
  const state = cancelled ? `it was cancelled on ${cancelled.slice(0, 10)}` : 'cancelled, expired or no tires left';
  return { rule: 'conflict', message: `The request conflicts with the state of ${name} (${state}).`, record: { kind, id, label: invoice ? `Invoice ${invoice}` : `Registration ${id}`, ...(invoice ? { invoiceNumber: invoice } : {}) } };
}
