import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { lockDataDir } from '../../../src/core/sandbox/db/lock';
import { openPglite } from '../../../src/core/sandbox/db/pglite';
import { makeScratchDir, sweepScratch } from '../../../src/core/sandbox/db/scratch';

/**
 * An "in memory" embedded sandbox keeps its cluster as files in a scratch directory (docs/sandbox.md, Storage), so
 * that they are not JavaScript array buffers: removed when it closes, when its process exits, and, after a kill -9,
 * by the next in-memory start; never while a live process uses it.
 */
describe('Local sandbox: in memory as a scratch directory', function () {
  this.timeout(60_000);
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tpp-scratch-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const scratchDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`tpp-sandbox-memory-${process.pid}-`));

  it('holds the cluster in a scratch directory while open, and removes it on close', async () => {
    const before = scratchDirs();
    const db = await openPglite();
    try {
      assert.equal(db.where, 'memory');
      const made = scratchDirs().filter((n) => !before.includes(n));
      assert.equal(made.length, 1, 'one scratch directory for this sandbox');
      assert.ok(existsSync(join(tmpdir(), made[0] as string, 'pgdata', 'PG_VERSION')), 'the cluster is there as files');
      await db.query("INSERT INTO tpp.meta (key, value) VALUES ('k', 'v')", []);
      assert.deepEqual((await db.query<{ value: string }>('SELECT value FROM tpp.meta', [])).rows, [{ value: 'v' }]);
      // PGlite's memory is sized down (MEMORY_SETTINGS): its WebAssembly memory never shrinks.
      assert.deepEqual((await db.query<{ shared_buffers: string }>('SHOW shared_buffers', [])).rows, [{ shared_buffers: '8MB' }]);
    } finally {
      await db.close();
    }
    assert.deepEqual(scratchDirs(), before, 'removed on close');
  });

  /** A child process that makes a scratch directory in `root`, prints it, then runs `then`. */
  function child(then: string): Promise<{ dir: string; exited: Promise<number | null>; kill(): void }> {
    const code = `const s = require(${JSON.stringify(join(__dirname, '../../../src/core/sandbox/db/scratch.ts'))});` + `console.log(s.makeScratchDir(${JSON.stringify(root)})); ${then}`;
    const c = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
    return new Promise((resolve, reject) => {
      createInterface({ input: c.stdout }).once('line', (dir) => resolve({ dir, exited, kill: () => c.kill('SIGKILL') }));
      c.once('exit', () => reject(new Error('the child exited before printing its scratch directory')));
    });
  }

  it('is removed when its process exits without closing it', async () => {
    const c = await child('process.exit(0)');
    await c.exited;
    assert.ok(!existsSync(c.dir), c.dir);
  });

  it('left by a killed process is removed by the next sweep; a live process\'s or a locked one is kept', async () => {
    const killed = await child('setInterval(() => {}, 1000)');
    killed.kill();
    await killed.exited;
    assert.ok(existsSync(killed.dir), 'kill -9 leaves it behind');
    const live = await child('setInterval(() => {}, 1000)');
    // A dead process's directory whose lock is held (by this test): kept.
    const locked = join(root, 'tpp-sandbox-memory-999999999-locked');
    mkdirSync(locked);
    const release = await lockDataDir(locked);
    try {
      const mine = makeScratchDir(root);
      assert.equal(await sweepScratch(root), 1);
      assert.ok(!existsSync(killed.dir), 'the killed process\'s directory was removed');
      assert.ok(existsSync(live.dir), 'a live process\'s directory is kept');
      assert.ok(existsSync(locked), 'a locked directory is kept');
      assert.ok(existsSync(mine), 'this process\'s own is kept');
    } finally {
      await release();
      live.kill();
      await live.exited;
    }
  });
});
