import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { CLI_COMMANDS } from '../../../src/cli/commands';

/** Runs the CLI in-process and captures what it writes. */
export async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

describe('tpp CLI', () => {
  it('prints help listing its commands, exit 0', async () => {
    const r = await cli('help');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Usage: tpp <command>/);
    assert.match(r.stdout, /environments/);
  });

  it("the README's Command line table has a row for every command tpp help lists", () => {
    const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
    const start = readme.indexOf('\n## Command line');
    const table = readme.slice(start, readme.indexOf('\n#', start + 1));
    const rows = new Set([...table.matchAll(/^\| `tpp ([a-z]+)/gm)].map((m) => m[1]));
    assert.deepEqual(CLI_COMMANDS.map((c) => c.name).filter((name) => !rows.has(name)), [], 'commands without a row');
  });

  it('exits 2 with usage when run without a command', async () => {
    const r = await cli();
    assert.equal(r.code, 2);
    assert.match(r.stdout, /Usage: tpp/);
  });

  it('rejects an unknown command with exit 2 and no stack trace', async () => {
    const r = await cli('frobnicate');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command 'frobnicate'/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('reports an unknown option as a usage error (exit 2)', async () => {
    const r = await cli('environments', '--bogus');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Usage: tpp environments/);
  });

  it('lists the environments as JSON', async () => {
    const r = await cli('environments', '--format', 'json');
    assert.equal(r.code, 0);
    assert.deepEqual((JSON.parse(r.stdout) as { id: string }[]).map((e) => e.id), ['local', 'sandbox', 'production']);
  });
});
