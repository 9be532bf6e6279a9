import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, findTool, removeDir, ROOT, scratchDir, tppBinDir } from './harness';

// examples/ci/: an integrator's own test suites (pytest, node:test) that start a Local sandbox from `tpp` on PATH (here
// the built dist/cli.js) and drive it through the control API: reset per test, a create verified through the journal,
// a scheduled 503 then success (no duplicate), a claim after expiry via the clock (409), a broken token's diagnosis.

describe('examples/ci: integrator test suites against a sandbox they start (pytest, node:test)', function () {
  this.timeout(180000);
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(function () {
    if (!existsSync(CLI)) {
      console.log(`      skipped: ${CLI} is not built (npm run build; npm test builds first)`);
      this.skip();
    }
    dir = scratchDir();
    env = { ...process.env, PATH: `${tppBinDir(dir)}:${process.env.PATH ?? ''}`, PYTHONDONTWRITEBYTECODE: '1' };
  });
  after(() => {
    if (dir) removeDir(dir);
  });

  const run = (cmd: string, args: string[], cwd: string) => spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 170000 });

  it('node:test suite (examples/ci/node) passes', () => {
    const r = run(process.execPath, ['--test', 'registrations.test.mjs'], join(ROOT, 'examples/ci/node'));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /# pass 4\b/);
    assert.match(r.stdout, /# fail 0\b/);
  });

  it('pytest suite (examples/ci/python) passes', function () {
    const python = findTool(['/usr/bin/python3', 'python3'], ['-c', 'import pytest, jwt, cryptography']);
    if (!python) {
      console.log("      skipped: no python3 with pytest and PyJWT: install Debian's python3-pytest python3-jwt python3-cryptography (test/samples/setup-toolchains.sh does)");
      this.skip();
    }
    const r = run(python as string, ['-m', 'pytest', '-q', '--color=no', '-p', 'no:cacheprovider'], join(ROOT, 'examples/ci/python'));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /\b4 passed\b/);
  });
});
