import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import { x as untar } from 'tar';
import { LATEST_VERSION, MIGRATIONS } from './migrations';

/**
 * The template every new embedded cluster is made from (docs/sandbox.md, Storage): a gzip tarball of a PGlite data
 * directory just initialised and migrated to {@link LATEST_VERSION}, loaded with PGlite's `loadDataDir` in memory, or
 * unpacked as files into a new data directory ({@link unpackTemplate}), instead of running initdb. WebAssembly memory never shrinks, so the process
 * that ran initdb keeps its peak (about 700 MB) for as long as it lives; one that loads the template stays near
 * the size of an existing cluster.
 *
 * scripts/build.mjs makes it once, next to PGlite's assets in dist/ ({@link writePgliteTemplate}). When running from
 * source there is none there: the first process to need one makes it with initdb and keeps it in the per-machine
 * cache ({@link templateCacheDir}) for every later process. The file is named by {@link templateKey}, so a template
 * of other migrations or another PGlite build is never loaded.
 */

/** The name of the template for the migrations of this build and the PGlite assets in `assetDir`. */
export function templateFileName(assetDir: string): string {
  return `pglite-template-${templateKey(assetDir)}.tar.gz`;
}

/**
 * 12 hex digits naming what a template depends on: the schema (every migration's SQL) and the PGlite build (the
 * sizes of its `pglite.wasm` and `pglite.data` in `assetDir`, which differ between releases).
 */
export function templateKey(assetDir: string): string {
  const h = createHash('sha256');
  h.update(String(LATEST_VERSION));
  for (const m of MIGRATIONS) h.update(`\0${m.version}\0${m.sql}`);
  for (const f of ['pglite.wasm', 'pglite.data']) h.update(`\0${statSync(join(assetDir, f)).size}`);
  return h.digest('hex').slice(0, 12);
}

/**
 * The per-machine cache of templates: `$XDG_CACHE_HOME/tpp`, else the platform's cache directory
 * (`~/Library/Caches/tpp`, `%LOCALAPPDATA%\tpp`, `~/.cache/tpp`).
 */
export function templateCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'tpp');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'tpp');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'tpp');
  return join(homedir(), '.cache', 'tpp');
}

/** Where the template was found (not its bytes: they are read for each new cluster, and not kept after). */
let found: { key: string; file: string | undefined } | undefined;

/**
 * The template's bytes: from `assetDir` (the shipped one), else from the per-machine cache; undefined when neither
 * has it. Looked up once per process, read at each call. Never throws.
 */
export async function readTemplate(assetDir: string): Promise<Uint8Array | undefined> {
  const file = templateFile(assetDir);
  try {
    return file ? new Uint8Array(readFileSync(file)) : undefined;
  } catch {
    found = undefined; // unreadable: initdb, and look again next time
    return undefined;
  }
}

/** The template's file (see {@link readTemplate}), undefined when there is none. Never throws. */
export function templateFile(assetDir: string): string | undefined {
  let name: string;
  try {
    name = templateFileName(assetDir);
  } catch {
    return undefined;
  }
  const places = [assetDir, templateCacheDir()];
  const key = [...places, name].join('\0');
  if (found?.key !== key) found = { key, file: places.map((dir) => join(dir, name)).find((file) => existsSync(file)) };
  return found.file;
}

/** The script that unpacks a template in a process of its own (./unpackMain.ts), shipped next to the bundles. */
export const UNPACK_SCRIPT = 'sandbox-unpack.js';

/**
 * {@link unpackTemplate} of the template `file`, in a short-lived process of its own when `scriptDir` holds
 * {@link UNPACK_SCRIPT} (dist/, next to the sandbox's bundle), else in this process (running from source). Streaming
 * a thousand files through gzip and tar leaves the process that does it about 20 MiB larger for as long as it lives
 * (memory freed that the allocator keeps: 160 against 138 MiB idle after a first start, docs/sandbox.md), and the
 * sandbox's serving process lives long.
 * @throws Error with the unpacker's reason (a damaged tarball, a full disk); the caller falls back as for unpackTemplate
 */
export async function unpackTemplateFile(file: string, pgdata: string, scriptDir: string = __dirname): Promise<void> {
  const script = join(scriptDir, UNPACK_SCRIPT);
  if (!existsSync(script)) return unpackTemplate(new Uint8Array(readFileSync(file)), pgdata);
  await new Promise<void>((resolve, reject) => {
    // The editor's sandbox process is Electron's binary run as Node (ELECTRON_RUN_AS_NODE); so is this one.
    execFile(process.execPath, [script, file, pgdata], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: UNPACK_TIMEOUT_MS, windowsHide: true }, (err, _out, stderr) => {
      if (!err) return resolve();
      const why = stderr.trim().split('\n').pop() || err.message;
      reject(new Error(`unpacking the template of new clusters failed: ${why}`));
    });
  });
}

/** Longest an unpacking process may take, in milliseconds (it takes about 0.6 s). */
const UNPACK_TIMEOUT_MS = 60_000;

/** Forgets a template that PGlite could not load (a damaged cache file), and removes it from the cache. */
export function dropTemplate(assetDir: string): void {
  found = undefined;
  try {
    rmSync(join(templateCacheDir(), templateFileName(assetDir)), { force: true });
  } catch {
    // the next process tries again
  }
}

/**
 * Writes the template of `pg` (a cluster just initialised and migrated, nothing else in it) as `dir/<name>`, through
 * a temporary file renamed into place so that a reader never sees half of it. Throws on a write error.
 */
export async function writeTemplateOf(pg: PGlite, dir: string, name: string): Promise<string> {
  // A checkpoint first, so that a cluster made from the template starts without replaying the migrations' WAL.
  await pg.exec('CHECKPOINT');
  const blob = await pg.dumpDataDir('gzip');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, new Uint8Array(await blob.arrayBuffer()));
  renameSync(tmp, file);
  return file;
}

/** Keeps the template of `pg` in the per-machine cache for the next processes; a failure only costs them initdb. */
export async function cacheTemplateOf(pg: PGlite, assetDir: string): Promise<void> {
  try {
    const name = templateFileName(assetDir);
    await writeTemplateOf(pg, templateCacheDir(), name);
    found = undefined;
  } catch {
    // an unwritable cache: every process runs initdb, as without a template
  }
}

/**
 * Unpacks the template into `pgdata`, the directory of a new cluster (node-tar, gzip detected), so that PGlite opens
 * it as an existing cluster: its `loadDataDir` would copy every file through the Emscripten file system and hold the
 * tarball in memory meanwhile. Goes through `<pgdata>.new` and a rename, so a process killed midway leaves no half
 * cluster (PG_VERSION is absent: the next start unpacks again). The template's `postmaster.pid` is left out.
 * Throws when the tarball is damaged or the disk is full; the caller then falls back to `loadDataDir` or initdb.
 */
export async function unpackTemplate(template: Uint8Array, pgdata: string): Promise<void> {
  const staging = `${pgdata}.new`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // Streamed (the unpacked cluster is never whole in memory) and without restoring modification times: about 0.6 s
  // instead of 1.0-1.3 s for its thousand files.
  const bytes = Buffer.from(template.buffer, template.byteOffset, template.byteLength);
  await pipeline(Readable.from([bytes]), untar({ cwd: staging, noMtime: true, filter: (path) => !path.endsWith('postmaster.pid') }));
  rmSync(pgdata, { recursive: true, force: true });
  renameSync(staging, pgdata);
}
