import { sqlState, type Queryable, type SandboxDb } from '../db/database';
import { ApiError } from '../ops/common';
import { catalogOf, emptyTables, KEPT_TABLES, quoted, type CatalogRow } from './data';
import { MAX_SNAPSHOTS } from './limits';
import { dropReadyOf, prepareReadyTable, ReadyMaker, readySteps, swapInReady } from './snapshotReady';

/**
 * Named snapshots of the Local sandbox's records (docs/testing-your-application.md, Snapshots): every table of the
 * `tpp` schema (partners included) and its id counters, copied inside the sandbox's own database (one table per
 * record table, `CREATE TABLE … AS SELECT`: no row passes through the process), so a snapshot lives where the
 * records do: in memory for an in-memory sandbox, on disk under `--data-dir` (it survives a restart), on the server
 * with `--database`. The copies are made in one REPEATABLE READ transaction, which sees one state of the data, so a
 * snapshot taken while writes are in flight holds each of them whole or not at all. A restore, in one transaction,
 * either renames the snapshot's ready copy into place (embedded sandbox, once the copy was made in the background:
 * ./snapshotReady.ts) or empties the tables and copies the snapshot back (`INSERT … SELECT`).
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
/** PostgreSQL SQLSTATE of a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';
const prepared = new WeakSet<SandboxDb>();

/**
 * Creates the snapshots' index table on first use (a database of an earlier version has none). Each snapshot's rows
 * live in tables of their own, `tpp_snapshots."s<id>/<table>"`: the id is the index row's, never the caller's name,
 * so a name of any allowed length fits PostgreSQL's 63-byte identifiers and no name reaches SQL text.
 */
async function prepare(db: SandboxDb): Promise<void> {
  if (prepared.has(db)) return;
  await db.query(`CREATE SCHEMA IF NOT EXISTS tpp_snapshots; CREATE TABLE IF NOT EXISTS ${STORE} (id serial PRIMARY KEY, name text NOT NULL UNIQUE, taken text NOT NULL, sequences json NOT NULL, counts json NOT NULL)`);
  await prepareReadyTable(db);
  prepared.add(db);
}

const makers = new WeakMap<SandboxDb, ReadyMaker>();

/**
 * The maker of ready copies for the embedded database `quiet` (the database as opened, whose writes are not
 * announced to the answer cache), or undefined on a PostgreSQL server (./snapshotReady.ts says why). Any snapshot call
 * stops the copy being made.
 */
function makerOf(db: SandboxDb, quiet: SandboxDb): ReadyMaker | undefined {
  if (db.kind !== 'pglite' || quiet.kind !== 'pglite') return undefined;
  let maker = makers.get(quiet);
  if (!maker) makers.set(quiet, (maker = new ReadyMaker(quiet, readyPlan)));
  maker.stop();
  return maker;
}

/** The steps of the ready copy of snapshot `id` (none when it is gone or its copy is ready already). */
async function readyPlan(db: SandboxDb, id: number): Promise<((db: SandboxDb) => Promise<unknown>)[]> {
  const found = (await db.query<{ counts: Record<string, number> }>(`SELECT counts FROM ${STORE} WHERE id = $1`, [id])).rows[0];
  if (!found) return [];
  const tables = recordTables(await db.transaction((tx) => catalogOf(db, tx)));
  return readySteps(db, id, tables, found.counts, (t) => copyOf(id, t));
}

/** The table holding the rows of `table` in the snapshot numbered `id`, quoted. */
const copyOf = (id: number, table: string): string => `tpp_snapshots."${`s${Math.trunc(id)}/${table}`.replace(/"/g, '""')}"`;

/** Drops the copied tables and the index row of the snapshot numbered `id`, inside the caller's transaction. */
async function dropSnapshot(tx: Queryable, id: number, counts: Readonly<Record<string, number>>): Promise<void> {
  await dropReadyOf(tx, id);
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
 * `quiet` is the database as opened (see {@link makerOf}): the snapshot's ready copy is made there afterwards.
 * @throws ApiError 400 when {@link MAX_SNAPSHOTS} other snapshots exist.
 */
export async function takeSnapshot(db: SandboxDb, name: string, now: number, quiet: SandboxDb = db): Promise<SnapshotInfo> {
  await prepare(db);
  const maker = makerOf(db, quiet);
  const taken = await db.transaction(async (tx) => {
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
    return { id: made.id, info: { name, taken, records: made.counts } };
  });
  maker?.want(taken.id);
  return taken.info;
}

/** The snapshots kept, by name. */
export async function listSnapshots(db: SandboxDb): Promise<SnapshotInfo[]> {
  await prepare(db);
  const { rows } = await db.query<{ name: string; taken: string; counts: Record<string, number> }>(`SELECT name, taken, counts FROM ${STORE} ORDER BY name`, []);
  return rows.map((r) => ({ name: r.name, taken: r.taken, records: r.counts }));
}

const unknown = (name: string) => new ApiError(404, 'not_found', `No snapshot named '${name}' (GET /__tpp/snapshots lists them)`);

/** Removes the snapshot `name`. @throws ApiError 404 when there is none. */
export async function deleteSnapshot(db: SandboxDb, name: string, quiet: SandboxDb = db): Promise<void> {
  await prepare(db);
  makerOf(db, quiet);
  await db.transaction(async (tx) => {
    const found = await find(tx, name);
    if (!found) throw unknown(name);
    await dropSnapshot(tx, found.id, found.counts);
  });
}

/**
 * Puts the records back as they were when `name` was taken, in one transaction: the snapshot's ready copy renamed
 * into place when there is one (./snapshotReady.ts), else every table emptied and the snapshot's rows loaded parents
 * first; the id counters set back. A table added since the snapshot is left empty. `quiet`: as for
 * {@link takeSnapshot}; the ready copy for the next restore is made there afterwards.
 * @throws ApiError 404 when there is no such snapshot.
 */
export async function restoreSnapshot(db: SandboxDb, name: string, quiet: SandboxDb = db): Promise<SnapshotInfo> {
  await prepare(db);
  const maker = makerOf(db, quiet);
  const restored = await db.transaction(async (tx) => {
    const found = await find(tx, name);
    if (!found) throw unknown(name);
    const rows = await catalogOf(db, tx);
    if (!maker || !(await swapInReady(tx, found.id, recordTables(rows)))) await copyBack(db, tx, found, rows);
    const seqs = Object.entries(found.sequences)
      .filter(([seq]) => rows.some((r) => r.kind === 's' && r.name === seq))
      .map(([seq, [last, start]]) => (last === null ? `setval(${sqlText(quoted(seq))}, ${Number(start)}, false)` : `setval(${sqlText(quoted(seq))}, ${Number(last)}, true)`));
    if (seqs.length) await tx.query(`SELECT ${seqs.join(', ')}`, []);
    return found;
  });
  maker?.want(restored.id);
  return { name, taken: restored.taken, records: restored.counts };
}

/** Tries of {@link lockRecordTables}, each waiting at most LOCK_WAIT_MS: about 10 s in all. */
const LOCK_TRIES = 200;
const LOCK_WAIT_MS = 50;

/**
 * Takes the record tables for the rest of the transaction (PostgreSQL server, where other connections write): a
 * write in flight finishes first, a later one waits for the restore, so none is half undone nor left beside the
 * snapshot's rows (where its keys would collide). Each try waits {@link LOCK_WAIT_MS}, well below the server's
 * deadlock check (1 s by default), so a writer holding one table while it waits for another is never the one aborted.
 */
async function lockRecordTables(tx: Queryable, tables: readonly string[]): Promise<void> {
  await tx.query(`SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'`, []);
  for (let attempt = 1; ; attempt++) {
    await tx.query('SAVEPOINT tpp_lock', []);
    try {
      await tx.query(`LOCK TABLE ${tables.map(quoted).join(', ')} IN ACCESS EXCLUSIVE MODE`, []);
      await tx.query('RELEASE SAVEPOINT tpp_lock', []);
      await tx.query('SET LOCAL lock_timeout = 0', []);
      return;
    } catch (err) {
      await tx.query('ROLLBACK TO SAVEPOINT tpp_lock', []);
      if (sqlState(err) !== LOCK_NOT_AVAILABLE || attempt >= LOCK_TRIES) throw err;
    }
  }
}

/** Empties every record table and loads the snapshot's rows back, parents first, inside the caller's transaction. */
async function copyBack(db: SandboxDb, tx: Queryable, found: Found, rows: readonly CatalogRow[]): Promise<void> {
  if (db.kind === 'postgres') await lockRecordTables(tx, recordTables(rows));
  await emptyTables(db, tx, false);
  // The rows come from one consistent copy of every table, so their references hold already: PGlite (where the
  // sandbox is superuser) skips checking them again row by row, which is most of a restore's time. A PostgreSQL
  // server's role may not be allowed to, so there they are checked.
  if (db.kind === 'pglite') await tx.query("SET LOCAL session_replication_role = 'replica'", []);
  for (const t of parentsFirst(recordTables(rows), rows)) if ((found.counts[t] ?? 0) > 0) await tx.query(`INSERT INTO ${quoted(t)} SELECT * FROM ${copyOf(found.id, t)}`, []);
}
