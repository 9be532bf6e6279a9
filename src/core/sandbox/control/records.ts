import type { SandboxDb } from '../db/database';
import { bad } from './input';
import { catalogOf, KEPT_TABLES, quoted } from './data';
import { MAX_RECORDS_PAGE, RECORDS_PAGE } from './limits';

/**
 * `GET /__tpp/records?kind=<table>` (docs/testing-your-application.md, Records): the stored rows of one table, read
 * without signing a partner request, one page at a time in primary-key order; `next` is the cursor of the page
 * after (absent on the last). A page costs one index range scan, however deep it is.
 */

/** One page of stored rows. */
export interface RecordsPage {
  readonly kind: string;
  /** The rows as stored (column names of the database), oldest key first. */
  readonly records: Record<string, unknown>[];
  /** Give as `after` to read the next page; absent on the last page. */
  readonly next?: string;
}

/** The query of `GET /__tpp/records` (control/schemas.ts `recordsQuery` checks its shape). */
export interface RecordsQuery {
  readonly kind: string;
  readonly partner?: string;
  readonly limit?: string;
  readonly after?: string;
}

interface TableInfo {
  readonly keys: string[];
  readonly hasPartner: boolean;
}
const tableInfo = new WeakMap<SandboxDb, Map<string, TableInfo>>();

/** Primary-key columns (in key order) and whether a `partner` column exists, per record table; read once per database. */
async function tablesOf(db: SandboxDb): Promise<Map<string, TableInfo>> {
  const known = tableInfo.get(db);
  if (known) return known;
  const names = (await db.transaction((tx) => catalogOf(db, tx))).filter((r) => r.kind === 't' && !KEPT_TABLES.has(r.name)).map((r) => r.name);
  const { rows } = await db.query<{ table: string; col: string; pk: boolean }>(
    `SELECT c.relname AS table, a.attname AS col, coalesce(array_position(i.indkey::int2[], a.attnum) IS NOT NULL, false) AS pk
       FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
      WHERE c.relnamespace = 'tpp'::regnamespace AND c.relkind = 'r'
      ORDER BY c.relname, coalesce(array_position(i.indkey::int2[], a.attnum), 1000), a.attnum`,
    [],
  );
  const out = new Map<string, TableInfo>();
  for (const t of names) {
    const cols = rows.filter((r) => r.table === t);
    out.set(t, { keys: cols.filter((c) => c.pk).map((c) => c.col), hasPartner: cols.some((c) => c.col === 'partner') });
  }
  tableInfo.set(db, out);
  return out;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The key values a cursor carries. @throws ApiError 400 naming `query.after`. */
function cursorOf(after: string, keys: readonly string[]): unknown[] {
  try {
    const values = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(values) && values.length === keys.length) return values;
  } catch {
    // refused below
  }
  throw bad('query.after', 'is not a cursor this call answered (give the `next` of the page before)');
}

/**
 * A page of the rows of `query.kind`, optionally only `query.partner`'s.
 * @throws ApiError 400 naming `query.kind` (not a record table), `query.limit` or `query.after`.
 */
export async function readRecords(db: SandboxDb, query: RecordsQuery): Promise<RecordsPage> {
  const tables = await tablesOf(db);
  const info = tables.get(query.kind);
  if (!info) throw bad('query.kind', `must be one of ${[...tables.keys()].join(', ')}, not '${query.kind}'`);
  const limitText = query.limit ?? String(RECORDS_PAGE);
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_RECORDS_PAGE) throw bad('query.limit', `must be an integer from 1 to ${MAX_RECORDS_PAGE} (the limit), not '${limitText}'`);
  if (query.partner !== undefined && !info.hasPartner) throw bad('query.partner', `${query.kind} has no partner column`);
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.partner !== undefined) where.push(`partner = $${params.push(query.partner)}`);
  const keys = info.keys.map(ident);
  if (query.after !== undefined) {
    const values = cursorOf(query.after, info.keys);
    where.push(`(${keys.join(', ')}) > (${values.map((v) => `$${params.push(v)}`).join(', ')})`);
  }
  const sql = `SELECT row_to_json(x) AS r, json_build_array(${keys.join(', ')}) AS k FROM ${quoted(query.kind)} x ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${keys.join(', ')} LIMIT ${limit + 1}`;
  const { rows } = await db.query<{ r: Record<string, unknown>; k: unknown[] }>(sql, params);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? Buffer.from(JSON.stringify(last.k), 'utf8').toString('base64url') : undefined;
  return { kind: query.kind, records: page.map((x) => x.r), ...(next ? { next } : {}) };
}
