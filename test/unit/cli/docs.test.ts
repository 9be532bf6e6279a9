import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { CLI_COMMANDS } from '../../../src/cli/commands';
import { DOC_TOPICS, linksForTerminal } from '../../../src/cli/commands/docs';
import { controlOpenApiDocument } from '../../../src/core/sandbox/control/openapi';
import { parseControl, resetBody } from '../../../src/core/sandbox/control/schemas';

const ROOT = join(__dirname, '..', '..', '..');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } });
  return { code, out, err };
}

/**
 * `tpp docs [topic]` (src/cli/commands/docs.ts): the reference pages go wherever `tpp` is installed, and whatever names
 * a page (a `--help`, a control API message, the OpenAPI export) names its topic, never a repository path.
 */
describe('tpp docs: the reference pages, installed with tpp', function () {
  this.timeout(120_000);

  it('lists the topics without one, prints a topic with one, and refuses an unknown topic (exit 2)', async () => {
    const list = await run(['docs']);
    assert.equal(list.code, 0);
    for (const t of DOC_TOPICS) assert.match(list.out, new RegExp(`^  ${t.topic}\\s`, 'm'));
    const sandbox = await run(['docs', 'sandbox']);
    assert.equal(sandbox.code, 0, sandbox.err);
    assert.match(sandbox.out, /^# The Local sandbox/);
    assert.match(sandbox.out, /^## Control API reference/m, 'the sandbox topic goes on with the control API reference');
    assert.match(sandbox.out, /\]\(tpp docs testing\)/, 'a link to another page names its topic');
    assert.doesNotMatch(sandbox.out, /\]\(testing-your-application\.md\)/);
    const unknown = await run(['docs', 'sandboxx']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /no topic 'sandboxx'/);
  });

  it('every page of docs/ is in a topic, and every topic page exists', () => {
    const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    const covered = new Set(DOC_TOPICS.flatMap((t) => t.pages));
    assert.deepEqual(pages.filter((p) => !covered.has(p)), []);
    for (const p of covered) assert.ok(pages.includes(p), p);
  });

  it('links: another page becomes its topic (with the section), a repository path its address', () => {
    assert.equal(linksForTerminal('see [Limits](sandbox.md#limits) and [x](../examples/ci/node)', 'https://example.org/r'), 'see [Limits](tpp docs sandbox, section #limits) and [x](https://example.org/r/tree/main/examples/ci/node)');
    assert.equal(linksForTerminal('[spec](https://example.org/a.md)', undefined), '[spec](https://example.org/a.md)');
  });

  it('every --help and control API message that names a page names its tpp docs topic, never a docs/ path', async () => {
    const topics = new Set(DOC_TOPICS.map((t) => t.topic));
    const texts: [string, string][] = [];
    for (const { name } of CLI_COMMANDS) texts.push([`tpp ${name} --help`, (await run([name, '--help'])).out]);
    texts.push(['the OpenAPI export of the control API', JSON.stringify(controlOpenApiDocument('0.0.0'))]);
    try {
      parseControl(resetBody, { keepClock: true });
    } catch (err) {
      texts.push(['an unknown property of a control call', JSON.stringify(err)]);
    }
    assert.equal(texts.length, CLI_COMMANDS.length + 2);
    for (const [where, text] of texts) {
      assert.doesNotMatch(text, /docs\/[\w-]+\.md|toolkit's repository/, `${where} names a file of the repository`);
      for (const m of text.matchAll(/tpp docs ([a-z][\w-]*)/g)) assert.ok(topics.has(m[1] as string), `${where}: tpp docs ${m[1]} is no topic`);
    }
    const sandboxHelp = texts.find(([w]) => w === 'tpp sandbox --help')?.[1] ?? '';
    assert.match(sandboxHelp, /tpp docs sandbox/);
    assert.match(sandboxHelp, /tpp docs testing/);
  });

  it('the packed tpp carries docs/ and a package.json with repository, homepage and bugs', function () {
    if (!existsSync(join(ROOT, 'dist', 'cli.js')) || !readdirSync(join(ROOT, 'dist')).some((f) => f.startsWith('pglite-template-'))) {
      console.log('      skipped: dist/ is not built (npm run build)');
      this.skip();
    }
    const out = mkdtempSync(join(tmpdir(), 'tpp-pack-'));
    try {
      const pack = spawnSync(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs'), '--no-build', '--out', out], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(pack.status, 0, pack.stderr);
      const stage = join(out, 'cli-package');
      const pkg = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
      const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      assert.deepEqual([pkg.repository, pkg.homepage, pkg.bugs], [root.repository, root.homepage, root.bugs]);
      assert.ok(pkg.files.includes('docs'));
      assert.deepEqual(readdirSync(join(stage, 'docs')).sort(), readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort());
      const listed = spawnSync('tar', ['-tzf', pack.stdout.trim().split('\n').pop() as string], { encoding: 'utf8' }).stdout;
      assert.match(listed, /^package\/docs\/sandbox\.md$/m);
      assert.match(listed, /^package\/dist\/cli-docs\.js$/m);
      // The packed command prints its pages from the package's own docs/.
      const printed = spawnSync(process.execPath, [join(stage, 'dist', 'cli.js'), 'docs', 'testing'], { encoding: 'utf8' });
      assert.equal(printed.status, 0, printed.stderr);
      assert.match(printed.stdout, /^# Testing your application against the Local sandbox/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
