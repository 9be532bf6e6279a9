import { strict as assert } from 'node:assert';
import { constraintOf, type SandboxDb } from '../../../src/core/sandbox/db/database';
import { openPglite } from '../../../src/core/sandbox/db/pglite';
import { OpsContext } from '../../../src/core/sandbox/ops/common';
import { upsertPartner } from '../../../src/core/sandbox/ops/partners';
import { seedSample } from '../../../src/core/sandbox/control/data';
import { deleteSnapshot, restoreSnapshot, takeSnapshot } from '../../../src/core/sandbox/control/snapshots';
import { newKey } from './helpers';

/**
 * A restore from a snapshot's ready copy (docs/testing-your-application.md, Snapshots): the copy's tables renamed into
 * place must leave the records exactly as a copying restore does (rows, counters) and the schema exactly as the
 * migrations made it (keys, checks, references, indexes and counters under their names, which the sandbox's answers
 * depend on: a duplicate invoice number is told by its constraint's name), and the snapshot must stay restorable.
 */
describe('Local sandbox: restore from a ready copy (embedded)', function () {
  this.timeout(120_000);
  let db: SandboxDb;
  beforeEach(async () => {
    db = await openPglite();
    const c = new OpsContext(db, Date.now, 12);
    await seedSample(c, await upsertPartner(c, 'P1', newKey().spkiPem, 'P1'), 300);
  });
  afterEach(() => db.close());

  const one = async <T>(sql: string): Promise<T> => (await db.query<T>(sql, [])).rows[0] as T;
  const counts = () => one<Record<string, number>>(`SELECT (SELECT count(*) FROM tpp.registrations)::int AS registrations, (SELECT count(*) FROM tpp.claims)::int AS claims, (SELECT count(*) FROM tpp.cancellations)::int AS cancellations, (SELECT count(*) FROM tpp.parts)::int AS parts`);
  const readyFor = async () => (await db.query<{ snapshot: number }>('SELECT snapshot FROM tpp_snapshots.ready', [])).rows[0]?.snapshot;
  /** Waits until the ready copy of some snapshot is complete (made in the background once calls pause). */
  const ready = async () => {
    for (let i = 0; i < 3000 && (await readyFor()) === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    assert.notEqual(await readyFor(), undefined, 'the ready copy was made');
  };
  /** Every key, check, reference, index, default and owned counter of the tpp schema, by name. */
  const shape = async () =>
    (
      await db.query<{ row: string }>(
        `SELECT c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid) AS row FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid WHERE c.relnamespace = 'tpp'::regnamespace
         UNION ALL SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relnamespace = 'tpp'::regnamespace
         UNION ALL SELECT c.relname || '.' || a.attname || ' default ' || pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE c.relnamespace = 'tpp'::regnamespace
         UNION ALL SELECT s.relname || ' owned by ' || t.relname FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S' JOIN pg_class t ON t.oid = d.refobjid WHERE d.deptype = 'a' AND t.relnamespace = 'tpp'::regnamespace
         ORDER BY 1`,
        [],
      )
    ).rows.map((r) => r.row);

  it('renames the ready copy into place: same rows and counters, same schema, and the copy is made again', async () => {
    const before = await shape();
    const taken = await takeSnapshot(db, 'base', Date.now());
    const rows = await counts();
    await ready();
    await db.query("DELETE FROM tpp.parts; DELETE FROM tpp.cancellations; SELECT setval('tpp.claim_id_seq', 90000)");
    const nextClaim = await one<{ n: number }>("SELECT nextval('tpp.claim_id_seq')::int AS n");
    assert.ok(nextClaim.n > 90000);
    const restored = await restoreSnapshot(db, 'base');
    assert.equal(await readyFor(), undefined, 'the ready copy was used (it is made again later)');
    assert.deepEqual(restored.records, taken.records);
    assert.deepEqual(await counts(), rows);
    assert.deepEqual(await shape(), before, 'keys, indexes, defaults and counters as the migrations made them');
    // The constraint the answers depend on still has its name, and a reference still holds.
    const dup = await db.query("INSERT INTO tpp.registrations SELECT * FROM tpp.registrations LIMIT 1").catch((e: unknown) => e);
    assert.ok(['registrations_pkey', 'registrations_position', 'registrations_invoice', 'registrations_registration_id_key'].includes(constraintOf(dup) ?? ''), String(dup));
    await assert.rejects(db.query("INSERT INTO tpp.claims (partner, registration, source, created_date, tire_count, body) VALUES ('P1', 'nope', 'v3', 'x', 1, '{}')"), /foreign key/);
    // The serial counter of parts went with its table: dropping it would have dropped the counter.
    assert.ok((await one<{ n: number }>("SELECT nextval('tpp.parts_seq_seq')::int AS n")).n > 0);
    await ready();
    await db.query('DELETE FROM tpp.cancellations');
    await restoreSnapshot(db, 'base');
    assert.deepEqual(await counts(), rows, 'restored again from the copy made again');
  });

  it('restores twice in a row (the second before its copy is made again) and after a write', async () => {
    await takeSnapshot(db, 'base', Date.now());
    const rows = await counts();
    await ready();
    await restoreSnapshot(db, 'base');
    await db.query('DELETE FROM tpp.cancellations');
    await restoreSnapshot(db, 'base');
    assert.deepEqual(await counts(), rows, 'the second restore copied the rows');
    await db.query('DELETE FROM tpp.cancellations');
    await ready();
    await restoreSnapshot(db, 'base');
    assert.deepEqual(await counts(), rows, 'a write after the restore is undone by the next one');
  });

  it('never uses the copy of a snapshot taken again or deleted', async () => {
    const first = await takeSnapshot(db, 'base', Date.now());
    await ready();
    await db.query('DELETE FROM tpp.cancellations');
    const second = await takeSnapshot(db, 'base', Date.now());
    assert.equal(second.records.cancellations, 0);
    assert.ok((first.records.cancellations ?? 0) > 0);
    assert.equal(await readyFor(), undefined, 'taking it again dropped the stale copy');
    await restoreSnapshot(db, 'base');
    assert.equal((await counts()).cancellations, 0, 'the new state, not the stale copy');
    await ready();
    await deleteSnapshot(db, 'base');
    assert.equal(await readyFor(), undefined);
    assert.equal((await db.query("SELECT 1 FROM pg_namespace WHERE nspname = 'tpp_ready'", [])).rows.length, 0, 'its tables went with it');
  });
});
