import { SandboxDb } from './database';
import { importLegacy, legacyFiles } from './legacy';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

/** Where the sandbox keeps its records (see docs/sandbox.md, Storage). */
export interface StorageOptions {
  /** A PostgreSQL server URL (`postgres://user@host:port/db`): the `tpp` schema there. */
  readonly database?: string;
  /** A data directory for the embedded PGlite database; absent (and no `database`) = in memory. */
  readonly dataDir?: string;
  /** Called with one line about what was done (migration, legacy import). */
  readonly log?: (line: string) => void;
}

/**
 * Opens the sandbox's database: a PostgreSQL server with `database`, else PGlite under `dataDir` or in memory.
 * A data directory of the earlier journal format is imported once (its files then kept in `legacy-backup/`).
 * Throws DataDirInUse, SandboxDataError (corrupt, unknown schema version: nothing changed) or a connection error.
 */
export async function openStorage(opts: StorageOptions): Promise<SandboxDb> {
  if (opts.database) return openPostgres(opts.database);
  const db = await openPglite(opts.dataDir);
  if (opts.dataDir && legacyFiles(opts.dataDir).length > 0) {
    try {
      const n = await importLegacy(db, opts.dataDir);
      opts.log?.(`imported ${n} events of the earlier journal format from ${opts.dataDir}; the files are kept in ${opts.dataDir}/legacy-backup`);
    } catch (err) {
      await db.close();
      throw err;
    }
  }
  return db;
}
