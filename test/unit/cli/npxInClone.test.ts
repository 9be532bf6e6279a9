// README (Flows, Backfills, Command line): in a clone of this repository `tpp` is not on the PATH after `npm ci`; the
// README says `npx tpp …`, which runs the package's own bin (the built dist/cli.js) from the repository or any folder
// in it, e.g. examples/, without reaching the registry (--no: nothing is installed).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

describe('tpp in a clone of this repository: npx tpp (README)', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(join(root, 'dist/cli.js'))) {
      console.log('      skipped: dist/cli.js is not built (npm run build; npm test builds before the unit tier)');
      this.skip();
    }
  });

  it('npx --no tpp run --help, from examples/, prints the usage of the built tpp run', () => {
    const r = spawnSync('npx', ['--no', 'tpp', 'run', '--help'], { cwd: join(root, 'examples'), encoding: 'utf8', timeout: 90_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^Usage: tpp run\b/m);
  });

  it('the README writes npx tpp where it gives a tpp run line to try in a clone', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const section of ['\n### Flows\n', '\n### Backfills\n']) {
      const at = readme.indexOf(section);
      assert.ok(at >= 0, `README has ${section.trim()}`);
      const text = readme.slice(at, readme.indexOf('\n### ', at + section.length));
      assert.match(text, /npx tpp run/, `${section.trim()} says how to run tpp in a clone`);
    }
  });
});
