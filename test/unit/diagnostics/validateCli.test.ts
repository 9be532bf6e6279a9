import * as assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { PAYLOAD_KINDS } from '../../../src/core/contract';
import type { ValidateJsonProblem } from '../../../src/cli/commands/validate';

async function run(argv: string[], cwd?: string) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } };
  const before = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const code = await runCli(argv, io);
    return { code, stdout, stderr };
  } finally {
    process.chdir(before);
  }
}

describe('tpp validate', () => {
  let dir: string;
  const good = JSON.stringify(PAYLOAD_KINDS['v2-sales'].template, null, 2);
  const tmpl = PAYLOAD_KINDS['v2-registrations'].template as { Registrations: Record<string, unknown>[] };
  const bad = JSON.stringify({ ...tmpl, Registrations: [{ ...tmpl.Registrations[0], ShopID: 'S'.repeat(31), InvoiceNumer: 'x' }] }, null, 2);
  const warnOnly = JSON.stringify({ ...tmpl, Registrations: [{ ...tmpl.Registrations[0], Colour: 'red' }] }, null, 2);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-validate-'));
    mkdirSync(join(dir, 'payloads/sub'), { recursive: true });
    writeFileSync(join(dir, 'payloads/good.json'), good);
    writeFileSync(join(dir, 'payloads/sub/bad.json'), bad);
    writeFileSync(join(dir, 'payloads/warn.json'), warnOnly);
    writeFileSync(join(dir, 'payloads/other.json'), '{"name": "not a payload"}');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 for a valid file', async () => {
    const r = await run(['validate', 'payloads/good.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /1 file checked: 0 errors, 0 warnings/);
  });

  it('prints path:line:col: severity: message [code] (1-based) and exits 1 with errors', async () => {
    const r = await run(['validate', 'payloads/sub/bad.json'], dir);
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n');
    const shopLine = bad.split('\n').findIndex((l) => l.includes('"ShopID"'));
    const col = bad.split('\n')[shopLine]!.indexOf('"SSS') + 1;
    assert.deepEqual(lines, [
      `payloads/sub/bad.json:${shopLine + 1}:${col}: error: ShopID: at most 25 characters, got 31 [max-length]`,
      `payloads/sub/bad.json:${bad.split('\n').findIndex((l) => l.includes('"InvoiceNumer"')) + 1}:7: warning: InvoiceNumer: unknown property [unknown-property]`,
    ]);
  });

  it('exits 0 with warnings only', async () => {
    const r = await run(['validate', 'payloads/warn.json'], dir);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /warning: Colour: unknown property \[unknown-property\]/);
  });

  it('--format json prints an array of {file, line, column, endLine, endColumn, severity, message, code}', async () => {
    const r = await run(['validate', '--format', 'json', 'payloads/sub/bad.json', 'payloads/good.json'], dir);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as ValidateJsonProblem[];
    assert.equal(out.length, 2);
    const p = out[0]!;
    assert.deepEqual(Object.keys(p).sort(), ['code', 'column', 'endColumn', 'endLine', 'file', 'line', 'message', 'severity']);
    assert.equal(p.file, 'payloads/sub/bad.json');
    assert.equal(p.endColumn - p.column, 33, 'the range covers the quoted 31-character value');
    assert.equal(p.endLine, p.line);
  });

  it('expands globs, skipping files without a tpp $schema', async () => {
    const r = await run(['validate', 'payloads/**/*.json'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /3 files checked: 1 error, 2 warnings, 1 skipped \(no tpp \$schema\)/);
  });

  it('reports an explicitly named non-payload file as an error', async () => {
    const r = await run(['validate', 'payloads/other.json'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /payloads\/other.json:1:1: error: not a payload file/);
  });

  it('exits 2 for a missing file, with a message and no stack trace, after checking the others', async () => {
    const r = await run(['validate', 'payloads/nope.json', 'payloads/good.json'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /payloads\/nope.json: cannot read: no such file/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('exits 2 on usage errors', async () => {
    assert.equal((await run(['validate'], dir)).code, 2);
    assert.equal((await run(['validate', '--format', 'xml', 'payloads/good.json'], dir)).code, 2);
    assert.equal((await run(['validate', '--bogus', 'payloads/good.json'], dir)).code, 2);
    const r = await run(['validate', 'nothing/*.json'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no file matches nothing\/\*\.json/);
  });
});
