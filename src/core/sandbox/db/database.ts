/**
 * The storage boundary of the Local sandbox: one SQL interface with two back ends, PGlite (PostgreSQL compiled to
 * WebAssembly, embedded, in memory or under a data directory) and a PostgreSQL server (`--database postgres://…`).
 * Both run the same schema ({@link MIGRATIONS}) and the same SQL.
 */

/** Rows of a query and, for INSERT/UPDATE/DELETE, how many rows it touched. */
export interface QueryResult<T> {
  readonly rows: T[];
  readonly affectedRows?: number;
}

/** Something that runs SQL with `$1`-style parameters: the database or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
}

/**
 * The {@link Queryable} of an open transaction: each query is the back end's `run` on the transaction's own
 * connection `conn` (a PGlite transaction, a pooled pg client), as the database's own queries are.
 */
export function queryableOn<C>(conn: C, run: <T>(conn: C, sql: string, params?: readonly unknown[]) => Promise<QueryResult<T>>): Queryable {
  return {
    query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      return run<T>(conn, sql, params);
    },
  };
}

/** An open database of the sandbox. */
export interface SandboxDb extends Queryable {
  /** Which back end: `pglite` (embedded) or `postgres` (a server). */
  readonly kind: 'pglite' | 'postgres';
  /** Human-readable location: the data directory, `memory`, or the server URL without its password. */
  readonly where: string;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws (the error is rethrown). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Closes the database (idempotent). */
  close(): Promise<void>;
}

/** PostgreSQL SQLSTATE of a unique-constraint violation. */
export const UNIQUE_VIOLATION = '23505';
/** PostgreSQL SQLSTATE of a CHECK-constraint violation. */
export const CHECK_VIOLATION = '23514';

/** The SQLSTATE of a database error (`code` on both pg and PGlite errors), or undefined. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** The constraint a database error names (pg and PGlite both set `constraint`), or undefined. */
export function constraintOf(err: unknown): string | undefined {
  const c = (err as { constraint?: unknown } | null)?.constraint;
  return typeof c === 'string' ? c : undefined;
}

/**
 * Storage failed (disk full, read-only directory, lost connection, database error): the write was not stored.
 * The server answers 503 with Retry-After.
 */
export class StorageError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StorageError';
  }
}

/**
 * The data directory (or database) cannot be used: corrupt, of an unknown or newer schema version, or not a
 * sandbox database. Nothing was changed in it. The message names it and says what to do.
 */
export class SandboxDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxDataError';
  }
}

/** Another process holds the data directory. */
export class DataDirInUseError extends Error {
  constructor(dir: string) {
    super(`The sandbox data directory ${dir} is in use by another process`);
    this.name = 'DataDirInUse';
  }
}

/**
 * SQLSTATE classes that mean the storage itself failed rather than the request: connection (08), insufficient
 * resources such as a full disk (53), operator intervention (57), system/I/O error (58), internal error (XX).
 */
const STORAGE_CLASSES = new Set(['08', '53', '57', '58', 'XX']);

/**
 * Classifies an error thrown by a database call: a storage failure (an I/O or resource SQLSTATE, or an error with no
 * SQLSTATE at all: network, WebAssembly abort, closed database) becomes a {@link StorageError}; an error about the
 * statement or its data (a constraint violation, …) is returned unchanged for the caller to map.
 */
export function asStorageError(err: unknown): unknown {
  if (err instanceof StorageError) return err;
  const state = sqlState(err);
  if (state !== undefined && !STORAGE_CLASSES.has(state.slice(0, 2))) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new StorageError(`Storage failed: ${message}`, err);
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

