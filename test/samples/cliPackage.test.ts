import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, removeDir, ROOT, scratchDir } from './harness';

// `tpp` without this repository: scripts/pack-cli.mjs packs the built CLI into one tarball with no dependencies, and
// `npm install -g` of it into an empty prefix, offline, gives a `tpp` that validates a payload and runs the sandbox
// (its PGlite assets inside the package), as on an integrator's CI machine that never cloned this repository.

describe('the tpp package (npm pack of the CLI, installed into an empty prefix)', function () {
  this.timeout(180000);
  let dir: string;
  let prefix: string;
  let tpp: string;

  before(function () {
    if (!existsSync(CLI)) {
      console.log(`      skipped: ${CLI} is not built (npm run build; npm test builds first)`);
      this.skip();
    }
    dir = scratchDir();
    const pack = spawnSync(process.execPath, [join(ROOT, 'scripts/pack-cli.mjs'), '--no-build', '--out', dir], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(pack.status, 0, pack.stderr);
    const tarball = pack.stdout.trim().split('\n').pop()!;
    assert.match(tarball, /tpp-cli-\d+\.\d+\.\d+\.tgz$/);
    prefix = mkdtempSync(join(tmpdir(), 'tpp-prefix-'));
    // --offline: the install must not need the registry (no dependencies, no install scripts that download).
    const install = spawnSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], { encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    tpp = join(prefix, 'bin', 'tpp');
  });

  after(() => {
    if (dir) removeDir(dir);
    if (prefix) removeDir(prefix);
  });

  it('holds no dependencies and no editor bundle', () => {
    const installed = join(prefix, 'lib/node_modules/tpp-cli');
    assert.ok(!existsSync(join(installed, 'node_modules')), 'the package installs no dependencies');
    const files = readdirSync(join(installed, 'dist'));
    for (const f of ['cli.js', 'cli-sandbox.js', 'sandbox.js', 'pglite.wasm', 'pglite.data']) assert.ok(files.includes(f), `dist/${f} is in the package`);
    for (const f of ['extension.js', 'commands.js', 'flows.js', 'webview']) assert.ok(!files.includes(f), `dist/${f} (the editor's) is not in the package`);
    assert.ok(statSync(tpp).mode & 0o111, 'bin/tpp is executable');
  });

  it('answers --version and validates an example payload', () => {
    const v = spawnSync(tpp, ['--version'], { encoding: 'utf8' });
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout.trim(), /^\d+\.\d+\.\d+$/);
    const ok = spawnSync(tpp, ['validate', join(ROOT, 'examples/tire-protection-registration.json')], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  });

  it('starts a sandbox that answers a request without a token with 401', async () => {
    const child = spawn(tpp, ['sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
        child.stdout.setEncoding('utf8').on('data', (s: string) => {
          out += s;
          if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
        });
        child.on('exit', (code) => reject(new Error(`tpp sandbox exited ${code}: ${err}`)));
      });
      assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
      const res = await fetch(`${base}/tire-protection/registrations`);
      assert.equal(res.status, 401);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
