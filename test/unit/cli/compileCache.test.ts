import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileCacheDir, enableCompileCache } from '../../../src/cli/compileCache';

// The code cache of the `tpp` command bundles ("tpp validate ≤ 1.5× bare node"). Each load runs in a
// process of its own, as each `tpp` run does: V8 keeps compiled scripts in memory within a process, which would
// hide whether the data on disk was read.
const moduleUnderTest = join(__dirname, '../../../src/cli/compileCache.ts');
const hasOwnCache = typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

interface Run {
  status: number | null;
  stderr: string;
  value?: unknown;
  report?: { file: string; cache: string }[];
}

/** Loads `file` with requireBundle in a new process (cache in `dir`), saves the cache, and reports. */
function load(file: string, dir: string | undefined, env: NodeJS.ProcessEnv = {}): Run {
  const script = `
    const c = require(${JSON.stringify(moduleUnderTest)});
    Promise.resolve(c.requireBundle(${JSON.stringify(file)}, ${dir === undefined ? 'c.compileCacheDir()' : JSON.stringify(dir)}).value)
      .then((value) => { c.saveCompileCache(); process.stdout.write(JSON.stringify({ value, report: c.compileCacheReport() })); });`;
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30000 });
  return { status: r.status, stderr: r.stderr, ...(r.stdout ? (JSON.parse(r.stdout) as object) : {}) };
}

describe('tpp compile cache (src/cli/compileCache.ts): a second run reuses V8 code, any cache problem falls back to a plain load', function () {
  this.timeout(120000);
  let work: string;
  let bundle: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'tpp-cc-test-'));
    bundle = join(work, 'cli-probe.js');
    // A bundle like dist/cli-*.js: CommonJS, requires a builtin and a relative file.
    writeFileSync(join(work, 'helper.js'), 'module.exports = (s) => s.toUpperCase();\n');
    writeFileSync(bundle, `const up = require('./helper.js');\nconst { sep } = require('node:path');\nexports.value = up('ok') + (sep.length === 1 ? '' : '!');\n`);
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  before(function () {
    if (hasOwnCache) {
      console.log("      skipped: this Node has module.enableCompileCache, which tpp uses instead of its own code cache");
      this.skip();
    }
  });

  it('first run: no data yet, loads, writes one .v8 file; second run: V8 accepts the data', () => {
    const dir = join(work, 'cache', 'deeper');
    const first = load(bundle, dir);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.value, 'OK');
    assert.deepEqual(first.report?.map((r) => r.cache), ['none']);
    const files = readdirSync(dir).filter((f) => f.endsWith('.v8'));
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^cli-probe-/);
    const second = load(bundle, dir);
    assert.equal(second.value, 'OK');
    assert.deepEqual(second.report?.map((r) => r.cache), ['used']);
  });

  it("a cache directory owned by another user is never read (compiled code could be planted there)", function () {
    if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
      console.log('      skipped: giving a directory to another user needs root (chown)');
      this.skip();
    }
    const dir = join(work, 'cache');
    assert.equal(load(bundle, dir).status, 0);
    assert.deepEqual(load(bundle, dir).report?.map((r) => r.cache), ['used']);
    chownSync(dir, 65534, 65534);
    const planted = load(bundle, dir);
    assert.equal(planted.value, 'OK');
    assert.deepEqual(planted.report?.map((r) => r.cache), ['none'], 'data in a directory of another user is not read');
  });

  it('corrupt data: V8 rejects it, the bundle loads normally, and the data is written anew', () => {
    const dir = join(work, 'cache');
    load(bundle, dir);
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), 'not V8 code cache data at all');
    const corrupt = load(bundle, dir);
    assert.equal(corrupt.status, 0, corrupt.stderr);
    assert.equal(corrupt.value, 'OK');
    assert.deepEqual(corrupt.report?.map((r) => r.cache), ['rejected']);
    assert.deepEqual(load(bundle, dir).report?.map((r) => r.cache), ['used']);
  });

  it('unwritable cache (its directory is a file): loads normally, writes nothing, prints nothing', () => {
    const notADir = join(work, 'file');
    writeFileSync(notADir, '');
    const r = load(bundle, join(notADir, 'tpp'));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.value, 'OK');
    assert.equal(r.stderr, '');
    assert.deepEqual(load(bundle, join(notADir, 'tpp')).report?.map((x) => x.cache), ['none']);
  });

  it('a rebuilt bundle (other size or time) never meets the data of the one before; old data is replaced', () => {
    const dir = join(work, 'cache');
    load(bundle, dir);
    writeFileSync(bundle, `exports.value = 'rebuilt';\n`);
    const r = load(bundle, dir);
    assert.equal(r.value, 'rebuilt');
    assert.deepEqual(r.report?.map((x) => x.cache), ['none']);
    assert.equal(readdirSync(dir).length, 1);
  });

  it('a dynamic import() fails on every run alike, cold or warm (Node 20 loses the callback of cached scripts; the build keeps import() out)', () => {
    writeFileSync(bundle, `exports.value = import('node:path').then(() => 'imported', (e) => e.code);\n`);
    const dir = join(work, 'cache');
    assert.equal(load(bundle, dir).value, 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING');
    const warm = load(bundle, dir);
    assert.deepEqual(warm.report?.map((x) => x.cache), ['used']);
    assert.equal(warm.value, 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING');
  });

  it('TPP_COMPILE_CACHE=0 turns it off: a plain require', () => {
    const r = load(bundle, undefined, { TPP_COMPILE_CACHE: '0' });
    assert.equal(r.value, 'OK');
    assert.deepEqual(r.report?.map((x) => x.cache), ['plain']);
  });

  it('an error thrown by the bundle itself is thrown as it is', () => {
    writeFileSync(bundle, `throw new Error('broken bundle');\n`);
    const r = load(bundle, join(work, 'cache'));
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /broken bundle/);
  });
});

describe('tpp compile cache directory: never inside the project', () => {
  it('TPP_COMPILE_CACHE_DIR, else $XDG_CACHE_HOME/tpp, else a tpp directory in the OS temp dir; TPP_COMPILE_CACHE=0: none', () => {
    assert.equal(compileCacheDir({ TPP_COMPILE_CACHE_DIR: '/x/y', XDG_CACHE_HOME: '/c' }), '/x/y');
    assert.equal(compileCacheDir({ XDG_CACHE_HOME: '/c' }), join('/c', 'tpp'));
    assert.ok(compileCacheDir({})!.startsWith(join(tmpdir(), 'tpp-')));
    assert.equal(compileCacheDir({ TPP_COMPILE_CACHE: '0', XDG_CACHE_HOME: '/c' }), undefined);
  });
});

describe('tpp compile cache on Node 22.1+ (module.enableCompileCache): only in a directory of this user alone', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-cc22-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  /** A stand-in for Node's module with its own compile cache, recording where it was turned on. */
  const node = () => {
    const dirs: (string | undefined)[] = [];
    return { dirs, module: { enableCompileCache: (d?: string) => dirs.push(d) } };
  };

  it('makes a missing directory with mode 0700 and turns the cache on there', () => {
    const n = node();
    const target = join(dir, 'cache');
    assert.equal(enableCompileCache(target, n.module), true);
    assert.deepEqual(n.dirs, [target]);
    assert.equal(statSync(target).mode & 0o777, 0o700);
  });

  it('leaves it off in a directory others may write to, or one another user owns', function () {
    const n = node();
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    assert.equal(enableCompileCache(shared, n.module), true, 'plain requires, no cache');
    assert.deepEqual(n.dirs, []);
    if (process.getuid?.() !== 0) {
      console.log('      (the "owned by another user" case needs root to chown; this run is not root)');
      return;
    }
    const theirs = join(dir, 'theirs');
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, 1, 1);
    assert.equal(enableCompileCache(theirs, n.module), true);
    assert.deepEqual(n.dirs, [], 'a directory planted by another user is never used');
  });
});
