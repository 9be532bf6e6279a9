import { ENDPOINTS, PAYLOAD_KINDS, SCHEMA_URI_PREFIX, kindFromSchemaUri, stripMeta, type EndpointDef, type EndpointId, type PayloadKind } from '../../contract';
import { handlers } from '../handlers';
import { ApiError, OpsContext } from '../ops/common';
import type { PartnerRecord } from '../ops/partners';
import { zodIssues } from '../routes';
import { inOneTransaction } from './data';
import { bad } from './input';
import { MAX_FIXTURES } from './limits';

/**
 * Fixtures of `POST /__tpp/seed` (docs/testing-your-application.md, Seed): payload files' JSON, each stored as the
 * endpoint its `$schema` names would store it (spec: Endpoints), all in one transaction. A fixture without `$schema`
 * is a tire-protection registration. A kind sent to a path that names an existing record (a claim, a shop update)
 * cannot be seeded and is refused with its index and kind: nothing is stored that was not asked for.
 */

/** The kind of a fixture without `$schema`. */
const DEFAULT_KIND: PayloadKind = 'tire-protection-registration';

/** One parsed fixture: its kind, the endpoint that stores it and its validated body. */
export interface Fixture {
  readonly index: number;
  readonly kind: PayloadKind;
  readonly endpoint: EndpointDef;
  readonly body: Record<string, unknown>;
}

/** What a seed of fixtures created, in the order given. */
export interface FixturesCreated {
  /**
   * The registrations stored (tire-protection, `/registrations` and version 2 registration kinds; a version 2 one
   * with `record`, its place in the fixture's `Registrations`).
   */
  readonly registrations: { readonly index: number; readonly id: string; readonly invoiceNumber?: string; readonly record?: number }[];
  /** Every fixture: its kind, and the id (or the version 2 results) its endpoint answered. */
  readonly records: { readonly index: number; readonly kind: PayloadKind; readonly id?: string | number; readonly results?: unknown }[];
}

/**
 * The endpoint a kind is seeded through: one whose path and query name no record (the v2 partner segment is the
 * seed's partner's).
 */
function seedEndpoint(kind: PayloadKind): EndpointDef | undefined {
  return PAYLOAD_KINDS[kind].endpoints
    .map((id) => ENDPOINTS[id] as EndpointDef)
    .find((e) => e.pathParams.every((p) => p === 'company_name') && Object.values(e.query).every((q) => !q.required));
}

/** The kind a fixture's `$schema` names. @throws ApiError 400 naming `[i].$schema`. */
function kindOf(item: Record<string, unknown>, i: number): PayloadKind {
  const uri = item.$schema;
  if (uri === undefined) return DEFAULT_KIND;
  const kind = typeof uri === 'string' ? kindFromSchemaUri(uri) : undefined;
  if (!kind) throw bad(`[${i}].$schema`, `names no payload kind (${SCHEMA_URI_PREFIX}<kind>.json; kinds: ${Object.keys(PAYLOAD_KINDS).join(', ')}), not ${JSON.stringify(uri)}`);
  return kind;
}

/** The fixtures of a seed body: a JSON array, or NDJSON text (one per line). @throws ApiError 400 naming the element. */
export function parseFixtures(body: unknown): Fixture[] {
  let items: unknown[];
  if (typeof body === 'string') {
    items = [];
    const lines = body.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] as string).trim();
      if (!line) continue;
      try {
        items.push(JSON.parse(line));
      } catch (err) {
        throw bad(`line ${i + 1}`, `is not JSON: ${(err as Error).message}`);
      }
    }
  } else if (Array.isArray(body)) items = body;
  else throw bad('', 'give {"count": n}, a JSON array of payloads, or NDJSON (application/x-ndjson)');
  if (items.length === 0) throw bad('', 'no fixtures given');
  if (items.length > MAX_FIXTURES) throw bad('', `at most ${MAX_FIXTURES} fixtures per seed (the limit), not ${items.length}`);
  return items.map((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw bad(`[${i}]`, 'must be a JSON object (a payload file)');
    const kind = kindOf(item as Record<string, unknown>, i);
    const endpoint = seedEndpoint(kind);
    if (!endpoint) {
      const to = PAYLOAD_KINDS[kind].endpoints.map((id) => `${ENDPOINTS[id].method} ${ENDPOINTS[id].path}`).join(' or ');
      throw bad(`[${i}].$schema`, `a ${kind} fixture cannot be seeded: it is sent to ${to}, which names an existing record; send it through the API once that record exists`);
    }
    const parsed = endpoint.body?.safeParse(stripMeta(item));
    if (!parsed?.success) {
      const issues = parsed ? zodIssues(parsed.error, `[${i}].`) : [{ path: `[${i}]`, message: 'has no body' }];
      throw new ApiError(400, 'bad_request', `Fixture [${i}] is not a valid ${kind}: ${issues.map((x) => `${x.path}: ${x.message}`).join('; ')}`, issues);
    }
    return { index: i, kind, endpoint, body: parsed.data as Record<string, unknown> };
  });
}

/** The registrations a version 2 registrations fixture stored: each record's id, invoice number and place. */
function v2Registrations(index: number, body: Record<string, unknown>, answer: Record<string, unknown>): FixturesCreated['registrations'] {
  const sent = Array.isArray(body.Registrations) ? (body.Registrations as Record<string, unknown>[]) : [];
  const outcomes = Array.isArray(answer.Registrations) ? (answer.Registrations as { index?: number; id?: unknown }[]) : [];
  return outcomes.flatMap((o) => {
    if (typeof o.id !== 'string' || typeof o.index !== 'number') return [];
    const invoiceNumber = sent[o.index]?.InvoiceNumber;
    return [{ index, id: o.id, ...(typeof invoiceNumber === 'string' ? { invoiceNumber } : {}), record: o.index }];
  });
}

/** Stores the fixtures for `partner` in one transaction: all or none (a refused one answers its status naming `Fixture [i]`). */
export function seedFixtures(c: OpsContext, partner: PartnerRecord, fixtures: readonly Fixture[]): Promise<FixturesCreated> {
  return inOneTransaction(c, async (inner) => {
    const out: FixturesCreated = { registrations: [], records: [] };
    for (const { index, kind, endpoint, body } of fixtures) {
      try {
        const params: Record<string, string> = endpoint.pathParams.includes('company_name') ? { company_name: partner.name } : {};
        const result = await handlers[endpoint.id as EndpointId]({ c: inner, partner, params, query: {}, body, endpoint });
        const answer = (result.body ?? {}) as Record<string, unknown>;
        const id = typeof answer.id === 'string' || typeof answer.id === 'number' ? answer.id : undefined;
        out.records.push({ index, kind, ...(id !== undefined ? { id } : {}), ...(endpoint.base === 'v2' ? { results: answer } : {}) });
        if (typeof id === 'string' && (kind === 'tire-protection-registration' || kind === 'registration')) {
          out.registrations.push({ index, id, ...(typeof body.invoiceNumber === 'string' ? { invoiceNumber: body.invoiceNumber } : {}) });
        }
        if (kind === 'v2-registrations') out.registrations.push(...v2Registrations(index, body, answer));
      } catch (err) {
        if (err instanceof ApiError) throw new ApiError(err.statusCode, err.error, `Fixture [${index}] (${kind}): ${err.message}; nothing was stored`, err.issues, err.extra);
        throw err;
      }
    }
    return out;
  });
}
