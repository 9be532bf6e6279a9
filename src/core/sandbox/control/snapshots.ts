import type { Queryable, SandboxDb } from '../db/database';
import { ApiError } from '../ops/common';
import { catalogOf, emptyTables, KEPT_TABLES, quoted, type CatalogRow } from './data';
import { MAX_SNAPSHOTS } from './limits';

/**
 * Named snapshots of the Local sandbox's records (docs/testing-your-application.md, Snapshots): every table of the
 * `tpp` schema (partners included) and its id counters, copied inside the sandbox's own database (one table per
 * record table, `CREATE TABLE … AS SELECT`: no row passes through the process), so a snapshot lives where the
 * records do: in memory for an in-memory sandbox, on disk under `--data-dir` (it survives a restart), on the server
 * with `--database`. The copies are made in one REPEATABLE READ transaction, which sees one state of the data, so a
 * snapshot taken while writes are in flight holds each of them whole or not at all. A restore empties the tables
 * and copies the snapshot back (`INSERT … SELECT`) in one transaction.
 */

/** What `GET /__tpp/snapshots` says of one snapshot. */
export interface SnapshotInfo {
  readonly name: string;
  /** When it was taken, by the sandbox's clock (ISO 8601). */
  readonly taken: string;
  /** Rows per table. */
  readonly records: Readonly<Record<string, number>>;
}

const STORE = 'tpp_snapshots.list';
const prepared = new WeakSet<SandboxDb>();

/**
 * Creates the snapshots' index table on first use (a database of an earlier version has none). Each snapshot's rows
 * live in tables of their own, `tpp_snapshots."s<id>/<table>"`: the id is the index row's, never the caller's name,
 * so a name of any allowed length fits PostgreSQL's 63-byte identifiers and no name reaches SQL text.
 */
async function prepare(db: SandboxDb): Promise<void> {
  if (prepared.has(db)) return;
  await db.query(`CREATE SCHEMA IF NOT EXISTS tpp_snapshots; CREATE TABLE IF NOT EXISTS ${STORE} (id serial PRIMARY KEY, name text NOT NULL UNIQUE, taken text NOT NULL, sequences json NOT NULL, counts json NOT NULL)`);
  prepared.add(db);
}

/** The table holding the rows of `table` in the snapshot numbered `id`, quoted. */
const copyOf = (id: number, table: string): string => `tpp_snapshots."${`s${Math.trunc(id)}/${table}`.replace(/"/g, '""')}"`;

/** Drops the copied tables and the index row of the snapshot numbered `id`, inside the caller's transaction. */
async function dropSnapshot(tx: Queryable, id: number, counts: Readonly<Record<string, number>>): Promise<void> {
  const tables = Object.keys(counts).map((t) => copyOf(id, t));
  if (tables.length) await tx.query(`DROP TABLE IF EXISTS ${tables.join(', ')}`, []);
  await tx.query(`DELETE FROM ${STORE} WHERE id = $1`, [id]);
}

/** The record tables a snapshot copies (every `tpp` table but the schema's bookkeeping). */
function recordTables(rows: readonly CatalogRow[]): string[] {
  return rows.filter((r) => r.kind === 't' && !KEPT_TABLES.has(r.name)).map((r) => r.name);
}

/** `tables` ordered parents first: a table comes after every table it references. */
function parentsFirst(tables: readonly string[], rows: readonly CatalogRow[]): string[] {
  const edges = rows.filter((r) => r.kind === 'f' && r.parent !== r.name);
  const out: string[] = [];
  let left = [...tables];
  while (left.length) {
    const next = left.find((t) => !edges.some((e) => e.name === t && e.parent !== null && left.includes(e.parent))) ?? (left[0] as string);
    out.push(next);
    left = left.filter((t) => t !== next);
  }
  return out;
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

type Found = { id: number; taken: string; counts: Record<string, number>; sequences: Record<string, [number | null, number]> };
const find = async (tx: Queryable, name: string): Promise<Found | undefined> =>
  (await tx.query<Found>(`SELECT id, taken, counts, sequences FROM ${STORE} WHERE name = $1`, [name])).rows[0];

/**
 * Takes (or replaces) the snapshot `name` at `now` (milliseconds): each record table copied by `CREATE TABLE … AS
 * SELECT` inside the database, all in one transaction at REPEATABLE READ, so every copy (and the counters) sees the
 * same state of the data: a write in flight is in all of them or in none.
 * @throws ApiError 400 when {@link MAX_SNAPSHOTS} other snapshots exist.
 */
export async function takeSnapshot(db: SandboxDb, name: string, now: number): Promise<SnapshotInfo> {
  await prepare(db);
  return db.transaction(async (tx) => {
    // Must come first: the transaction's one view of the data is taken at its first query.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ', []);
    const others = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${STORE} WHERE name <> $1`, [name])).rows[0]?.n ?? 0;
    if (others >= MAX_SNAPSHOTS) throw new ApiError(400, 'bad_request', `name: at most ${MAX_SNAPSHOTS} snapshots may be kept (the limit); DELETE one first`, [{ path: 'name', message: `at most ${MAX_SNAPSHOTS} snapshots (the limit)` }]);
    const old = await find(tx, name);
    if (old) await dropSnapshot(tx, old.id, old.counts);
    const rows = await catalogOf(db, tx);
    const tables = recordTables(rows);
    // Each counter's last value drawn (null: none yet) and its start.
    const seqs = `(SELECT coalesce(json_object_agg(sequencename, json_build_array(last_value, start_value)), '{}'::json) FROM pg_sequences WHERE schemaname = 'tpp')`;
    const counts = `json_build_object(${tables.map((t) => `${sqlText(t)}, (SELECT count(*) FROM ${quoted(t)})`).join(', ')})`;
    const taken = new Date(now).toISOString();
    const made = (await tx.query<{ id: number; counts: Record<string, number> }>(`INSERT INTO ${STORE} (name, taken, sequences, counts) SELECT $1, $2, ${seqs}, ${counts} RETURNING id, counts`, [name, taken])).rows[0];
    if (!made) throw new Error('the snapshot index row was not written');
    for (const t of tables) await tx.query(`CREATE TABLE ${copyOf(made.id, t)} AS SELECT * FROM ${quoted(t)}`, []);
    return { name, taken, records: made.counts };
  });
}

/** The snapshots kept, by name. */
export async function listSnapshots(db: SandboxDb): Promise<SnapshotInfo[]> {
  await prepare(db);
  const { rows } = await db.query<{ name: string; taken: string; counts: Record<string, number> }>(`SELECT name, taken, counts FROM ${STORE} ORDER BY name`, []);
  return rows.map((r) => ({ name: r.name, taken: r.taken, records: r.counts }));
}

const unknown = (name: string) => new ApiError(404, 'not_found', `No snapshot named '${name}' (GET /__tpp/snapshots lists them)`);

/** Removes the snapshot `name`. @throws ApiError 404 when there is none. */
export async function deleteSnapshot(db: SandboxDb, name: string): Promise<void> {
  await prepare(db);
  await db.transaction(async (tx) => {
    const found = await find(tx, name);
    if (!found) throw unknown(name);
    await dropSnapshot(tx, found.id, found.counts);
  });
}

/**
 * Puts the records back as they were when `name` was taken, in one transaction: every table emptied, the snapshot's
 * rows loaded parents first, the id counters set back. A table added since the snapshot is left empty.
 * @throws ApiError 404 when there is no such snapshot.
 */
export async function restoreSnapshot(db: SandboxDb, name: string): Promise<SnapshotInfo> {
  await prepare(db);
  return db.transaction(async (tx) => {
    const found = await find(tx, name);
    if (!found) throw unknown(name);
    const rows = await catalogOf(db, tx);
    await emptyTables(db, tx, false);
    // The rows come from one consistent copy of every table, so their references hold already: PGlite (where the
    // sandbox is superuser) skips checking them again row by row, which is most of a restore's time. A PostgreSQL
    // server's role may not be allowed to, so there they are checked.
    if (db.kind === 'pglite') await tx.query("SET LOCAL session_replication_role = 'replica'", []);
    for (const t of parentsFirst(recordTables(rows), rows)) if ((found.counts[t] ?? 0) > 0) await tx.query(`INSERT INTO ${quoted(t)} SELECT * FROM ${copyOf(found.id, t)}`, []);
    const seqs = Object.entries(found.sequences)
      .filter(([seq]) => rows.some((r) => r.kind === 's' && r.name === seq))
      .map(([seq, [last, start]]) => (last === null ? `setval(${sqlText(quoted(seq))}, ${Number(start)}, false)` : `setval(${sqlText(quoted(seq))}, ${Number(last)}, true)`));
    if (seqs.length) await tx.query(`SELECT ${seqs.join(', ')}`, []);
    return { name, taken: found.taken, records: found.counts };
  });
}
