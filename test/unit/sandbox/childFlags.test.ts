import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { CHILD_EXEC_ARGV } from '../../../src/core/childProcess/childProtocol';
import { EmbeddedSandbox } from '../../../src/core/sandbox/embedded';
import { childOptions } from './childOptions';
import { newKey } from './helpers';

/**
 * The editor's sandbox process compiles PGlite's WebAssembly with the baseline compiler only and keeps a small young
 * generation (CHILD_EXEC_ARGV, childEnv in src/core/childProcess/childProtocol.ts): resident memory never given back.
 */
describe('Local sandbox: child process V8 options', function () {
  this.timeout(60_000);

  it('forks the child with the serving options (--liftoff-only, a small young generation, 2 malloc arenas), before the caller\'s own, and it serves', async function () {
    const key = newKey('ES256');
    const e = new EmbeddedSandbox({ ...childOptions(), partnerId: 'local-flags', publicKey: async () => key.spkiPem });
    try {
      const info = await e.ensureStarted();
      const pid = e.status.state === 'running' ? e.status.pid : undefined;
      if (!pid || !existsSync(`/proc/${pid}/cmdline`)) {
        console.log('    (skipped the command-line check: no /proc on this platform)');
      } else {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        for (const flag of CHILD_EXEC_ARGV) assert.ok(args.indexOf(flag) > 0 && args.indexOf(flag) < args.indexOf('--import'), `${flag}: ${args.join(' ')}`);
        assert.match(readFileSync(`/proc/${pid}/environ`, 'utf8'), /(^|\0)MALLOC_ARENA_MAX=2\0/, 'at most 2 malloc arenas');
      }
      const res = await fetch(`${info.v3BaseUrl}/verify-token`);
      assert.equal(res.status, 401, 'the child answers requests');
    } finally {
      await e.stop();
    }
  });
});
