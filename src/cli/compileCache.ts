import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module = require('node:module');
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import * as vm from 'node:vm';

/**
 * V8's code cache for the `tpp` command bundles (dist/cli-<name>.js), so that a second `tpp validate` does not
 * parse and compile its 300 KB again (start-up ≤ 1.5× a bare `node`).
 *
 * Node 22.1 and later have it built in (`module.enableCompileCache`): {@link enableCompileCache} turns it on. On
 * Node 20 (this project's machines and CI) {@link requireBundle} loads the bundle through a `vm.Script` given the
 * cached data of the last run, and {@link saveCompileCache} writes V8's data once the command has run, so the
 * cache also holds the functions compiled while it ran (V8 compiles most functions lazily, on their first call).
 * The library `v8-compile-cache` was not used: it hooks the compilation of every module of the process (so also
 * dist/sandbox.js, whose PGlite needs a dynamic `import()`) and produces its data before the code runs, so
 * without the lazily compiled functions.
 *
 * A bundle loaded here must not use a dynamic `import()`: on Node 20 a script compiled from cached data loses its
 * import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so none is given and `import()` fails on every run
 * alike. scripts/build.mjs checks it for the bundles it loads this way.
 *
 * The cache lives in `$TPP_COMPILE_CACHE_DIR`, else `$XDG_CACHE_HOME/tpp`, else `<OS temp dir>/tpp-<uid>`, never
 * in the project. `TPP_COMPILE_CACHE=0` turns it off. A missing, unwritable or corrupt cache falls back silently
 * to a normal load: V8 rejects data that does not match the source (each file is also named by the Node version
 * and the bundle's size and time of change), and every error of the cache itself is ignored.
 */

/** The directory of the cache for `env` (see the module's comment); undefined when `TPP_COMPILE_CACHE=0`. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TPP_COMPILE_CACHE === '0') return undefined;
  if (env.TPP_COMPILE_CACHE_DIR) return env.TPP_COMPILE_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'tpp');
  return join(tmpdir(), `tpp-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`);
}

const nodeModule = Module as unknown as { enableCompileCache?: (dir?: string) => unknown };

/**
 * Turns on Node's own compile cache (Node 22.1 and later) in `dir`, made first with mode 0700 when missing, and only
 * when it is this user's own directory that nobody else may write to ({@link ownDirectory}, the check the Node 20
 * path makes too: another user of a shared machine could create `<tmp>/tpp-<uid>` first and plant compiled code).
 * Returns true when Node has such a cache: the bundles are then loaded with a plain `require`. Never throws.
 * `node` is Node's `module` (tests give a stand-in).
 */
export function enableCompileCache(dir: string | undefined = compileCacheDir(), node: { enableCompileCache?: (dir?: string) => unknown } = nodeModule): boolean {
  if (typeof node.enableCompileCache !== 'function') return false;
  try {
    if (dir) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (ownDirectory(dir)) node.enableCompileCache(dir);
    }
  } catch {
    // A cache that cannot be used only makes the start slower.
  }
  return true;
}

/** How a bundle was loaded: with cached data V8 accepted, without data (none yet), with data V8 rejected, or by a plain `require`. */
export type CacheUse = 'used' | 'none' | 'rejected' | 'plain';
const loads: { file: string; cache: CacheUse }[] = [];

/** How each bundle loaded by {@link requireBundle} in this process used the cache, in load order. */
export function compileCacheReport(): readonly { readonly file: string; readonly cache: CacheUse }[] {
  return loads.map((l) => ({ ...l }));
}

interface Pending {
  readonly script: vm.Script;
  readonly file: string;
  readonly dir: string;
  /** Where its data goes ({@link cacheFileOf}, computed when it was loaded). */
  readonly cacheFile: string;
}
const pending: Pending[] = [];

/**
 * Where the cached data of `file` is kept in `dir`: named by the Node version, the file's size and its time of
 * change, so a rebuilt bundle never meets the data of the one before (hashing the 300 KB source would cost more
 * than the cache saves; V8 checks the source's length and its own version and flags on top).
 */
function cacheFileOf(dir: string, file: string): string {
  const { size, mtimeMs } = statSync(file);
  return join(dir, `${basename(file, '.js')}-${process.version}-${process.arch}-${size}-${Math.round(mtimeMs)}.v8`);
}

/**
 * True when `dir` is a directory owned by this process's user that neither its group nor others may write to (always
 * on systems without user ids): compiled code is run from it.
 */
function ownDirectory(dir: string): boolean {
  const st = statSync(dir);
  return st.isDirectory() && (typeof process.getuid !== 'function' || (st.uid === process.getuid() && (st.mode & 0o022) === 0));
}

/**
 * Loads the CommonJS file `file` (an absolute path) as `require` does, once per process (it is kept in
 * `require.cache`), compiled with the cached data kept in `dir` when there is some that V8 accepts. Without a
 * `dir`, or on a Node with its own compile cache, it is a plain `require`. The file must not use `import()`.
 * Errors thrown by the module itself are thrown as they are; errors of the cache are ignored.
 * @returns the module's `exports`
 */
export function requireBundle(file: string, dir: string | undefined = compileCacheDir()): unknown {
  const known = require.cache[file];
  if (known) return known.exports;
  if (!dir || typeof nodeModule.enableCompileCache === 'function') {
    loads.push({ file, cache: 'plain' });
    return require(file);
  }
  const cacheFile = cacheFileOf(dir, file);
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    // Compiled code is only taken from a directory of this user's own (another user could make `<tmp>/tpp-<uid>`).
    cachedData = ownDirectory(dir) ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  // A #! line is only allowed at the very start of a script: keep the line (for line numbers) as a comment.
  const body = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  const script = new vm.Script(Module.wrap(body), { filename: file, cachedData });
  const cache: CacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  loads.push({ file, cache });
  if (cache !== 'used') pending.push({ script, file, dir, cacheFile });

  const mod = new Module(file, require.main);
  mod.filename = file;
  require.cache[file] = mod;
  try {
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void;
    wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, dirname(file));
    mod.loaded = true;
  } catch (err) {
    delete require.cache[file];
    throw err;
  }
  return mod.exports;
}

/**
 * Writes the cached data of the bundles {@link requireBundle} compiled without usable data, replacing older
 * data of the same bundle (another build). Call it when the command has run. Never throws.
 */
export function saveCompileCache(): void {
  for (const { script, file, dir, cacheFile } of pending.splice(0)) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!ownDirectory(dir)) continue;
      const prefix = `${basename(file, '.js')}-`;
      for (const old of readdirSync(dir)) if (old.startsWith(prefix) && old.endsWith('.v8') && join(dir, old) !== cacheFile) rmSync(join(dir, old), { force: true });
      // Written aside, then renamed: a concurrent `tpp` reads the old data or the new, never half of it.
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
    } catch {
      // An unwritable cache only makes the next start slower.
    }
  }
}
