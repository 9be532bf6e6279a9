import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_COMMANDS } from '../../../src/cli/commands';
import { CHILD_EXEC_ARGV } from '../../../src/core/childProcess/childProtocol';

// The published `tpp` is dist/cli.js: a small entry that loads each command's bundle (dist/cli-<name>.js) only when
// that command runs ("fast and small"). These tests run the built files, as a user's `tpp` does.
const dist = join(__dirname, '../../../dist');
const cli = join(dist, 'cli.js');
const example = join(__dirname, '../../../examples/tire-protection-registration.json');

describe('tpp from dist/cli.js (the built command line)', function () {
  this.timeout(60000);
  before(function () {
    if (!existsSync(cli)) {
      console.log(`      skipped: ${cli} is not built (npm run build; npm test builds before the unit tier)`);
      this.skip();
    }
  });

  for (const { name } of CLI_COMMANDS) {
    it(`tpp ${name} --help prints its usage from its own bundle, exit 0`, () => {
      const r = spawnSync(process.execPath, [cli, name, '--help'], { encoding: 'utf8', timeout: 30000 });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^Usage: tpp ${name}\\b`));
    });
  }

  it('tpp help lists every command without loading any command bundle', () => {
    const probe = `process.argv = [process.argv[0], ${JSON.stringify(cli)}, 'help']; require(${JSON.stringify(cli)}); process.on('exit', () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));`;
    const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 30000 });
    for (const { name } of CLI_COMMANDS) assert.match(r.stdout, new RegExp(`^  ${name} `, 'm'));
    const loaded = (JSON.parse(r.stderr) as string[]).filter((f) => f.startsWith(dist));
    assert.deepEqual(loaded, [cli]);
  });

  it('tpp validate loads only its own bundle: no sandbox server, database or HTTP client', () => {
    const probe = `process.argv = [process.argv[0], ${JSON.stringify(cli)}, 'validate', ${JSON.stringify(example)}]; require(${JSON.stringify(cli)}); process.on('exit', () => process.stderr.write('\\n' + JSON.stringify(Object.keys(require.cache))));`;
    const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 30000 });
    assert.match(r.stderr, /^1 file checked: 0 errors, 0 warnings$/m);
    const loaded = (JSON.parse(r.stderr.trim().split('\n').at(-1)!) as string[]).filter((f) => f.startsWith(dist));
    assert.deepEqual(loaded.sort(), [join(dist, 'cli-validate.js'), cli]);
    assert.equal(r.status, 0);
  });

  it('tpp validate prints the same and exits the same with its compile cache missing, written, or damaged', () => {
    const work = mkdtempSync(join(tmpdir(), 'tpp-dist-cache-'));
    try {
      const bad = join(work, 'bad.tire-protection-registration.tpp.json');
      writeFileSync(bad, '{ "invoiceNumber": 42, "vehicle": { "year": "2021" } }\n');
      const cache = join(work, 'cache');
      const run = () => spawnSync(process.execPath, [cli, 'validate', bad, example], { encoding: 'utf8', timeout: 30000, env: { ...process.env, TPP_COMPILE_CACHE_DIR: cache } });
      const seen = [run()];
      const hasOwnCache = typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
      if (!hasOwnCache) {
        const written = readdirSync(cache).filter((f) => f.startsWith('cli-validate-'));
        assert.equal(written.length, 1, 'the first run writes the cache of cli-validate.js');
        seen.push(run());
        writeFileSync(join(cache, written[0]!), 'damaged');
      }
      seen.push(run());
      for (const r of seen) {
        assert.equal(r.status, 1);
        assert.match(r.stdout, /bad\.tire-protection-registration\.tpp\.json:1:\d+: error: /);
        assert.match(r.stderr, /^2 files checked: [1-9]\d* errors?, /m);
        assert.deepEqual([r.stdout, r.stderr], [seen[0]!.stdout, seen[0]!.stderr]);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('a usage error thrown inside a command bundle is still reported as one (exit 2, with the usage)', () => {
    const r = spawnSync(process.execPath, [cli, 'validate', '--format', 'xml', example], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^tpp validate: --format must be text or json, got 'xml'\nUsage: tpp validate /);
  });

  it('tpp sandbox starts from dist (the server from dist/sandbox.js), answers, and stops on SIGTERM with exit 0', async () => {
    const child = spawn(process.execPath, [cli, 'sandbox'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (s: string) => {
          out += s;
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.on('exit', (code) => reject(new Error(`tpp sandbox exited ${code} before printing its address: ${stderr}`)));
      });
      assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
      // Spec: Authentication — a request without a token is refused with 401.
      const res = await fetch(`${base}/verify-token`);
      assert.equal(res.status, 401);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, stderr);
    assert.match(stderr, /Stopping \(SIGTERM\)/);
  });

  /** Pids of the processes whose parent is `pid` (Linux /proc). */
  const childrenOf = (pid: number) =>
    readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .filter((n) => {
        try {
          return readFileSync(`/proc/${n}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1] === String(pid);
        } catch {
          return false;
        }
      })
      .map(Number);
  const gone = async (pid: number) => {
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return true;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  it('tpp sandbox serves from a process with the serving V8 options; SIGINT and SIGHUP stop it cleanly, and it ends with a killed tpp', async function () {
    if (!existsSync('/proc/self/stat')) {
      console.log('      skipped: no /proc on this platform to find the serving process');
      return this.skip();
    }
    // SIGHUP (a closed terminal) stops it as SIGTERM does; SIGKILL of tpp leaves the server to notice on its own and
    // stop as cleanly (its IPC channel closed: "Stopping (abort)"), not killed by the backfill runner's rule.
    for (const how of ['SIGINT', 'SIGHUP', 'SIGKILL'] as const) {
      const child = spawn(process.execPath, [cli, 'sandbox', '--no-admin'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // The serving process shares tpp's stderr: the pipe ends once both are gone.
      const stderrEnded = new Promise<void>((resolve) => child.stderr.once('end', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.setEncoding('utf8').once('data', () => resolve());
        child.on('exit', (code) => reject(new Error(`tpp sandbox exited ${code} before printing its address: ${stderr}`)));
      });
      const [server] = childrenOf(child.pid as number);
      assert.ok(server, 'a serving process');
      const args = readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0');
      assert.ok(CHILD_EXEC_ARGV.every((f) => args.includes(f)), args.join(' '));
      assert.match(readFileSync(`/proc/${server}/environ`, 'utf8'), /(^|\0)MALLOC_ARENA_MAX=2\0/);
      child.kill(how);
      const code = await exited;
      assert.ok(await gone(server), `the serving process ended after ${how} of tpp`);
      if (how !== 'SIGKILL') {
        assert.equal(code, 0, stderr);
        assert.equal(stderr.match(/Stopping \(SIG\w+\)/g)?.join(), how === 'SIGINT' ? 'Stopping (SIGINT)' : 'Stopping (SIGTERM)', stderr);
      } else {
        await stderrEnded;
        assert.match(stderr, /Stopping \(abort\)/, stderr);
      }
    }
  });
});
