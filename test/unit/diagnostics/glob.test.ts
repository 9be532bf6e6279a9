import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandGlob, isGlob } from '../../../src/core/diagnostics/glob';

// `tpp validate` globs (payload globs must terminate on a symlink cycle).
describe('payload globs (tinyglobby)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-glob-'));
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    mkdirSync(join(dir, 'node_modules/x'), { recursive: true });
    mkdirSync(join(dir, '.hidden'), { recursive: true });
    writeFileSync(join(dir, 'top.json'), '{}');
    writeFileSync(join(dir, 'top.jsonc'), '{}');
    writeFileSync(join(dir, 'a/one.json'), '{}');
    writeFileSync(join(dir, 'a/b/two.json'), '{}');
    writeFileSync(join(dir, 'node_modules/x/dep.json'), '{}');
    writeFileSync(join(dir, '.hidden/secret.json'), '{}');
    // A cycle: a/b/loop -> a (a/b/loop/b/loop/... never ends for a naive walk).
    symlinkSync(join(dir, 'a'), join(dir, 'a/b/loop'), 'dir');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('tells globs from plain paths', () => {
    assert.ok(isGlob('*.json') && isGlob('a/**') && isGlob('x.{a,b}') && isGlob('f[12].json'));
    assert.ok(!isGlob('a/b.json'));
  });

  it('matches like a shell: * stays in one directory, ** crosses them, braces choose', () => {
    assert.deepEqual(expandGlob('*.json', dir), ['top.json']);
    assert.deepEqual(expandGlob('*.{json,jsonc}', dir), ['top.json', 'top.jsonc']);
    assert.deepEqual(expandGlob('a/*.json', dir), ['a/one.json']);
  });

  it('ends on a symbolic link cycle and skips node_modules and dot directories', function () {
    this.timeout(10000);
    const found = expandGlob('**/*.json', dir);
    assert.ok(found.includes('top.json') && found.includes('a/one.json') && found.includes('a/b/two.json'), found.join(','));
    assert.ok(!found.some((f) => f.includes('node_modules') || f.includes('.hidden')), found.join(','));
    assert.deepEqual(found, ['a/b/two.json', 'a/one.json', 'top.json'], 'each file once, by its shortest path');
  });

  it('keeps the base directory the user wrote, and matches nothing in a missing one', () => {
    assert.deepEqual(expandGlob(`${dir}/a/*.json`, '/'), [`${dir}/a/one.json`]);
    assert.deepEqual(expandGlob('missing/**/*.json', dir), []);
  });
});
