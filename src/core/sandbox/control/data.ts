import type { Queryable, SandboxDb } from '../db/database';
import { OpsContext } from '../ops/common';
import type { PartnerRecord } from '../ops/partners';
import { loadSampleData, SampleSummary } from '../seed';

/**
 * Records through the control API (docs/testing-your-application.md, Reset and Seed): `reset` empties the tables in
 * one TRUNCATE (time independent of how many rows are stored) and `seed` loads sample data (the caller's fixtures:
 * ./fixtures.ts) in one transaction. Both go through the database's own locking: a reset issued during a running write waits for its
 * commit, so no test ever sees half of one.
 */

/** Tables a reset never empties: the schema's bookkeeping. */
export const KEPT_TABLES = new Set(['meta', 'schema_version']);

export interface CatalogRow {
  readonly kind: 't' | 's' | 'f';
  readonly name: string;
  readonly parent: string | null;
}
const catalogs = new WeakMap<SandboxDb, readonly CatalogRow[]>();

/**
 * The `tpp` schema's tables, sequences and foreign keys (read from the catalog, so a table a later migration adds is
 * emptied too), once per open database: migrations run only when it opens.
 */
export async function catalogOf(db: SandboxDb, tx: Queryable): Promise<readonly CatalogRow[]> {
  const known = catalogs.get(db);
  if (known) return known;
  const { rows } = await tx.query<CatalogRow>(
    `SELECT 't' AS kind, tablename AS name, NULL AS parent FROM pg_tables WHERE schemaname = 'tpp'
     UNION ALL SELECT 's', sequencename, NULL FROM pg_sequences WHERE schemaname = 'tpp'
     UNION ALL SELECT 'f', c.relname, p.relname FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       WHERE k.contype = 'f' AND k.connamespace = 'tpp'::regnamespace`,
    [],
  );
  catalogs.set(db, rows);
  return rows;
}

/** Rows up to which a table is emptied by DELETE; beyond, by TRUNCATE. Either way a reset's time is bounded. */
const DELETE_UP_TO = 1000;

/**
 * Empties every record table of the `tpp` schema in one transaction; partners (and their keys) are kept unless
 * `keepPartners` is false. Counters and id sequences start again, so a test sees the same numbers after each reset.
 * A table of more than {@link DELETE_UP_TO} rows is truncated (its time does not grow with the rows); a smaller one is
 * emptied by DELETE, children first, because creating a relation's new files for TRUNCATE costs more than deleting
 * a few rows (PGlite under a data directory: tens of milliseconds per table).
 */
export async function resetRecords(db: SandboxDb, keepPartners: boolean): Promise<void> {
  await db.transaction(async (tx) => emptyTables(db, tx, keepPartners));
}

/** A table or sequence of the `tpp` schema, quoted. */
export const quoted = (name: string): string => `tpp."${name.replace(/"/g, '""')}"`;

/** What {@link resetRecords} does, inside the caller's transaction `tx` (a snapshot's restore empties the same way). */
export async function emptyTables(db: SandboxDb, tx: Queryable, keepPartners: boolean): Promise<void> {
  const rows = await catalogOf(db, tx);
  const tables = rows.filter((r) => r.kind === 't' && !KEPT_TABLES.has(r.name) && (r.name !== 'partners' || !keepPartners)).map((r) => r.name);
  if (tables.length) {
    const sizes = (await tx.query<Record<string, number>>(`SELECT ${tables.map((t, i) => `(SELECT count(*) FROM (SELECT 1 FROM ${quoted(t)} LIMIT ${DELETE_UP_TO + 1}) x)::int AS n${i}`).join(', ')}`, [])).rows[0] ?? {};
    const size = (t: string) => Number(sizes[`n${tables.indexOf(t)}`] ?? 0);
    const big = tables.filter((t) => size(t) > DELETE_UP_TO);
    // CASCADE: a big table's referencing tables (only record tables reference anything) are emptied with it.
    if (big.length) await tx.query(`TRUNCATE ${big.map(quoted).join(', ')} CASCADE`, []);
    const edges = rows.filter((r) => r.kind === 'f' && r.parent !== r.name);
    let left = tables.filter((t) => size(t) > 0 && !big.includes(t));
    while (left.length) {
      // children first: a table no other remaining table references
      const next = left.find((t) => !edges.some((e) => e.parent === t && left.includes(e.name))) ?? (left[0] as string);
      await tx.query(`DELETE FROM ${quoted(next)}`, []);
      left = left.filter((t) => t !== next);
    }
  }
  if (keepPartners) await tx.query('UPDATE tpp.partners SET registration_count = 0, motor_club_count = 0', []);
  // Sequences start again in one statement (setval is not DDL: cheaper than ALTER SEQUENCE).
  const seqs = rows.filter((r) => r.kind === 's' && (r.name !== 'partner_num_seq' || !keepPartners)).map((r) => `setval('${quoted(r.name).replace(/'/g, "''")}', ${r.name === 'partner_num_seq' ? 1001 : 1}, false)`);
  if (seqs.length) await tx.query(`SELECT ${seqs.join(', ')}`, []);
}

/** The database seen from inside an open transaction: a nested transaction is a savepoint of it. */
function insideTransaction(db: SandboxDb, tx: Queryable): SandboxDb {
  let n = 0;
  return {
    kind: db.kind,
    where: db.where,
    query: (sql, params) => tx.query(sql, params),
    async transaction(fn) {
      const name = `tpp_seed_${++n}`;
      await tx.query(`SAVEPOINT ${name}`, []);
      try {
        const out = await fn(tx);
        await tx.query(`RELEASE SAVEPOINT ${name}`, []);
        return out;
      } catch (err) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${name}`, []);
        throw err;
      }
    },
    close: async () => undefined,
  };
}

/** Runs `fn` with an operations context whose every statement is part of one transaction. */
export function inOneTransaction<T>(c: OpsContext, fn: (inner: OpsContext) => Promise<T>): Promise<T> {
  return c.db.transaction((tx) => fn(new OpsContext(insideTransaction(c.db, tx), c.now, c.termMonths)));
}

/** `count` sample registrations (with claims, cancellations, shops, motor club) for `partner`, in one transaction. */
export function seedSample(c: OpsContext, partner: PartnerRecord, count?: number): Promise<SampleSummary> {
  return inOneTransaction(c, (inner) => loadSampleData(inner, partner, count));
}
