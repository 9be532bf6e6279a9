import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { EmbeddedSandbox } from '../../../src/core/sandbox/embedded';
import { childOptions } from './childOptions';
import { newKey } from './helpers';

/**
 * The editor's sandbox process compiles PGlite's WebAssembly with the baseline compiler only (CHILD_EXEC_ARGV in
 * src/core/sandbox/childProtocol.ts): its optimised recompilation cost 70-90 MiB of resident memory for nothing.
 */
describe('Local sandbox: child process V8 options', function () {
  this.timeout(60_000);

  it('forks the child with --liftoff-only, before the caller\'s own options, and it serves', async function () {
    const key = newKey('ES256');
    const e = new EmbeddedSandbox({ ...childOptions(), partnerId: 'local-flags', publicKey: async () => key.spkiPem });
    try {
      const info = await e.ensureStarted();
      const pid = e.status.state === 'running' ? e.status.pid : undefined;
      if (!pid || !existsSync(`/proc/${pid}/cmdline`)) {
        console.log('    (skipped the command-line check: no /proc on this platform)');
      } else {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        assert.ok(args.indexOf('--liftoff-only') > 0 && args.indexOf('--liftoff-only') < args.indexOf('--import'), args.join(' '));
      }
      const res = await fetch(`${info.v3BaseUrl}/verify-token`);
      assert.equal(res.status, 401, 'the child answers requests');
    } finally {
      await e.stop();
    }
  });
});
