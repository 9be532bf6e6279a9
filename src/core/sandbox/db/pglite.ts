import { existsSync, mkdirSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PGlite as PGliteType, Transaction } from '@electric-sql/pglite';
import { DataDirInUseError, Queryable, QueryResult, SandboxDataError, SandboxDb, asStorageError, queryableOn } from './database';
import { LATEST_VERSION, migrate } from './migrations';
import { lockDataDir } from './lock';
import { makeScratchDir, removeScratchDir, sweepScratch } from './scratch';
import { inTransaction } from './transaction';
import { cacheTemplateOf, dropTemplate, readTemplate, templateFile, templateFileName, unpackTemplateFile, writeTemplateOf } from './template';

/**
 * The embedded back end: PGlite (PostgreSQL compiled to WebAssembly) in memory or under `<dataDir>/pgdata`.
 * No native module, so the same bundle runs on every platform and inside the editor's Electron runtime.
 *
 * PGlite reads `pglite.wasm`, `initdb.wasm` and `pglite.data` at run time. They are looked up next to the running
 * bundle (`dist/`, where scripts/build.mjs copies them) and else in the installed package, and handed to PGlite
 * explicitly, so bundling never breaks its own path resolution. The compiled WebAssembly modules are kept for the
 * process, so a second instance (tests, a restart after a storage fault) skips compilation. A new cluster (in memory
 * or a new data directory) is made from the migrated template of ./template.ts, not by initdb.
 */

/** Node's WebAssembly global (the project's type libraries do not declare it). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<never> };

interface Assets {
  readonly pglite: never;
  readonly initdb: never;
}
let assets: Promise<Assets> | undefined;

function assetDir(): string {
  if (existsSync(join(__dirname, 'pglite.wasm'))) return __dirname;
  const resolve = require.resolve; // not bundled: only used when running from source (tests, tsx)
  return dirname(resolve('@electric-sql/pglite'));
}

function loadAssets(): Promise<Assets> {
  assets ??= (async () => {
    const dir = assetDir();
    const [pglite, initdb] = await Promise.all([
      WebAssembly.compile(readFileSync(join(dir, 'pglite.wasm'))),
      WebAssembly.compile(readFileSync(join(dir, 'initdb.wasm'))),
    ]);
    return { pglite, initdb };
  })();
  assets.catch(() => (assets = undefined));
  return assets;
}

/** What PGlite and its transactions both offer. */
type PgliteRunner = Pick<Transaction, 'exec' | 'query'>;

/** Runs `sql` on `target`: several statements without parameters (exec), else one statement with them. */
async function run<T>(target: PgliteRunner, sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
  try {
    if (params === undefined) {
      await target.exec(sql);
      return { rows: [] };
    }
    const r = await target.query<T>(sql, params as unknown[]);
    return { rows: r.rows, affectedRows: r.affectedRows };
  } catch (err) {
    throw asStorageError(err);
  }
}

/** File beside `pgdata/` holding the schema version, so that a newer directory is refused before PGlite opens it. */
const VERSION_FILE = 'schema-version';

/** Throws SandboxDataError, touching nothing, when `dataDir` records a schema version this build does not know. */
function checkVersionFile(dataDir: string): void {
  const file = join(dataDir, VERSION_FILE);
  if (!existsSync(file)) return;
  const version = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(version) || version < 1 || version > LATEST_VERSION) {
    throw new SandboxDataError(
      `The sandbox data directory ${dataDir} has schema version ${readFileSync(file, 'utf8').trim()}, which this toolkit does not know (it knows up to ${LATEST_VERSION}). ` +
        'It was left untouched: use a newer toolkit, or another data directory.',
    );
  }
}

/** Where the PGlite cluster lives inside a sandbox data directory (the rest holds the lock and backups). */
export function pgDataDir(dataDir: string): string {
  return join(dataDir, 'pgdata');
}

/**
 * Opens the embedded database: "in memory" without `dataDir`, else under `<dataDir>/pgdata` (created on first
 * use), guarded by a lock so that one process at a time uses it, and migrated to the latest schema.
 * In memory means a scratch directory removed on close (./scratch.ts); when the temporary directory cannot hold it,
 * PGlite's own in-memory file system.
 * Throws {@link DataDirInUseError} when another process holds it, {@link SandboxDataError} when it is corrupt or
 * of an unknown schema version (nothing is changed in it).
 */
export async function openPglite(dataDir?: string): Promise<SandboxDb> {
  if (dataDir) return openCluster(dataDir, dataDir);
  await sweepScratch();
  let scratch: string;
  try {
    scratch = makeScratchDir();
  } catch {
    return openCluster(undefined, 'memory');
  }
  try {
    return await openCluster(scratch, 'memory', () => removeScratchDir(scratch));
  } catch {
    // A full or unwritable temporary directory: the cluster in PGlite's memory instead (a real fault fails again).
    removeScratchDir(scratch);
    return openCluster(undefined, 'memory');
  }
}

/**
 * Opens (making it from the template when new) the cluster under `dataDir`, or in PGlite's memory without it;
 * `where` names it in messages; `removed` is called once it is closed and unlocked.
 */
async function openCluster(dataDir: string | undefined, where: string, removed?: () => void): Promise<SandboxDb> {
  let release: (() => Promise<void>) | undefined;
  let existed = false;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    const unlock = await lockDataDir(dataDir);
    release = removed ? () => unlock().finally(removed) : unlock;
    existed = existsSync(join(pgDataDir(dataDir), 'PG_VERSION'));
    try {
      checkVersionFile(dataDir);
    } catch (err) {
      await release();
      throw err;
    }
  }
  // A new directory gets the template as files, then opens as an existing cluster (./template.ts, unpackTemplateFile).
  const file = existed || !dataDir ? undefined : templateFile(assetDir());
  // PGlite's WebAssembly compiles meanwhile (off this thread) while another process unpacks: a first start waits for
  // the longer of the two, not both. A failure here is met again, and reported, by createPglite.
  if (file) loadAssets().catch(() => undefined);
  const unpacked = dataDir && file ? await unpackTemplateFile(file, pgDataDir(dataDir)).then(() => true, () => false) : false;
  // In memory, or when unpacking failed: PGlite loads the template's bytes (not kept once it started).
  let template = existed || unpacked ? undefined : await readTemplate(assetDir());
  let pg: PGliteType;
  try {
    pg = await createPglite(dataDir, template).catch((err: unknown) => {
      if (!template) throw err;
      // A template PGlite cannot load (a damaged cache file): forget it, and make this new cluster with initdb.
      dropTemplate(assetDir());
      template = undefined;
      if (dataDir) rmSync(pgDataDir(dataDir), { recursive: true, force: true });
      return createPglite(dataDir, undefined);
    });
  } catch (err) {
    await release?.();
    if (err instanceof DataDirInUseError) throw err;
    throw new SandboxDataError(
      existed
        ? `The sandbox data directory ${where} cannot be opened (${(err as Error).message}). It may be damaged: move it aside and start again (the sandbox then starts empty), or restore a backup. Nothing was deleted.`
        : `The sandbox data directory ${where} cannot be created: ${(err as Error).message}`,
    );
  }
  const db = new PgliteDb(pg, where, release);
  try {
    await migrate(db, where);
    if (dataDir) writeFileSync(join(dataDir, VERSION_FILE), `${LATEST_VERSION}\n`);
    // Made by initdb (no template shipped nor cached, e.g. when running from source): kept for the next processes.
    if (!existed && !template && !unpacked) await cacheTemplateOf(pg, assetDir());
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/** A PGlite instance on `dataDir`'s cluster (in memory without it), made from `template` when given. */
async function createPglite(dataDir: string | undefined, template: Uint8Array | undefined): Promise<PGliteType> {
  const { PGlite } = await import('@electric-sql/pglite');
  const a = await loadAssets();
  return PGlite.create({
    dataDir: dataDir ? pgDataDir(dataDir) : undefined,
    loadDataDir: template ? new Blob([template]) : undefined,
    pgliteWasmModule: a.pglite,
    initdbWasmModule: a.initdb,
    // Backed by the file, read when PGlite unpacks it: no copy of its 6 MB kept for the process.
    fsBundle: await openAsBlob(join(assetDir(), 'pglite.data')),
    startParams: [...PGlite.defaultStartParams, ...MEMORY_SETTINGS],
  });
}

/**
 * PostgreSQL settings that size PGlite's memory. WebAssembly memory is never given back, so every buffer PostgreSQL
 * touches stays resident for the life of the process. Shared buffers: 8 MB instead of 128 MB (WebAssembly memory 128
 * MiB instead of 189, about 65 MiB fewer resident than the default and 20 fewer than 32 MB), since the operating
 * system caches the data files anyway (reads by key measured no slower with 10,000 and 100,000 records, docs/sandbox.md,
 * Storage). WAL buffers follow them (1/32).
 */
export const MEMORY_SETTINGS: readonly string[] = ['-c', 'shared_buffers=8MB'];

/**
 * Makes the template of new clusters (./template.ts) in `dir`, from a cluster made by initdb and migrated; used by
 * scripts/build.mjs. Returns the file written. Throws when PGlite or the write fails.
 */
export async function writePgliteTemplate(dir: string): Promise<string> {
  const pg = await createPglite(undefined, undefined);
  const db = new PgliteDb(pg, 'memory', undefined);
  try {
    await migrate(db, 'memory');
    return await writeTemplateOf(pg, dir, templateFileName(assetDir()));
  } finally {
    await db.close();
  }
}

class PgliteDb implements SandboxDb {
  readonly kind = 'pglite';
  private closed = false;

  constructor(
    private readonly pg: PGliteType,
    readonly where: string,
    private readonly release: (() => Promise<void>) | undefined,
  ) {}

  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
    return run<T>(this.pg, sql, params);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return inTransaction((body) => this.pg.transaction((tx) => body(queryableOn<PgliteRunner>(tx, run))), fn);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (!this.pg.closed) await this.pg.close();
    } finally {
      await this.release?.();
    }
  }
}
