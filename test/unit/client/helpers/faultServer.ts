/**
 * A small fault-injecting stand-in for the version 3 registration endpoints, for the client's duplicate-safety
 * tests: routes come from the contract (matchEndpoints), records are stored in insertion order, unique by
 * invoice number (a second create with the same invoice number is refused with 409, as in the Local sandbox,
 * and counted in `injected['duplicate refused']`), and answers can be replaced by 429/5xx, delayed, or dropped
 * after the write landed.
 */
import type { ServerResponse } from 'node:http';
import { matchEndpoints } from '../../../../src/core/contract';
import { startServer, json, drop, type TestServer, type RecordedRequest } from './server';
import { seededRandom } from '../../../../src/core/sandbox/realism';

export interface FaultKnobs {
  /** Share of requests answered 429/500/502/503/504 instead (before any write). */
  errorRate: number;
  /** Share of creates answered 500/502/504 AFTER the write landed (a gateway losing the answer). */
  errorAfterWriteRate: number;
  /** Share of creates whose connection is dropped AFTER the write landed. */
  dropAfterWriteRate: number;
  /** Share of requests whose connection is dropped before anything happens. */
  dropBeforeRate: number;
  /** Share of answers delayed by a random time up to slowMaxMs (for creates, after the write). */
  slowRate: number;
  slowMaxMs: number;
  /** Retry-After sent with 429 (seconds), or undefined for none. */
  retryAfterSeconds?: number;
}

export const NO_FAULTS: FaultKnobs = { errorRate: 0, errorAfterWriteRate: 0, dropAfterWriteRate: 0, dropBeforeRate: 0, slowRate: 0, slowMaxMs: 0 };

export interface StoredRecord {
  _id: string;
  invoiceNumber: string;
  [key: string]: unknown;
}

export interface FaultServer {
  readonly baseUrl: string;
  readonly server: TestServer;
  readonly records: StoredRecord[];
  knobs: FaultKnobs;
  readonly injected: Record<string, number>;
  close(): Promise<void>;
}


const ERRORS = [429, 500, 502, 503, 504];
const AFTER_WRITE_ERRORS = [500, 502, 504];

export async function startFaultServer(knobs: FaultKnobs, seed = 1): Promise<FaultServer> {
  const random = seededRandom(seed);
  const records: StoredRecord[] = [];
  const injected: Record<string, number> = {};
  const count = (what: string) => (injected[what] = (injected[what] ?? 0) + 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const server = await startServer();
  const state = { knobs };
  const basePath = '/api/v3';

  const answer = async (res: ServerResponse, status: number, body: unknown) => {
    if (random() < state.knobs.slowRate) {
      count('slow');
      await new Promise((r) => setTimeout(r, random() * state.knobs.slowMaxMs));
    }
    if (!res.destroyed) json(res, status, body);
  };

  server.handler = async (req: RecordedRequest, res: ServerResponse) => {
    const k = state.knobs;
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith(basePath)) return json(res, 404, { error: 'not_found' });
    if (!req.headers.authorization?.startsWith('Bearer ')) return json(res, 401, { error: 'unauthorized', statusCode: 401 });
    const [match] = matchEndpoints(req.method, url.pathname.slice(basePath.length));
    if (!match) return json(res, 405, { error: 'method_not_allowed' });

    if (random() < k.dropBeforeRate) return count('dropBefore'), drop(res);
    if (random() < k.errorRate) {
      const status = pick(ERRORS);
      count(`status ${status}`);
      const headers: Record<string, string> = status === 429 && k.retryAfterSeconds !== undefined ? { 'retry-after': String(k.retryAfterSeconds) } : {};
      return json(res, status, { error: 'injected', statusCode: status }, headers);
    }

    const id = match.def.id;
    if (id === 'createTireProtectionRegistration' || id === 'createMotorClubRegistration' || id === 'createRegistration') {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      // Unique by invoice number, as the spec and the Local sandbox have it: a duplicate is 409.
      if (records.some((r) => r.invoiceNumber === String(body.invoiceNumber))) {
        count('duplicate refused');
        return json(res, 409, { error: 'conflict', statusCode: 409, message: `invoiceNumber ${String(body.invoiceNumber)} already exists` });
      }
      const record: StoredRecord = { ...body, invoiceNumber: String(body.invoiceNumber), _id: `r${records.length + 1}` };
      records.push(record);
      if (random() < k.dropAfterWriteRate) return count('dropAfterWrite'), drop(res);
      if (random() < k.errorAfterWriteRate) {
        const status = pick(AFTER_WRITE_ERRORS);
        count(`status ${status} after write`);
        return json(res, status, { error: 'injected', statusCode: status });
      }
      return answer(res, 201, { id: record._id });
    }
    if (id === 'listTireProtectionRegistrations' || id === 'listMotorClubRegistrations' || id === 'listRegistrations') {
      const invoiceNumber = url.searchParams.get('invoiceNumber');
      const pageSize = Number(url.searchParams.get('pageSize') ?? 100);
      const page = Number(url.searchParams.get('page') ?? 1);
      // Only the tire-protection list filters by invoice number (spec: Endpoints).
      const filtered =
        invoiceNumber !== null && id === 'listTireProtectionRegistrations' ? records.filter((r) => r.invoiceNumber === invoiceNumber) : records;
      const results = filtered.slice((page - 1) * pageSize, page * pageSize);
      return answer(res, 200, { results, totalRecordCount: filtered.length, page, pageSize, totalPages: Math.max(1, Math.ceil(filtered.length / pageSize)) });
    }
    return json(res, 405, { error: 'method_not_allowed' });
  };

  return {
    baseUrl: `${server.origin}${basePath}`,
    server,
    records,
    get knobs() {
      return state.knobs;
    },
    set knobs(v: FaultKnobs) {
      state.knobs = v;
    },
    injected,
    close: () => server.close(),
  };
}
