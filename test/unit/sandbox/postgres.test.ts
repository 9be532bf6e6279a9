import { strict as assert } from 'node:assert';
import { openPostgres } from '../../../src/core/sandbox/db/postgres';
import { postgresDatabaseOrSkip } from './helpers';

/** The PostgreSQL back end's statements (src/core/sandbox/db/postgres.ts): named once per text, within a bound. */
describe('Local sandbox: PostgreSQL statements', function () {
  this.timeout(60_000);
  it('runs statements with values as named ones up to the bound and unnamed beyond; texts without values as simple queries', async function () {
    const db = await openPostgres(await postgresDatabaseOrSkip(this));
    try {
      for (let round = 0; round < 3; round++) {
        // 150 texts: more than the named bound, each run three times (on whichever pooled connection)
        const answers = await Promise.all(Array.from({ length: 150 }, (_, k) => db.query<{ n: number }>(`SELECT $1::int + ${k} AS n`, [round])));
        assert.deepEqual(answers.map((a) => a.rows[0]?.n), Array.from({ length: 150 }, (_, k) => round + k));
      }
      await db.query('CREATE TEMP TABLE t (x int); INSERT INTO t VALUES (1)');
      assert.equal((await db.query('SELECT 1 AS one', [])).rows.length, 1);
    } finally {
      await db.close();
    }
  });
});
