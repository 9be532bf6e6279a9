/** Helpers of the backfill tests: a v3 registration flow over a CSV, run against an in-process Local sandbox. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBackfill } from '../../../src/core/backfill';
import type { BackfillOptions, BackfillSummary, RowResult } from '../../../src/core/backfill/types';
import { parseFlow } from '../../../src/core/flows/parse';
import type { FlowEnvironment } from '../../../src/core/flows/types';
import { startWith, type Client } from '../sandbox/helpers';

export const REGISTRATION_FLOW = `# @data ./rows.csv
### Registration
POST {{baseUrl}}/tire-protection/registrations
Content-Type: application/json

{
  "product_id": "tp-road-hazard-36",
  "invoiceNumber": "{{row.invoice}}",
  "enrollDate": "{{row.enrollDate}}",
  "customer": { "name": "{{row.name}}", "email": "{{row.email}}" },
  "vehicle": { "year": {{row.year}}, "make": "Ford", "model": "F-150" },
  "tires": [
    { "make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99 },
    { "make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99 },
    { "make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99 },
    { "make": "Michelin", "model": "Defender2", "size": "225/65R17", "retailPrice": 189.99 }
  ]
}

?? status == 201
`;

/** CSV text of `count` valid rows with invoices `<prefix>-<n>`. */
export function registrationCsv(prefix: string, count: number, edit: (n: number, cells: string[]) => string[] = (_n, c) => c): string {
  const today = new Date().toISOString().slice(0, 10);
  const rows = Array.from({ length: count }, (_, i) => edit(i + 1, [`${prefix}-${i + 1}`, today, `Person ${i + 1}`, `p${i + 1}@example.com`, '2021']).join(','));
  return `invoice,enrollDate,name,email,year\n${rows.join('\n')}\n`;
}

/** A directory with the flow and its data. */
export function workspace(flow: string, csv: string): { dir: string; flowPath: string; dataPath: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tpp-backfill-'));
  const flowPath = join(dir, 'flow.http');
  const dataPath = join(dir, 'rows.csv');
  writeFileSync(flowPath, flow);
  writeFileSync(dataPath, csv);
  return { dir, flowPath, dataPath };
}

/** The flow environment of a sandbox client. */
export function environmentOf(c: Client): FlowEnvironment {
  return { id: 'local', baseUrl: c.sb.v3BaseUrl, v2BaseUrl: c.sb.v2BaseUrl, partnerId: c.partnerId, token: () => c.token('v3'), v2Token: () => c.token('v2') };
}

/** Runs the workspace's backfill; collects the row results. */
export async function backfill(ws: { flowPath: string; dataPath: string }, c: Client, extra: Partial<BackfillOptions> = {}): Promise<{ summary: BackfillSummary; rows: RowResult[]; invalid: string[] }> {
  const text = readFileSync(ws.flowPath, 'utf8');
  const rows: RowResult[] = [];
  const invalid: string[] = [];
  const summary = await runBackfill({
    flow: parseFlow(text, ws.flowPath),
    flowText: text,
    flowPath: ws.flowPath,
    dataPath: ws.dataPath,
    environment: environmentOf(c),
    readFile: async () => '',
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    ...extra,
    listener: { onRowEnd: (r) => rows.push(r), onInvalidRow: (p) => invalid.push(...p.map((x) => `row ${x.row} column ${x.column ?? '?'} ${x.rule}`)), ...extra.listener },
  });
  return { summary, rows, invalid };
}

/** How many registrations the sandbox holds per invoice number of `prefix` (one list read of up to 1,000). */
export async function registrationsPerInvoice(c: Client): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let page = 1; ; page++) {
    const r = await c.call('GET', `/tire-protection/registrations?pageSize=1000&page=${page}`);
    const results = (r.json?.results ?? []) as { invoiceNumber: string }[];
    for (const x of results) out.set(x.invoiceNumber, (out.get(x.invoiceNumber) ?? 0) + 1);
    if (page >= (r.json?.totalPages ?? 1)) return out;
  }
}

/**
 * A Local sandbox for the suite (started before, closed after) and workspaces removed after: `sandbox().client`
 * once the suite runs; `ws(csv, flow)` makes a workspace.
 */
export function suiteSandbox(): { client: () => Client; ws: (csv: string, flow?: string) => ReturnType<typeof workspace> } {
  let c: Client | undefined;
  let close: () => Promise<void> = async () => undefined;
  const dirs: string[] = [];
  before(async () => {
    const { sb, clients } = await startWith();
    c = clients[0];
    close = () => sb.close();
  });
  after(async () => {
    await close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    client: () => c as Client,
    ws: (csv, flow = REGISTRATION_FLOW) => {
      const w = workspace(flow, csv);
      dirs.push(w.dir);
      return w;
    },
  };
}
