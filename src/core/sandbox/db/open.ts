import { SandboxDb } from './database';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

/** Where the sandbox keeps its records (see docs/sandbox.md, Storage). */
export interface StorageOptions {
  /** A PostgreSQL server URL (`postgres://user@host:port/db`): the `tpp` schema there. */
  readonly database?: string;
  /** A data directory for the embedded PGlite database; absent (and no `database`) = in memory. */
  readonly dataDir?: string;
  /** Called with one line about what was done (a migration). */
  readonly log?: (line: string) => void;
}

/**
 * Opens the sandbox's database: a PostgreSQL server with `database`, else PGlite under `dataDir` or in memory.
 * Throws DataDirInUse, SandboxDataError (corrupt, unknown schema version: nothing changed) or a connection error.
 */
export async function openStorage(opts: StorageOptions): Promise<SandboxDb> {
  if (opts.database) return openPostgres(opts.database);
  return openPglite(opts.dataDir);
}
