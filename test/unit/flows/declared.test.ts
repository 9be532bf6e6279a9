/**
 * Names a flow declares as given from outside it, `# @var company` (src/core/flows/declared.ts; docs/flows.md,
 * Format): the parser reads them, a malformed declaration is a problem at its line, the check before a run
 * (`checkFlowForRun`, what `tpp run` and the editor's diagnostics call) refuses a declared name not given and a name
 * both declared and defined, and `tpp run` exits 2 naming `--var` before anything is sent.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { checkFlowForRun, parseFlow } from '../../../src/core/flows';
import { generateKeyMaterial } from '../../../src/core/jwt/keys';

const ENV = ['baseUrl', 'v2BaseUrl', 'eligibilityBaseUrl', 'partnerId'];
const V2_FLOW = ['# @var company   the partner name segment of version 2 URLs', '', '### list', 'GET {{v2BaseUrl}}/v2/partners/{{company}}?rec=sales', '', '?? status == 200', ''].join('\n');
const check = (text: string, given: readonly string[]) => checkFlowForRun(parseFlow(text, 'f.http'), { names: new Set([...ENV, ...given]) });
const lines = (ps: readonly { line: number; column: number; code?: string; message: string }[]) => ps.map((p) => `${p.line}:${p.column} ${p.code ?? ''} ${p.message}`);

describe('flows: names declared with # @var', () => {
  it('reads # @var and // @var lines with their position and description, each name once', () => {
    const f = parseFlow(['# @var company   the partner name segment', '// @var region', '# @var company', '# @variable is a comment', 'GET {{baseUrl}}/verify-token', ''].join('\n'), 'f.http');
    assert.deepEqual(f.declared, [
      { name: 'company', line: 1, column: 3, description: 'the partner name segment' },
      { name: 'region', line: 2, column: 4 },
    ]);
    assert.deepEqual(f.problems, []);
    assert.equal(parseFlow('GET {{baseUrl}}/verify-token\n', 'f.http').declared, undefined, 'absent when nothing is declared');
  });

  it('refuses a declaration without a name, with a value, or with a name that is not a variable name', () => {
    const problems = (line: string) => lines(parseFlow(`${line}\nGET {{baseUrl}}/verify-token\n`, 'f.http').problems);
    assert.match(problems('# @var')[0] ?? '', /^1:3 flow-declared-variable @var needs the name/);
    assert.match(problems('# @var company = local')[0] ?? '', /takes no value: .*--var company=….*@company = …/);
    assert.match(problems('# @var company=local')[0] ?? '', /takes no value/);
    assert.match(problems('# @var row.invoice')[0] ?? '', /'row\.invoice' is not a variable name.*# @data/);
    assert.deepEqual(problems('# @var company the name, as in a=b'), [], 'an = in the description is words');
  });

  it('the check before a run: a declared name not given is one error at its declaration, naming --var', async () => {
    const missing = await check(V2_FLOW, []);
    assert.deepEqual(lines(missing), ['1:3 flow-declared-variable company is declared with # @var but not given: pass --var company=… (in the editor, set company in tpp.variables for the environment).']);
    assert.deepEqual(await check(V2_FLOW, ['company']), [], 'given: no problem, and {{company}} is no unknown variable');
  });

  it('the check before a run: a name declared and defined in the file is refused (the file value would win over --var)', async () => {
    const both = await check(`@company = acme\n${V2_FLOW}`, ['company']);
    assert.deepEqual(lines(both), ['2:3 flow-declared-variable company is declared with # @var (given from outside the file) and defined with @company = … on line 1; the file\'s value would win over --var company=…: keep one.']);
  });

  it('an undeclared, ungiven name is still an unknown variable', async () => {
    const unknown = await check('GET {{v2BaseUrl}}/v2/partners/{{company}}?rec=sales\n', []);
    assert.deepEqual(unknown.map((p) => p.code), ['flow-unknown-variable']);
  });

  describe('tpp run', () => {
    let dir: string;
    let partner: string[];
    const run = async (...args: string[]) => {
      let stderr = '';
      const io = { stdout: { write: () => true }, stderr: { write: (s: string) => ((stderr += s), true) } };
      return { code: await runCli(['run', ...args, ...partner], io), stderr };
    };
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tpp-declared-'));
      writeFileSync(join(dir, 'v2.http'), V2_FLOW);
      for (const f of ['sales-v2.http', 'sales-2025.csv']) copyFileSync(join(__dirname, '..', '..', '..', 'examples', 'backfill', f), join(dir, f));
      writeFileSync(join(dir, 'key.pem'), (await generateKeyMaterial('P-256')).pkcs8Pem);
      // Port 9 (discard) on the loopback: nothing is sent by these runs, so nothing needs to listen there.
      partner = ['--base-url', 'http://127.0.0.1:9/api/v3', '--iss', 'P-DECLARED', '--key', join(dir, 'key.pem')];
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('exits 2 before sending when a declared name is not given, naming the line and --var', async () => {
      const { code, stderr } = await run(join(dir, 'v2.http'));
      assert.equal(code, 2, stderr);
      assert.match(stderr, /v2\.http:1:3: error: company is declared with # @var but not given: pass --var company=…/);
      assert.match(stderr, /nothing was sent/);
    });

    it('the example backfill sales-v2.http: exit 2 without --var company, every row valid with it (dry run)', async () => {
      const without = await run(join(dir, 'sales-v2.http'), '--dry-run');
      assert.equal(without.code, 2, without.stderr);
      assert.match(without.stderr, /company is declared with # @var but not given: pass --var company=…/);
      const given = await run(join(dir, 'sales-v2.http'), '--dry-run', '--var', 'company=local', '--no-journal');
      assert.equal(given.code, 0, given.stderr);
    });
  });
});
