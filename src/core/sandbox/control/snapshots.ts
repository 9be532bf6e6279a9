import type { Queryable, SandboxDb } from '../db/database';
import { ApiError } from '../ops/common';
import { catalogOf, emptyTables, KEPT_TABLES, quoted, type CatalogRow } from './data';
import { MAX_SNAPSHOTS } from './limits';

/**
 * Named snapshots of the Local sandbox's records (docs/testing-your-application.md, Snapshots): every table of the
 * `tpp` schema (partners included) and its id counters, copied by one statement into a table of the sandbox's own
 * database, so a snapshot lives where the records do: in memory for an in-memory sandbox, on disk under
 * `--data-dir` (it survives a restart), on the server with `--database`. One statement sees one state of the data,
 * so a snapshot taken while writes are in flight holds each of them whole or not at all. A restore empties the
 * tables and loads the snapshot back in one transaction.
 */

/** What `GET /__tpp/snapshots` says of one snapshot. */
export interface SnapshotInfo {
  readonly name: string;
  /** When it was taken, by the sandbox's clock (ISO 8601). */
  readonly taken: string;
  /** Rows per table. */
  readonly records: Readonly<Record<string, number>>;
}

const STORE = 'tpp_snapshots.snapshots';
const prepared = new WeakSet<SandboxDb>();

/** Creates the snapshot table on first use (a database of an earlier version has none). */
async function prepare(db: SandboxDb): Promise<void> {
  if (prepared.has(db)) return;
  await db.query(`CREATE SCHEMA IF NOT EXISTS tpp_snapshots; CREATE TABLE IF NOT EXISTS ${STORE} (name text PRIMARY KEY, taken text NOT NULL, tables json NOT NULL, sequences json NOT NULL, counts json NOT NULL)`);
  prepared.add(db);
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

/**
 * Takes (or replaces) the snapshot `name` at `now` (milliseconds). One INSERT … SELECT: consistent on its own.
 * @throws ApiError 400 when {@link MAX_SNAPSHOTS} other snapshots exist.
 */
export async function takeSnapshot(db: SandboxDb, name: string, now: number): Promise<SnapshotInfo> {
  await prepare(db);
  return db.transaction(async (tx) => {
    const others = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${STORE} WHERE name <> $1`, [name])).rows[0]?.n ?? 0;
    if (others >= MAX_SNAPSHOTS) throw new ApiError(400, 'bad_request', `name: at most ${MAX_SNAPSHOTS} snapshots may be kept (the limit); DELETE one first`, [{ path: 'name', message: `at most ${MAX_SNAPSHOTS} snapshots (the limit)` }]);
    const rows = await catalogOf(db, tx);
    const tables = recordTables(rows);
    const data = tables.map((t) => `${sqlText(t)}, (SELECT coalesce(json_agg(x), '[]'::json) FROM ${quoted(t)} x)`).join(', ');
    const counts = tables.map((t) => `${sqlText(t)}, (SELECT count(*) FROM ${quoted(t)})`).join(', ');
    // Each counter's last value drawn (null: none yet) and its start.
    const seqs = `(SELECT coalesce(json_object_agg(sequencename, json_build_array(last_value, start_value)), '{}'::json) FROM pg_sequences WHERE schemaname = 'tpp')`;
    const taken = new Date(now).toISOString();
    const { rows: out } = await tx.query<{ counts: Record<string, number> }>(
      `INSERT INTO ${STORE} (name, taken, tables, sequences, counts) SELECT $1, $2, json_build_object(${data}), ${seqs}, json_build_object(${counts})
       ON CONFLICT (name) DO UPDATE SET taken = EXCLUDED.taken, tables = EXCLUDED.tables, sequences = EXCLUDED.sequences, counts = EXCLUDED.counts
       RETURNING counts`,
      [name, taken],
    );
    return { name, taken, records: out[0]?.counts ?? {} };
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
  const { rows } = await db.query(`DELETE FROM ${STORE} WHERE name = $1 RETURNING name`, [name]);
  if (rows.length === 0) throw unknown(name);
}

/** Loads the rows of `table` from the snapshot `name` (its JSON, as json_agg wrote it). */
async function load(tx: Queryable, name: string, table: string): Promise<void> {
  await tx.query(`INSERT INTO ${quoted(table)} SELECT * FROM json_populate_recordset(NULL::${quoted(table)}, (SELECT tables -> $2 FROM ${STORE} WHERE name = $1))`, [name, table]);
}

/**
 * Puts the records back as they were when `name` was taken, in one transaction: every table emptied, the snapshot's
 * rows loaded parents first, the id counters set back. A table added since the snapshot is left empty.
 * @throws ApiError 404 when there is no such snapshot.
 */
export async function restoreSnapshot(db: SandboxDb, name: string): Promise<SnapshotInfo> {
  await prepare(db);
  return db.transaction(async (tx) => {
    const found = (await tx.query<{ taken: string; counts: Record<string, number>; sequences: Record<string, [number | null, number]> }>(`SELECT taken, counts, sequences FROM ${STORE} WHERE name = $1`, [name])).rows[0];
    if (!found) throw unknown(name);
    const rows = await catalogOf(db, tx);
    await emptyTables(db, tx, false);
    for (const t of parentsFirst(recordTables(rows), rows)) if ((found.counts[t] ?? 0) > 0) await load(tx, name, t);
    const seqs = Object.entries(found.sequences)
      .filter(([seq]) => rows.some((r) => r.kind === 's' && r.name === seq))
      .map(([seq, [last, start]]) => (last === null ? `setval(${sqlText(quoted(seq))}, ${Number(start)}, false)` : `setval(${sqlText(quoted(seq))}, ${Number(last)}, true)`));
    if (seqs.length) await tx.query(`SELECT ${seqs.join(', ')}`, []);
    return { name, taken: found.taken, records: found.counts };
  });
}
