/**
 * The compatibility corpus (docs/flows.md, The same file in REST Client or httpyac): each `.http` file of this folder
 * is parsed, checked and sent by the flow runner (src/core/flows) to a local echo server that keeps the raw requests,
 * and what arrived is compared with what the file must send (cases.ts); the files marked so are sent by httpyac
 * 6.16.7 to the same server and compared with the same expectation. Every construct tpp refuses is refused before
 * anything is sent, naming it. The table of docs/flows.md names a corpus file or a refused case on each row.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { runCli } from '../../../../src/cli/cli';
import { checkFlowForRun } from '../../../../src/core/flows/check';
import { parseFlow } from '../../../../src/core/flows/parse';
import { projectAccess } from '../../../../src/core/flows/projectFiles';
import { runFlow } from '../../../../src/core/flows/run';
import { generateKeyMaterial } from '../../../../src/core/jwt/keys';
import type { FlowEnvironment, RequestResult } from '../../../../src/core/flows/types';
import { CORPUS, CORPUS_PROCESS_ENV, CORPUS_VARIABLES, REFUSED, type CorpusCase, type Expected } from './cases';
import { startEcho, type Echo, type Received } from './echo';

/** Headers a tool adds to name itself or its connection: not part of what a file makes a request carry. */
const TOOL_HEADERS = new Set(['host', 'connection', 'user-agent', 'accept-encoding', 'content-length']);
const ENVIRONMENT: FlowEnvironment = { id: 'local', baseUrl: 'https://environment.invalid/api/v3', partnerId: 'P-COMPAT' };

/** The differences between what arrived and what was expected (empty: the same bytes). */
function differences(got: readonly Received[], want: readonly Expected[], times: readonly Date[]): string[] {
  const out: string[] = [];
  if (got.length !== want.length) out.push(`${got.length} requests arrived, ${want.length} expected: ${got.map((g) => `${g.method} ${g.target}`).join(', ')}`);
  want.forEach((w, i) => {
    const g = got[i];
    if (!g) return;
    const at = `request ${i + 1} (${w.method} ${w.target})`;
    if (g.method !== w.method || g.target !== w.target) out.push(`${at}: arrived as ${g.method} ${g.target}`);
    const sent = new Map<string, string[]>();
    for (const [name, value] of g.headers) sent.set(name.toLowerCase(), [...(sent.get(name.toLowerCase()) ?? []), value]);
    const expected = Object.entries(w.headers ?? {});
    for (const [name, value] of expected) {
      const options = typeof value === 'function' ? times.map((t) => [value(t)]) : [typeof value === 'string' ? [value] : [...value]];
      if (!options.some((o) => JSON.stringify(o) === JSON.stringify(sent.get(name)))) out.push(`${at}: ${name} is ${JSON.stringify(sent.get(name))}, expected ${JSON.stringify(options[0])}`);
    }
    const extra = [...sent.keys()].filter((n) => !TOOL_HEADERS.has(n) && !(n === 'accept' && sent.get(n)?.[0] === '*/*') && !expected.some(([e]) => e === n));
    if (extra.length > 0) out.push(`${at}: also sent ${extra.map((n) => `${n}: ${sent.get(n)?.join(' | ')}`).join(', ')}`);
    const body = w.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(w.body) ? w.body : Buffer.from(w.body, 'utf8');
    if (!g.body.equals(body)) out.push(`${at}: body ${JSON.stringify(g.body.toString('latin1'))}, expected ${JSON.stringify(body.toString('latin1'))}`);
    const length = sent.get('content-length')?.[0];
    if (body.length > 0 && length !== String(body.length)) out.push(`${at}: Content-Length ${length}, the body has ${body.length} bytes`);
  });
  return out;
}

/** The environment without proxy settings: httpyac would send to the echo server through them. */
const withoutProxies = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(env).filter(([k]) => !/^(https?|all|no)_proxy$/i.test(k)));

/** The requests that arrived for a corpus file: its first path segment is the file's name. */
const forCase = (received: readonly Received[], c: CorpusCase) => received.filter((r) => r.target.split('/')[1] === c.file.replace(/\.http$/, ''));

describe('flows: the same file in REST Client and httpyac (compatibility corpus)', function () {
  this.timeout(120_000);
  let echo: Echo;
  let dir: string;
  const variables = () => ({ echo: echo.origin, ...CORPUS_VARIABLES });

  before(async () => {
    echo = await startEcho();
    dir = mkdtempSync(join(tmpdir(), 'tpp-compat-'));
    cpSync(__dirname, dir, { recursive: true, filter: (p) => !/\.ts$/.test(p) });
    writeFileSync(join(dir, 'key.pem'), (await generateKeyMaterial('P-256')).pkcs8Pem);
  });
  after(async () => {
    await echo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Parses, checks and runs one corpus file with tpp's runner; the requests that arrived and the results. */
  async function runTpp(file: string): Promise<{ received: Received[]; results: RequestResult[]; times: Date[] }> {
    const path = join(dir, file);
    const flow = parseFlow(readFileSync(path, 'utf8'), path);
    const files = projectAccess(dir);
    const names = new Set(['baseUrl', 'partnerId', ...Object.keys(variables())]);
    const problems = [...flow.problems, ...(await checkFlowForRun(flow, { names, readFile: (p) => files.read(p, path), processEnv: CORPUS_PROCESS_ENV }))].filter((p) => p.severity === 'error');
    assert.deepEqual(problems.map((p) => `${p.line}:${p.column} ${p.message}`), [], `${file} is read without problems`);
    const start = echo.received.length;
    const before = new Date();
    const results = await runFlow(flow, { environment: ENVIRONMENT, variables: variables(), processEnv: CORPUS_PROCESS_ENV, hosts: { allowed: ['127.0.0.1'] }, readFile: (p, f) => files.read(p, f), readBytes: (p, f) => files.readBytes(p, f) });
    return { received: echo.received.slice(start), results, times: [before, new Date()] };
  }

  for (const c of CORPUS) {
    it(`${c.file}: tpp sends the bytes ${c.httpyac === true ? 'httpyac sends' : 'its tool sends'}`, async () => {
      const { received, results, times } = await runTpp(c.file);
      assert.deepEqual(differences(received, c.requests, times), []);
      for (const r of results) assert.ok(r.outcome === 'passed' || (r.outcome === 'skipped' && r.request.disabled), `${r.request.label}: ${r.outcome} ${r.message ?? ''}`);
    });
  }

  it('a # @disabled request is reported skipped with why, and nothing of it is sent', async () => {
    const { results } = await runTpp('disabled.http');
    assert.deepEqual(results.map((r) => `${r.outcome} ${r.message ?? ''}`.trim()), ['passed', 'skipped Not sent: # @disabled (line 7).', 'passed']);
  });

  describe('httpyac 6.16.7 on the same files', () => {
    const compared = CORPUS.filter((c) => c.httpyac === true);
    let received: Received[] = [];
    let summary: Record<string, number> = {};
    let times: Date[] = [];
    before(async () => {
      const start = echo.received.length;
      const cli = join(dirname(require.resolve('httpyac/package.json')), 'bin', 'httpyac.js');
      const vars = Object.entries(variables()).map(([k, v]) => `${k}=${v}`);
      const before = new Date();
      const stdout = await new Promise<string>((done, fail) =>
        execFile(process.execPath, [cli, 'send', ...compared.map((c) => c.file), '--all', '--json', '--var', ...vars], { cwd: dir, env: { ...withoutProxies(process.env), ...CORPUS_PROCESS_ENV, NO_COLOR: '1' }, maxBuffer: 64 << 20 }, (err, out, errOut) => (err ? fail(new Error(`${err.message}\n${errOut}`)) : done(out))),
      );
      times = [before, new Date()];
      received = echo.received.slice(start);
      summary = (JSON.parse(stdout) as { summary: Record<string, number> }).summary;
    });
    it('runs every file: every assertion passes and the # @disabled request is skipped', () => {
      assert.equal(summary.failedTests, 0, JSON.stringify(summary));
      assert.equal(summary.erroredTests, 0, JSON.stringify(summary));
      assert.equal(summary.skippedRequests, 1, JSON.stringify(summary));
    });
    for (const c of compared) {
      it(`${c.file}: httpyac sends the same bytes`, () => assert.deepEqual(differences(forCase(received, c), c.requests, times), []));
    }
  });

  describe('constructs tpp refuses', () => {
    for (const r of REFUSED) {
      it(`${r.name}: refused before anything is sent, naming it`, () => {
        const problems = parseFlow(r.text, 'refused.http').problems.filter((p) => p.severity === 'error');
        assert.ok(problems.some((p) => r.problem.test(p.message)), problems.map((p) => p.message).join('\n') || 'no problem');
      });
    }
    it('tpp run exits 2 on a JetBrains response handler, says why, and sends nothing (it used to report 1 passed)', async () => {
      const file = join(dir, 'handler.http');
      writeFileSync(file, REFUSED[0]?.text.replace('{{echo}}', echo.origin) ?? '');
      const start = echo.received.length;
      let stderr = '';
      const code = await runCli(['run', file, '--base-url', ENVIRONMENT.baseUrl, '--iss', 'P-COMPAT', '--key', join(dir, 'key.pem')], { stdout: { write: () => true }, stderr: { write: (s: string) => (stderr += s) } });
      assert.equal(code, 2, stderr);
      assert.equal(echo.received.length, start);
      assert.match(stderr, /handler\.http:3:1: error: A response handler > \{% … %\} \(JetBrains HTTP Client, httpyac\): scripts are not run: use \?\? assertions/);
      assert.match(stderr, /nothing was sent/);
    });
  });

  it("docs/flows.md's table names a corpus file or a refused case on each row, and every file and case is in it", () => {
    const docs = readFileSync(resolve(__dirname, '../../../../docs/flows.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## The same file in REST Client or httpyac'));
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Construct') && !l.startsWith('|---'));
    assert.ok(rows.length >= CORPUS.length, `${rows.length} rows`);
    const files = new Set(readdirSync(__dirname).filter((f) => f.endsWith('.http')));
    const names = new Set(REFUSED.map((r) => r.name));
    const named: string[] = [];
    for (const row of rows) {
      const cell = row.split('|').at(-2)?.trim() ?? '';
      const refs = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
      assert.ok(refs.length > 0, `the row names its corpus file or refused case: ${row}`);
      for (const ref of refs) assert.ok(files.has(ref) || names.has(ref), `${ref} (in: ${row}) is a corpus file or a refused case`);
      named.push(...refs);
    }
    for (const f of files) assert.ok(named.includes(f), `${f} is in the table`);
    for (const n of names) assert.ok(named.includes(n), `${n} is in the table`);
  });
});
