/**
 * The lock of a backfill's journal (docs/backfills.md, One run at a time; lock/fileLock.ts): next to the journal, so
 * a different $TMPDIR cannot split it; taken atomically by several processes at once; taken over only once its owner
 * is gone; never through a symbolic link.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitFileLock, describeHolder, lockDirOf, lockHolder, takeFileLock } from '../../../src/core/lock/fileLock';
import { bootId, processStart } from '../../../src/core/lock/owner';

const fixture = join(__dirname, 'fixtures', 'take-lock.ts');

/** Runs take-lock.ts; resolves with what it printed, a line per round. */
function racer(dir: string, startAt: number, rounds: number, env: NodeJS.ProcessEnv): Promise<string[]> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', fixture, dir, String(startAt), String(rounds), '25'], { stdio: ['ignore', 'pipe', 'inherit'], env });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((r) => child.once('exit', () => r(out.trim().split('\n'))));
}

/** The pid of a process that has ended. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  return new Promise((r) => child.once('exit', () => r(child.pid as number)));
}

describe('the lock of a journal', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tpp-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is held by one taker at a time, names its holder, and is free again once released', () => {
    const file = join(dir, 'j.jsonl');
    const first = takeFileLock(file, 'tpp run');
    assert.ok(!('held' in first));
    const second = takeFileLock(file, 'tpp run');
    assert.ok('held' in second);
    assert.equal(second.held.owner?.pid, process.pid);
    assert.match(describeHolder(second.held), new RegExp(`pid ${process.pid} on .*tpp run, since`));
    assert.equal(lockHolder(file)?.owner?.pid, process.pid);
    first.release();
    assert.equal(lockHolder(file), undefined);
    const third = takeFileLock(file, 'tpp run');
    assert.ok(!('held' in third));
    third.release();
    assert.deepEqual(readdirSync(lockDirOf(file)).filter((n) => !n.endsWith('.json')), [], 'no record is left behind');
  });

  it('is taken over from a process that is gone, never from one of another machine or a record it cannot read', () => {
    const file = join(dir, 'j.jsonl');
    const lockDir = lockDirOf(file);
    mkdirSync(lockDir);
    const owner = (o: object) => JSON.stringify({ pid: process.pid, boot: bootId(), start: processStart(process.pid) ?? '', host: hostname(), since: '', what: 'x', ...o });
    writeFileSync(join(lockDir, '7.json'), owner({ host: 'another-machine' }));
    const other = takeFileLock(file, 'tpp run');
    assert.ok('held' in other && /another machine \(another-machine\)/.test(other.held.why ?? ''), JSON.stringify(other));
    writeFileSync(join(lockDir, '7.json'), 'not a record');
    const unreadable = takeFileLock(file, 'tpp run');
    assert.ok('held' in unreadable && /cannot be read/.test(unreadable.held.why ?? ''));
    // a pid that names a later process (its start differs) is gone; so is one on an earlier boot of this machine
    writeFileSync(join(lockDir, '7.json'), owner({ start: 'an earlier process' }));
    const reused = takeFileLock(file, 'tpp run');
    if (processStart(process.pid) !== undefined) {
      assert.ok(!('held' in reused), 'a pid used again is not its owner');
      reused.release();
      assert.deepEqual(readdirSync(lockDir), ['8.json'], 'the generations below are removed; the released one stays');
    } else if (!('held' in reused)) reused.release();
  });

  it('three takers racing over a lock left by a killed process: exactly one gets it, the others name it; $TMPDIR does not matter', async () => {
    // Rounds of a race each: the lock of j<r>.jsonl was left by a run that was killed, and three processes, each with
    // its own $TMPDIR, try to take it at the same millisecond.
    const rounds = 40;
    const dead = await deadPid();
    for (let r = 0; r < rounds; r++) {
      mkdirSync(lockDirOf(join(dir, `j${r}.jsonl`)));
      writeFileSync(join(lockDirOf(join(dir, `j${r}.jsonl`)), '1.json'), JSON.stringify({ pid: dead, boot: bootId(), start: '', host: hostname(), since: '', what: 'a run that was killed' }));
    }
    const startAt = Date.now() + 2500;
    const outs = await Promise.all([0, 1, 2].map((i) => racer(dir, startAt, rounds, { ...process.env, TMPDIR: join(dir, `tmp${i}`) })));
    for (let r = 0; r < rounds; r++) {
      const said = outs.map((o) => (o[r] ?? '').replace(/^\d+ /, ''));
      const got = said.filter((o) => o.startsWith('got '));
      assert.equal(got.length, 1, `round ${r}: ${said.join(' | ')}`);
      for (const o of said.filter((x) => !x.startsWith('got '))) assert.equal(o, `held ${(got[0] as string).slice(4)}`, `round ${r}: ${said.join(' | ')}`);
    }
  });

  it('is taken over from a process that ended and awaits its reaping (a zombie), as after a crash in a container', async function () {
    if (process.platform !== 'linux') this.skip(); // /proc tells a zombie
    // `sleep 0.1` ends while its parent, a `sleep 5` (the shell exec'ed into it), never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((r) => parent.stdout.once('data', (d: Buffer) => r(d.toString()))));
      const start = processStart(pid);
      for (let i = 0; i < 100 && !/^\S+ \(sleep\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); i++) await new Promise((r) => setTimeout(r, 20));
      const file = join(dir, 'j.jsonl');
      mkdirSync(lockDirOf(file));
      writeFileSync(join(lockDirOf(file), '1.json'), JSON.stringify({ pid, boot: bootId(), start, host: hostname(), since: '', what: 'a run that was killed' }));
      const taken = takeFileLock(file, 'tpp run');
      assert.ok(!('held' in taken), JSON.stringify(taken));
      taken.release();
    } finally {
      parent.kill();
    }
  });

  it('held by a process whose launcher is gone: named by its launcher, waited for while it dies, then taken over', async () => {
    // As a backfill's row sender is after a `kill -9` of its `tpp run`: alive for a moment, then gone by itself.
    const file = join(dir, 'j.jsonl');
    const launcher = await deadPid();
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = holder.pid as number;
    try {
      mkdirSync(lockDirOf(file));
      const record = { pid, boot: bootId(), start: processStart(pid) ?? '', host: hostname(), since: 'then', what: 'backfill', launcher: { pid: launcher, start: '', what: 'tpp run' } };
      writeFileSync(join(lockDirOf(file), '1.json'), JSON.stringify(record));
      const held = takeFileLock(file, 'backfill');
      assert.ok('held' in held && held.held.dying === true, JSON.stringify(held));
      assert.match(describeHolder(held.held), new RegExp(`^pid ${launcher} on .* \\(tpp run, since then; the lock is held by its process pid ${pid}\\); its tpp run is gone`));
      const late = await awaitFileLock(file, 'backfill', undefined, 100);
      assert.ok('held' in late && /still ran 0 s later/.test(late.held.why ?? ''), 'a holder that does not end is held after the wait');
      const waited = awaitFileLock(file, 'backfill');
      setTimeout(() => holder.kill('SIGKILL'), 300);
      const taken = await waited;
      assert.ok(!('held' in taken), JSON.stringify(taken));
      taken.release();
      // the launcher alive: the holder is not dying, and is named by both
      writeFileSync(join(lockDirOf(file), '3.json'), JSON.stringify({ ...record, pid: process.pid, start: processStart(process.pid) ?? '', launcher: { pid: process.ppid, start: '', what: 'tpp run' } }));
      const alive = takeFileLock(file, 'backfill');
      assert.ok('held' in alive && alive.held.dying === undefined, JSON.stringify(alive));
      assert.match(describeHolder(alive.held), new RegExp(`^pid ${process.ppid} on .*the lock is held by its process pid ${process.pid}\\) \\(lock file`));
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('is never taken through a symbolic link', () => {
    const file = join(dir, 'j.jsonl');
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), lockDirOf(file));
    assert.throws(() => takeFileLock(file, 'tpp run'), /symbolic link/);
    assert.deepEqual(readdirSync(join(dir, 'elsewhere')), []);
  });
});
