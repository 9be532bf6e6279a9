import * as assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { ESLint } from 'eslint';
import { compiled, removeCompiled } from '../../../scripts/bench-sandbox/load';

/**
 * Generated files never fail the lint step: a benchmark bundles its servers where generated files go (`out/`) and
 * removes them when it ends, and ESLint skips whatever .gitignore ignores (eslint.config.mjs).
 */
const root = resolve(__dirname, '..', '..', '..');

describe('generated files and the lint step', function () {
  this.timeout(60_000);

  it("a benchmark's bundling step writes under out/, never next to its source, and removes it at the end", async () => {
    const script = join(root, 'scripts', 'bench-sandbox', 'token.ts');
    let file: string | undefined;
    try {
      file = compiled(script);
      assert.ok(existsSync(file), 'the bundle is written');
      const where = relative(root, file);
      assert.ok(where.startsWith(`out${sep}`), `bundled under out/, not at ${where}`);
      assert.ok(!existsSync(join(root, 'scripts', 'bench-sandbox', 'token.bench.cjs')), 'nothing next to the source');
      const eslint = new ESLint({ cwd: root });
      assert.equal(await eslint.isPathIgnored(file), true, 'ESLint skips the bundle');
      const [result] = await eslint.lintFiles([join(root, 'scripts', 'bench-sandbox')]);
      assert.ok(result, 'the directory is linted');
    } finally {
      removeCompiled();
    }
    assert.ok(file && !existsSync(file), 'the bundle is removed when the benchmark ends');
  });

  it('ESLint skips every file .gitignore ignores, even one that would fail the lint', async () => {
    // What an earlier benchmark left behind: a bundle next to its source, full of code the rules refuse.
    const leftover = join(root, 'scripts', 'bench-sandbox', 'left-behind.bench.cjs');
    const log = join(root, 'scripts', 'left-behind.log');
    writeFileSync(leftover, 'var unused = require("x"); debugger;\n');
    writeFileSync(log, 'not javascript at all {{{\n');
    try {
      const eslint = new ESLint({ cwd: root });
      assert.equal(await eslint.isPathIgnored(leftover), true);
      assert.equal(await eslint.isPathIgnored(log), true);
      assert.equal(await eslint.isPathIgnored(join(root, 'scripts', 'bench-sandbox', 'load.ts')), false, 'sources are still linted');
      const results = await eslint.lintFiles([join(root, 'scripts', 'bench-sandbox')]);
      assert.deepEqual(results.filter((r) => r.errorCount > 0).map((r) => relative(root, r.filePath)), []);
      assert.ok(!results.some((r) => r.filePath === leftover), 'the leftover is not linted');
    } finally {
      rmSync(leftover, { force: true });
      rmSync(log, { force: true });
    }
  });
});
