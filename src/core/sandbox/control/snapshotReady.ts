import type { Queryable, SandboxDb } from '../db/database';
import { quoted } from './data';

/**
 * The ready copy of one snapshot (docs/testing-your-application.md, Snapshots), embedded sandbox only: the
 * snapshot's rows already in tables exactly like the record tables (columns, defaults, checks, keys, indexes and
 * references under the names the schema gives them), in schema `tpp_ready`. A restore of that snapshot then renames
 * these tables into place instead of copying rows into indexed tables (which is most of a copying restore's time:
 * every row inserted into every index), and the copy is made again in the background, from the snapshot's own tables,
 * which nothing writes, so a second restore finds it ready too.
 *
 * Only for PGlite: there this process is the database's one user, so the copy is made while its tests run. A
 * PostgreSQL server is shared by several sandboxes, which would race for one schema: there a restore copies rows.
 *
 * One ready copy at a time (the snapshot restored or taken last): it costs the room of one more copy of the records.
 * `tpp_snapshots.ready` names the snapshot whose copy is complete; while it is being made the row is absent and no
 * restore uses the schema. Every snapshot call checks that row inside its own transaction, so a copy is used only
 * when it is complete and of a snapshot that still exists (taking a snapshot again under its name, or deleting it,
 * drops its ready copy).
 */

/** Milliseconds without another snapshot call before the copy is made: a test's run, not a burst of calls. */
export const READY_DELAY_MS = 300;
/** Pages of a snapshot table copied per statement: PGlite blocks the event loop for a statement's length. */
const PAGES_PER_STEP = 128;
const READY = 'tpp_ready';
const READY_ROW = 'tpp_snapshots.ready';

const inReady = (table: string): string => `${READY}."${table.replace(/"/g, '""')}"`;

/** Creates the bookkeeping table of the ready copy (a database of an earlier version has none). */
export async function prepareReadyTable(db: Queryable): Promise<void> {
  await db.query(`CREATE TABLE IF NOT EXISTS ${READY_ROW} (snapshot integer NOT NULL, version integer NOT NULL)`);
}

const schemaVersion = async (tx: Queryable): Promise<number> =>
  Number((await tx.query<{ v: number | null }>('SELECT max(version) AS v FROM tpp.schema_version', [])).rows[0]?.v ?? 0);

/** Drops the ready copy when it is the one of snapshot `id` (taken again or deleted), inside the caller's transaction. */
export async function dropReadyOf(tx: Queryable, id: number): Promise<void> {
  const { rows } = await tx.query<{ snapshot: number }>(`SELECT snapshot FROM ${READY_ROW}`, []);
  if (!rows.some((r) => r.snapshot === id)) return;
  await tx.query(`DELETE FROM ${READY_ROW}`, []);
  await tx.query(`DROP SCHEMA IF EXISTS ${READY} CASCADE`, []);
}

/**
 * Puts the ready copy of snapshot `id` in place of the record tables `tables`, inside the caller's transaction:
 * the record tables dropped, the copy's tables moved into `tpp` (their indexes, keys and references go with them), the
 * id counters a record table owns handed over to its successor. Returns false, changing nothing, when there is no
 * complete copy of that snapshot for this schema version, or when moving it fails; the caller then copies rows.
 */
export async function swapInReady(tx: Queryable, id: number, tables: readonly string[]): Promise<boolean> {
  const ready = (await tx.query<{ snapshot: number; version: number; current: number }>(`SELECT snapshot, version, (SELECT max(version) FROM tpp.schema_version) AS current FROM ${READY_ROW}`, [])).rows;
  if (ready.length !== 1 || ready[0]?.snapshot !== id || ready[0].version !== Number(ready[0].current)) return false;
  await tx.query('SAVEPOINT tpp_swap', []);
  try {
    // A serial column's counter belongs to its table: dropping the table would drop the counter.
    const owned = (
      await tx.query<{ seq: string; tab: string; col: string }>(
        `SELECT s.relname AS seq, t.relname AS tab, a.attname AS col FROM pg_depend d
           JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S' JOIN pg_class t ON t.oid = d.refobjid
           JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
         WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype = 'a' AND t.relnamespace = 'tpp'::regnamespace`,
        [],
      )
    ).rows.filter((o) => tables.includes(o.tab));
    // One text of several statements (no parameters): one call into the database instead of one per statement.
    await tx.query(
      [
        ...owned.map((o) => `ALTER SEQUENCE ${quoted(o.seq)} OWNED BY NONE`),
        `DROP TABLE ${tables.map(quoted).join(', ')}`,
        ...tables.map((t) => `ALTER TABLE ${inReady(t)} SET SCHEMA tpp`),
        ...owned.map((o) => `ALTER SEQUENCE ${quoted(o.seq)} OWNED BY ${quoted(o.tab)}."${o.col.replace(/"/g, '""')}"`),
        `DELETE FROM ${READY_ROW}`,
        'RELEASE SAVEPOINT tpp_swap',
      ].join(';\n'),
    );
    return true;
  } catch {
    // Something the copy cannot stand in for (a table missing from it, an object depending on a record table).
    await tx.query('ROLLBACK TO SAVEPOINT tpp_swap', []);
    return false;
  }
}

/** One step of making a ready copy: a statement or a short transaction. */
type Step = (db: SandboxDb) => Promise<unknown>;

/** The constraints (keys first, references last) and plain indexes of the record table `table`, as SQL on its copy. */
async function structureOf(db: SandboxDb, table: string): Promise<{ keys: string[]; references: string[] }> {
  const { rows } = await db.query<{ name: string; type: string; def: string }>(
    `SELECT k.conname AS name, k.contype AS type, pg_get_constraintdef(k.oid) AS def FROM pg_constraint k
       WHERE k.conrelid = $1::regclass AND k.contype IN ('p', 'u', 'f', 'x')
     UNION ALL SELECT NULL, 'i', pg_get_indexdef(i.indexrelid) FROM pg_index i
       WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)`,
    [quoted(table)],
  );
  const target = inReady(table);
  const add = (r: { name: string; def: string }) => `ALTER TABLE ${target} ADD CONSTRAINT "${r.name.replace(/"/g, '""')}" ${r.def}`;
  const keys = rows.filter((r) => r.type !== 'f' && r.type !== 'i').map(add);
  // pg_get_indexdef names the table `tpp.<table>` (tpp is never on the search path): the copy's table instead.
  const indexes = rows.filter((r) => r.type === 'i').map((r) => r.def.replace(/ ON (ONLY )?tpp\.("(?:[^"]|"")+"|\w+) USING /, ` ON $1${target} USING `));
  const references = rows.filter((r) => r.type === 'f').map((r) => add({ ...r, def: r.def.replace(/ REFERENCES tpp\./, ` REFERENCES ${READY}.`) }));
  return { keys: [...keys, ...indexes], references };
}

/**
 * The steps that make the ready copy of snapshot `id` from its tables (`copyOf(t)` names the snapshot's table of
 * record table `t`; `counts` its rows per table): the copy's empty tables, the rows a few pages per statement, then
 * keys and indexes (built once over all rows, cheaper than growing them row by row), references, and the row saying
 * the copy is complete.
 */
export async function readySteps(db: SandboxDb, id: number, tables: readonly string[], counts: Readonly<Record<string, number>>, copyOf: (t: string) => string): Promise<Step[]> {
  const current = (await db.query<{ snapshot: number; version: number }>(`SELECT snapshot, version FROM ${READY_ROW}`, [])).rows;
  if (current.length === 1 && current[0]?.snapshot === id && current[0].version === (await schemaVersion(db))) return [];
  const steps: Step[] = [
    (d) =>
      d.transaction(async (tx) => {
        await tx.query(`DELETE FROM ${READY_ROW}`, []);
        await tx.query(`DROP SCHEMA IF EXISTS ${READY} CASCADE`, []);
        await tx.query(`CREATE SCHEMA ${READY}`, []);
        for (const t of tables) await tx.query(`CREATE TABLE ${inReady(t)} (LIKE ${quoted(t)} INCLUDING ALL EXCLUDING INDEXES)`, []);
      }),
  ];
  const references: string[] = [];
  for (const t of tables) {
    if ((counts[t] ?? 0) > 0) {
      const pages = Number((await db.query<{ n: number }>(`SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS n`, [copyOf(t)])).rows[0]?.n ?? 0);
      for (let from = 0; from <= pages; from += PAGES_PER_STEP)
        steps.push((d) => d.query(`INSERT INTO ${inReady(t)} SELECT * FROM ${copyOf(t)} WHERE ctid >= '(${from},0)'::tid AND ctid < '(${from + PAGES_PER_STEP},0)'::tid`, []));
    }
    const s = await structureOf(db, t);
    for (const sql of s.keys) steps.push((d) => d.query(sql, []));
    references.push(...s.references);
  }
  for (const sql of references) steps.push((d) => d.query(sql, []));
  steps.push((d) =>
    d.transaction(async (tx) => {
      // The snapshot may have been deleted or taken again meanwhile (its tables then went, and this copy is stale).
      const alive = (await tx.query('SELECT 1 FROM tpp_snapshots.list WHERE id = $1', [id])).rows.length > 0;
      if (alive) await tx.query(`INSERT INTO ${READY_ROW} (snapshot, version) VALUES ($1, $2)`, [id, await schemaVersion(tx)]);
    }),
  );
  return steps;
}

/**
 * Makes ready copies in the background, one at a time, {@link READY_DELAY_MS} after the last snapshot call, a step
 * at a time (a request waits behind one step at most); any snapshot call stops the copy being made at its next step.
 * A failure (the database closed, the snapshot gone) ends it quietly: the next restore copies rows.
 */
export class ReadyMaker {
  private timer: NodeJS.Timeout | undefined;
  private epoch = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    /** The database as opened: writes here are to bookkeeping tables no answer is built from. */
    private readonly db: SandboxDb,
    private readonly plan: (db: SandboxDb, id: number) => Promise<Step[]>,
    private readonly delayMs = READY_DELAY_MS,
  ) {}

  /** A snapshot call starts: the copy being made stops at its next step. */
  stop(): void {
    this.epoch++;
    clearTimeout(this.timer);
  }

  /** Makes the ready copy of snapshot `id` once snapshot calls pause. */
  want(id: number): void {
    this.stop();
    const epoch = this.epoch;
    this.timer = setTimeout(() => void (this.queue = this.queue.then(() => this.make(id, epoch))), this.delayMs);
    this.timer.unref();
  }

  /** Resolves once the copy being made (if any) has stopped or finished. */
  idle(): Promise<void> {
    return this.queue;
  }

  private async make(id: number, epoch: number): Promise<void> {
    try {
      if (epoch !== this.epoch) return;
      for (const step of await this.plan(this.db, id)) {
        if (epoch !== this.epoch) return;
        await step(this.db);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch {
      // closed or gone: a restore without a ready copy copies rows
    }
  }
}
