import type { Pool, PoolClient } from 'pg';
import { Queryable, QueryResult, SandboxDb, asStorageError, queryableOn, redactUrl } from './database';
import { migrate } from './migrations';
import { inTransaction } from './transaction';

/**
 * The server back end: the same schema and SQL on a PostgreSQL server (`tpp sandbox --database postgres://…`), so
 * a team shares one stateful sandbox. Tables live in the `tpp` schema of the given database. Uses a `pg` pool.
 */

/** Most SQL texts given a statement name per process (a text built with a caller's number must not grow the map). */
const MAX_NAMED_STATEMENTS = 100;
const statementNames = new Map<string, string>();

/**
 * A statement with parameters as a named (prepared) one: the server parses and plans it once per connection instead
 * of on every call (a read by id is mostly that work). Texts beyond {@link MAX_NAMED_STATEMENTS} stay unnamed.
 */
function statement(sql: string, params: readonly unknown[]): { name?: string; text: string; values: unknown[] } {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `tpp_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name ? { name, text: sql, values: params as unknown[] } : { text: sql, values: params as unknown[] };
}

/** Runs `sql` on a pool or one of its clients (without parameters, several statements may be sent). */
async function run<T>(target: Pool | PoolClient, sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
  try {
    // Without parameter values pg sends the text as a simple query (several statements allowed): kept so.
    const r = params === undefined || params.length === 0 ? await target.query(sql, params as unknown[] | undefined) : await target.query(statement(sql, params));
    return { rows: r.rows as T[], affectedRows: r.rowCount ?? undefined };
  } catch (err) {
    throw asStorageError(err);
  }
}

/**
 * Connects to the PostgreSQL server at `url` and migrates the `tpp` schema to the latest version. Throws when the
 * server is unreachable or refuses the login, and {@link SandboxDataError} for an unknown schema version.
 */
export async function openPostgres(url: string): Promise<SandboxDb> {
  const { Pool: PoolCtor, types } = await import('pg');
  // bigint counters fit in a double for any realistic sandbox: read them as numbers like PGlite does.
  types.setTypeParser(20, (v: string) => Number(v));
  const pool: Pool = new PoolCtor({ connectionString: url, max: 8, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => undefined); // an idle client's error: the next query reports it
  const db = new PostgresDb(pool, redactUrl(url));
  try {
    await db.query('SELECT 1');
    await migrate(db, db.where);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

class PostgresDb implements SandboxDb {
  readonly kind = 'postgres';
  private closed = false;

  constructor(
    private readonly pool: Pool,
    readonly where: string,
  ) {}

  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
    return run<T>(this.pool, sql, params);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(async (body) => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        const out = await body(queryableOn<Pool | PoolClient>(client, run));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    }, fn);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
